/**
 * Moving a table between relays from the command line (docs/SPEC.md §8.4): a real CLI against
 * real local relays with different keys. A table made at one relay is exported, imported into
 * another with two of its three owners' signatures, verified CLEAN there naming the past key, and
 * written on; a table mirrored at a third relay follows its origin, refuses a fork by it, and is
 * promoted when the origin goes away.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64url } from "../../../src/protocol/index.js";
import { cli } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";

// origin and twin share a key: the same operator able to serve two histories of one table.
const ORIGIN_SEED = toBase64url(new Uint8Array(32).fill(21));
let origin: LocalRelay;
let twin: LocalRelay;
let target: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;

beforeAll(async () => {
  [origin, twin, target] = await Promise.all([
    startRelay({ signingKey: ORIGIN_SEED }),
    startRelay({ signingKey: ORIGIN_SEED }),
    startRelay({ signingKey: toBase64url(new Uint8Array(32).fill(22)) }),
  ]);
  home = mkdtempSync(join(tmpdir(), "trestle-custody-"));
  t = cli(home, origin.url);
  for (const owner of ["ops", "tao", "jenny"]) expect((await t.run(["keygen", "--owner", owner])).code).toBe(0);
}, 60_000);
let originGone = false;
afterAll(() => Promise.all([originGone ? undefined : origin?.dispose(), twin?.dispose(), target?.dispose()]));

const keyOf = (owner: string) =>
  JSON.parse(readFileSync(join(home, "owners", `${owner}.json`), "utf8")).public_key as string;
const relayKeyOf = async (relay: LocalRelay) =>
  ((await (await fetch(`${relay.url}/.well-known/trestle.json`)).json()) as { relay_key: string }).relay_key;

/** Creates a debate at `relay` with three owners (`extra` merged into its config), seats two bots and has one speak. */
async function tableAt(relay: LocalRelay, table: string, extra: Record<string, unknown> = {}): Promise<void> {
  const config = {
    id: table,
    topic: "Ship #459 first?",
    owners: {
      tao: { public_key: keyOf("tao") },
      jenny: { public_key: keyOf("jenny") },
      ops: { public_key: keyOf("ops") },
    },
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" }, judge: { owner: "ops" } },
    topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 2 },
    termination: { any: ["decision", "rounds_exhausted"] },
    ...extra,
  };
  const path = join(home, `${table}.config.json`);
  writeFileSync(path, JSON.stringify(config));
  expect((await t.run(["create", path, "--owner", "ops", "--relay", relay.url])).code).toBe(0);
  for (const [owner, seat] of [
    ["tao", "bot-tao"],
    ["jenny", "bot-jenny"],
    ["ops", "judge"],
  ]) {
    expect(
      (await t.run(["join", "--table", table, "--seat", seat!, "--owner", owner!, "--relay", relay.url])).code,
    ).toBe(0);
  }
  expect(
    (await t.run(["say", "--table", table, "--seat", "bot-tao", "--relay", relay.url, "ship #459 first"])).code,
  ).toBe(0);
}

describe("trestle export, then trestle import into another relay", () => {
  const table = uniqueTable("moved");
  const exportPath = () => join(home, `${table}.jsonl`);
  // A copy of the home as it was before the move: it holds the table's head at the old relay only.
  const before = mkdtempSync(join(tmpdir(), "trestle-custody-before-"));

  it("waits as a mirror while only one of three owners signed, and says how to get more signatures", async () => {
    await tableAt(origin, table);
    expect((await t.run(["export", "--table", table, "--owner", "ops", "--out", exportPath()])).code).toBe(0);
    cpSync(home, before, { recursive: true });
    const run = await t.run(["import", exportPath(), "--relay", target.url, "--owner", "ops"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("E_FORBIDDEN");
    expect(run.stderr).toContain("trestle custody sign");
    const status = (await (await fetch(`${target.url}/tables/${table}/replica`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ mirror: true, relay: await relayKeyOf(origin) });
  }, 60_000);

  it("hands the table over with a second owner's signature, and verifies CLEAN naming the past key", async () => {
    const signature = join(home, `${table}.tao.json`);
    const signed = await t.run(["custody", "sign", table, "--relay", target.url, "--owner", "tao", "--out", signature]);
    expect(signed.code).toBe(0);
    const run = await t.run(["promote", table, "--relay", target.url, "--owner", "ops", "--signature", signature]);
    expect(run.stdout + run.stderr).toContain("CLEAN");
    expect(run.code).toBe(0);

    const verified = await t.json(["verify", table, "--relay", target.url, "--owner", "ops"]);
    expect(verified.code).toBe(0);
    expect(verified.body).toMatchObject({
      verdict: "CLEAN",
      coverage: { relay_key_pinned: true, past_keys: [{ relay: await relayKeyOf(origin), from: 1 }] },
    });
    const text = await t.run(["verify", table, "--relay", target.url, "--owner", "ops"]);
    expect(text.stdout).toContain(`past relay key ${await relayKeyOf(origin)}: entries #1-#`);
  }, 60_000);

  it("takes the seats' writes at the new relay, and the export from there verifies offline", async () => {
    const said = await t.run([
      "say",
      "--table",
      table,
      "--seat",
      "bot-jenny",
      "--relay",
      target.url,
      "no: #461 fixes data loss",
    ]);
    expect(said.code).toBe(0);
    const moved = join(home, `${table}.moved.jsonl`);
    expect(
      (await t.run(["export", "--table", table, "--owner", "jenny", "--relay", target.url, "--out", moved])).code,
    ).toBe(0);
    const offline = await t.json(["verify", moved]);
    expect(offline.code).toBe(0);
    expect(offline.body).toMatchObject({
      verdict: "CLEAN",
      coverage: { past_keys: [{ relay: await relayKeyOf(origin) }] },
    });
  }, 60_000);

  it("has trestle watch, from a home that held the table at the old relay, follow it to the new one", async () => {
    const watching = cli(before, target.url).start(["watch", "--table", table, "--seat", "bot-tao"]);
    await watching.printed(/no: #461 fixes data loss/);
    watching.child.kill();
    await watching.done;
    expect(existsSync(join(before, "heads", await relayKeyOf(target), `${table}.json`))).toBe(true);
  }, 60_000);

  describe("when the export is altered", () => {
    it("refuses to import it (exit 4) and sends nothing", async () => {
      const other = uniqueTable("altered");
      await tableAt(origin, other);
      const path = join(home, `${other}.jsonl`);
      expect((await t.run(["export", "--table", other, "--owner", "ops", "--out", path])).code).toBe(0);
      writeFileSync(path, readFileSync(path, "utf8").replace("ship #459 first", "ship #461 first"));
      const run = await t.run(["import", path, "--relay", target.url, "--owner", "ops"]);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain("REFUTED");
      expect((await fetch(`${target.url}/tables/${other}/replica`)).status).toBe(404);
    }, 60_000);
  });
});

describe("trestle mirror", () => {
  const table = uniqueTable("mirrored");

  it("follows the origin into a read-only copy, refuses writes there, catches up, and refuses to import an export it outgrew", async () => {
    await tableAt(origin, table);
    const first = await t.json(["mirror", table, "--from", origin.url, "--relay", target.url, "--owner", "ops"]);
    expect(first.code).toBe(0);
    expect(first.body).toMatchObject({ mirror: true, relay: await relayKeyOf(origin) });
    const refused = await t.run(["say", "--table", table, "--seat", "bot-jenny", "--relay", target.url, "con"]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("E_MIRROR");
    const stale = join(home, `${table}.stale.jsonl`);
    expect(
      (await t.run(["export", "--table", table, "--owner", "ops", "--relay", origin.url, "--out", stale])).code,
    ).toBe(0);
    // A home that saw the table only up to this export (this one will hold a newer head, which refutes the export itself).
    const staleHome = mkdtempSync(join(tmpdir(), "trestle-custody-stale-"));
    cpSync(home, staleHome, { recursive: true });
    expect(
      (await t.run(["say", "--table", table, "--seat", "bot-jenny", "--relay", origin.url, "con, at the origin"])).code,
    ).toBe(0);
    const again = await t.json(["mirror", table, "--from", origin.url, "--relay", target.url, "--owner", "ops"]);
    const head = (await (await fetch(`${origin.url}/tables/${table}/head`)).json()) as { seq: number };
    expect(head.seq).toBeGreaterThan(first.body!.seq);
    expect(again.body).toMatchObject({ mirror: true, seq: head.seq, head });

    const behind = await cli(staleHome, target.url).run(["import", stale, "--owner", "ops"]);
    expect(behind.code).toBe(3);
    expect(behind.stderr).toContain("not the chain this export ends with");

    const read = await t.json(["verify", table, "--relay", target.url, "--owner", "ops"]);
    expect(read.code).toBe(0);
    expect(read.body).toMatchObject({ verdict: "CLEAN", last_seq: head.seq, coverage: { head_seq: head.seq } });
  }, 60_000);

  it("verifies a table whose config names witnesses through the mirror, which serves no checkpoint, and says where to read it", async () => {
    const witnessed = uniqueTable("mirrored-witnessed");
    // A witness nobody runs: the relay's submissions to it fail, which changes nothing here.
    const key = (await t.json(["witness", "--print-key"])).body!.verifier_key as string;
    await tableAt(origin, witnessed, { witnesses: { k: 1, list: [{ key, url: "http://127.0.0.1:9/witness" }] } });
    expect(
      (await t.run(["mirror", witnessed, "--from", origin.url, "--relay", target.url, "--owner", "ops"])).code,
    ).toBe(0);

    const text = await t.run(["verify", witnessed, "--relay", target.url, "--owner", "ops"]);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("CLEAN");
    expect(text.stdout).toContain(
      `witnesses named by the config (policy: 1 of 1): ${key.slice(0, key.indexOf("+"))} <http://127.0.0.1:9/witness>`,
    );
    const originKey = await relayKeyOf(origin);
    expect(text.stdout).toContain(
      `relay ${target.url} only mirrors the table and serves no checkpoint: read it where relay ${originKey} holds the table: trestle checkpoint --table ${witnessed} --relay ${origin.url}`,
    );
    const json = await t.json(["verify", witnessed, "--relay", target.url, "--owner", "ops"]);
    expect(json.code).toBe(0);
    expect(json.body).toMatchObject({
      verdict: "CLEAN",
      witnesses: { k: 1, mirror_of: { relay: originKey, url: origin.url } },
    });
    expect(json.body!.witnesses).not.toHaveProperty("checkpoint");
  }, 60_000);

  describe("when the origin's operator serves another history under the same key", () => {
    it("refuses the fork (exit 4), keeps the evidence, and is promoted by two owners once the origin is gone", async () => {
      const forked = join(home, "forked");
      const other = cli(forked, twin.url);
      for (const owner of ["ops", "tao", "jenny"]) {
        const file = readFileSync(join(home, "owners", `${owner}.json`), "utf8");
        expect((await other.run(["keygen", "--owner", owner])).code).toBe(0);
        writeFileSync(join(forked, "owners", `${owner}.json`), file, { mode: 0o600 });
      }
      const config = JSON.parse(readFileSync(join(home, `${table}.config.json`), "utf8"));
      writeFileSync(join(forked, "config.json"), JSON.stringify(config));
      expect((await other.run(["create", join(forked, "config.json"), "--owner", "ops"])).code).toBe(0);
      for (const [owner, seat] of [
        ["tao", "bot-tao"],
        ["jenny", "bot-jenny"],
        ["ops", "judge"],
      ]) {
        expect((await other.run(["join", "--table", table, "--seat", seat!, "--owner", owner!])).code).toBe(0);
      }
      expect(
        (await other.run(["say", "--table", table, "--seat", "bot-tao", "ship #461 first, says the twin"])).code,
      ).toBe(0);
      const fork = await other.run(["mirror", table, "--from", twin.url, "--relay", target.url, "--owner", "ops"]);
      expect(fork.code).toBe(4);
      expect(fork.stderr).toContain("E_FORK");
      const status = (await (await fetch(`${target.url}/tables/${table}/replica`)).json()) as {
        evidence: { evidence: { kind: string } }[];
      };
      expect(status.evidence).toHaveLength(1);
      expect(status.evidence[0]!.evidence.kind).toBe("fork");

      originGone = true;
      await origin.dispose();
      const signature = join(home, `${table}.jenny.json`);
      expect(
        (await t.run(["custody", "sign", table, "--relay", target.url, "--owner", "jenny", "--out", signature])).code,
      ).toBe(0);
      const promoted = await t.run([
        "promote",
        table,
        "--relay",
        target.url,
        "--owner",
        "tao",
        "--signature",
        signature,
      ]);
      expect(promoted.code).toBe(0);
      expect(promoted.stdout).toContain("CLEAN");
      expect(
        (
          await t.run([
            "say",
            "--table",
            table,
            "--seat",
            "bot-tao",
            "--relay",
            target.url,
            "after the origin went away",
          ])
        ).code,
      ).toBe(0);
    }, 90_000);
  });
});
