/**
 * A relay that forks a table after a witness cosigned it is caught by a reader with an empty home
 * (issue 27): a real relay with its storage in a directory and a real `trestle witness` process; a
 * table whose signed config names that witness (k = 1); writes, until the relay's checkpoint
 * carries the witness's cosignature. An empty home given only the witness key accepts it
 * (`trestle checkpoint`), and `trestle verify` of the table and of its export prints the witnesses.
 * Then the relay is rolled back to an older copy of its storage (as rollback.test.ts does it) and
 * written differently to the same length: the witness refuses the forked checkpoint and keeps both
 * as evidence, and an empty home given the witness key finds the checkpoint witnessed by none.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBase64url } from "../../../src/protocol/index.js";
import { tableOrigin } from "../../../src/protocol/tlog/checkpoint.js";
import { formatVerifierKey, SIG_TYPE_ED25519 } from "../../../src/protocol/tlog/note.js";
import { cli, type CliProcess, type CliRun } from "../../support/cli.js";
import { RolledBackRelay } from "../../support/rolled-back-relay.js";

const rig = new RolledBackRelay("witnessed-fork", 27);
const { table, work, honestHome, otherHome } = rig;
let witness: CliProcess;
let witnessUrl: string;
let witnessKey: string;
let honestNote: string;
let forkedNote: string;
/** What an empty home printed for the honest relay's checkpoint, and `verify` of the table and of its export. */
let honest: { checkpoint: CliRun; verifyTable: CliRun; verifyFile: CliRun };

const seat = (name: string) => rig.seat(name);
const emptyHome = () => mkdtempSync(join(work, "empty-"));
const checkpointNote = async () => (await fetch(`${rig.relay.url}/tables/${table}/checkpoint`)).text();
const sizeOf = (note: string) => Number(note.split("\n")[1]);
const bodyOf = (note: string) => note.split("\n").slice(0, 3).join("\n");

/** The relay's checkpoint once it carries the witness's cosignature (the alarm submits ~2 s after writes); polled at most 120 times. */
async function cosigned(): Promise<string> {
  const name = witnessKey.slice(0, witnessKey.indexOf("+"));
  for (let i = 0; i < 120; i++) {
    const note = await checkpointNote();
    if (note.includes(`\n— ${name} `)) return note;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the witness never cosigned the relay's checkpoint");
}

interface Evidence {
  kind: string;
  cosigned: string;
  conflicting: string;
}

/** The witness's evidence once it holds some; polled at most 120 times. */
async function evidence(): Promise<Evidence[]> {
  for (let i = 0; i < 120; i++) {
    const kept = ((await (await fetch(`${witnessUrl}/evidence`)).json()) as { evidence: Evidence[] }).evidence;
    if (kept.length > 0) return kept;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the witness kept no evidence");
}

beforeAll(async () => {
  let url = await rig.restart();
  const relayKey = ((await (await fetch(`${url}/.well-known/trestle.json`)).json()) as { relay_key: string }).relay_key;
  // The table's origin names the host its create request reached; it stays that after restarts.
  const origin = tableOrigin(new URL(url).host, table);
  witness = cli(mkdtempSync(join(work, "witness-")), url).start([
    "witness",
    "--log",
    `${origin}=${formatVerifierKey(origin, SIG_TYPE_ED25519, fromBase64url(relayKey))}`,
    "--json",
  ]);
  const info = JSON.parse((await witness.printed(/^\{.*\}$/m))[0]) as { url: string; verifier_key: string };
  witnessUrl = info.url;
  witnessKey = info.verifier_key;
  await rig.seatTwoOwners({ witnesses: { k: 1, list: [{ key: witnessKey, url: witnessUrl }] } });
  await cosigned();

  // The older copy of the relay's storage, whose newest checkpoint the witness cosigned.
  await rig.keepOldCopy();

  // The honest history goes on and is witnessed; an empty home reads it, the honest one verifies it.
  url = await rig.restart();
  const t = cli(honestHome, url);
  for (const line of ["asking 3,600", "3,400 then", "done at 3,500"])
    expect((await t.run(["say", ...seat("sa"), line])).code).toBe(0);
  honestNote = await cosigned();
  const exported = join(work, "export.jsonl");
  expect((await t.run(["export", "--table", table, "--owner", "oa", "--out", exported])).code).toBe(0);
  honest = {
    checkpoint: await cli(emptyHome(), url).run([
      "checkpoint",
      "--table",
      table,
      "--witness",
      witnessKey,
      "--witness-k",
      "1",
    ]),
    verifyTable: await t.run(["verify", table, "--owner", "oa"]),
    verifyFile: await t.run(["verify", exported]),
  };

  // Rolled back to the older copy, then written differently to the same length.
  url = await rig.rollBack();
  const other = cli(otherHome, url);
  for (let i = 0; sizeOf(await checkpointNote()) < sizeOf(honestNote); i++)
    expect((await other.run(["say", ...seat("sb"), `another history, turn ${i}`])).code).toBe(0);
  forkedNote = await checkpointNote();
}, 180_000);

afterAll(async () => {
  witness?.child.kill("SIGTERM");
  await witness?.done;
  await rig.dispose();
});

describe("a table its config has a witness cosign", { timeout: 60_000 }, () => {
  it("is accepted by a reader with an empty home that trusts only the witness key", () => {
    expect(honest.checkpoint.code).toBe(0);
    expect(honest.checkpoint.stdout).toContain(
      `WITNESSED: the log ${bodyOf(honestNote).split("\n")[0]} at size ${sizeOf(honestNote)}`,
    );
    expect(honest.checkpoint.stdout).toMatch(/witnessed by 1 of 1 \(policy: 1 of 1\): trestle-witness\//);
  });

  it("has its witnesses printed by trestle verify: online who cosigned up to which size, from an export the list", () => {
    const name = witnessKey.slice(0, witnessKey.indexOf("+"));
    expect(honest.verifyTable.code).toBe(0);
    expect(honest.verifyTable.stdout).toContain(
      `witnesses named by the config (policy: 1 of 1): ${name} <${witnessUrl}>`,
    );
    expect(honest.verifyTable.stdout).toContain(
      `the relay's checkpoint at size ${sizeOf(honestNote)}: witnessed by 1 of 1 (policy: 1 of 1): ${name} (at `,
    );
    expect(honest.verifyFile.code).toBe(0);
    expect(honest.verifyFile.stdout).toContain(
      `witnesses named by the config (policy: 1 of 1): ${name} <${witnessUrl}>`,
    );
  });

  describe("when the relay forks it after the witness cosigned", () => {
    it("is caught by a reader with an empty home: the forked checkpoint is witnessed by none (exit 5)", async () => {
      expect(sizeOf(forkedNote)).toBe(sizeOf(honestNote));
      expect(bodyOf(forkedNote)).not.toBe(bodyOf(honestNote));
      const read = await cli(emptyHome(), rig.relay.url).run([
        "checkpoint",
        "--table",
        table,
        "--witness",
        witnessKey,
        "--witness-k",
        "1",
      ]);
      expect(read.code).toBe(5);
      expect(read.stdout).toContain(
        `SIGNED BY THE RELAY ONLY: the log ${bodyOf(forkedNote).split("\n")[0]} at size ${sizeOf(forkedNote)}`,
      );
      expect(read.stdout).toContain("witnessed by 0 of 1 (policy: 1 of 1)");
    });

    it("is refused by the witness, which keeps the cosigned and the forked checkpoint as evidence", async () => {
      const kept = await evidence();
      expect(kept.map((e) => [e.kind, bodyOf(e.cosigned), bodyOf(e.conflicting)])).toContainEqual([
        "fork",
        bodyOf(honestNote),
        bodyOf(forkedNote),
      ]);
    });
  });
});
