/**
 * `trestle prove` and `trestle verify --proof` (docs/CLIENT.md, docs/CLI.md) against a real local
 * relay: a proof file of one entry, computed from the relay's tiles, verifies offline in a home
 * that pinned the relay (or with --relay-key) and refuses a tampered proof, a checkpoint whose
 * signature is not the relay's, and a proof made for another table.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, seatKeyPath } from "../../../src/client/node.js";
import { sha256, utf8 } from "../../../src/protocol/index.js";
import { toBase64 } from "../../../src/protocol/tlog/base64.js";
import { SIG_TYPE_COSIGNATURE } from "../../../src/protocol/tlog/cosignature.js";
import { formatVerifierKey } from "../../../src/protocol/tlog/note.js";
import { cli } from "../../support/cli.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";

let relay: LocalRelay;
let home: string;
let t: ReturnType<typeof cli>;
let tables: [string, string];

/** A seated debate table with bot-tao's two says (entries 5 and 6); `say` adds one more. */
async function seated(prefix: string): Promise<{ table: string; say(body: string): Promise<unknown> }> {
  const table = uniqueTable(prefix);
  const client = await tableClient(relay.url, table);
  const k = await seatDebate(client, { topology: { kind: "open" }, termination: { any: [{ max_entries: 100 }] } });
  const say = (body: string) => client.submit(k.botTao, "bot-tao", { kind: "say", body });
  for (const body of ["first", "second"]) await say(body);
  return { table, say };
}

beforeAll(async () => {
  relay = await sharedRelay();
  home = mkdtempSync(join(tmpdir(), "trestle-cli-prove-"));
  t = cli(home, relay.url);
  await createKeyFile(seatKeyPath(home, "bot-tao"), "seat", "bot-tao", { seed: sha256(utf8("seat:bot-tao")) });
  tables = [(await seated("cli-prove-a")).table, (await seated("cli-prove-b")).table];
}, 60_000);

/** Proves entry `seq` of `table` as bot-tao into a file; returns its path and parsed JSON. */
async function proved(table: string, seq: number): Promise<{ path: string; proof: Record<string, any> }> {
  const path = join(home, `${table}-${seq}-${Math.random().toString(36).slice(2)}.json`);
  const run = await t.run(["prove", "--table", table, "--seq", String(seq), "--seat", "bot-tao", "--out", path]);
  expect(run.code, run.stderr).toBe(0);
  return { path, proof: JSON.parse(readFileSync(path, "utf8")) };
}

/** Writes `proof` to a new file and runs verify --proof on it (with --json). */
async function verifyProof(proof: unknown, extra: readonly string[] = [], runner = t) {
  const path = join(home, `proof-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(proof));
  return runner.json(["verify", "--proof", path, ...extra]);
}

describe("proving one entry of a table", () => {
  it("writes the entry, its inclusion proof and the signed checkpoint, which verify --proof checks offline", async () => {
    const [table] = tables;
    const { path, proof } = await proved(table, 5);
    expect(proof).toMatchObject({ format: "trestle-entry-proof/1", table, entry: { seq: 5, body: "first" } });
    expect(proof.checkpoint).toMatch(new RegExp(`^127\\.0\\.0\\.1:${relay.port}/tables/${table}\\n6\\n`));
    const run = await t.run(["verify", "--proof", path]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `PROVEN: entry 5 of table ${table} is in the log 127.0.0.1:${relay.port}/tables/${table} at size 6`,
    );
  });

  it("checks each new checkpoint extends the one it kept, and proves against the newer one", async () => {
    const { table, say } = await seated("cli-prove-grow");
    await proved(table, 1);
    const kept = join(home, "heads", (await proved(table, 1)).proof.relay_key, "checkpoints", `${table}.note`);
    expect(readFileSync(kept, "utf8")).toMatch(/\n6\n/);
    await say("third");
    const { proof } = await proved(table, 7);
    expect(readFileSync(kept, "utf8")).toMatch(/\n7\n/);
    expect((await verifyProof(proof)).body).toMatchObject({ proven: true, seq: 7, size: 7 });
  });

  it("verifies in a home that never pinned the relay only with --relay-key", async () => {
    const { proof } = await proved(tables[0], 2);
    const stranger = cli(mkdtempSync(join(tmpdir(), "trestle-cli-prove-stranger-")), relay.url);
    const unpinned = await verifyProof(proof, [], stranger);
    expect({ code: unpinned.code, error: unpinned.body?.error?.code }).toEqual({ code: 7, error: "E_RELAY_KEY" });
    const given = await verifyProof(proof, ["--relay-key", proof.relay_key], stranger);
    expect(given.code).toBe(0);
  });

  it("counts the --witness keys that cosigned the checkpoint, and exits 5 when fewer than --witness-k did", async () => {
    const { path } = await proved(tables[0], 2);
    const witness = formatVerifierKey("witness.example/w1", SIG_TYPE_COSIGNATURE, new Uint8Array(32).fill(5));
    const run = await t.run(["verify", "--proof", path, "--witness", witness]);
    expect(run.code).toBe(5);
    expect(run.stdout).toContain("PROVEN BY THE RELAY ONLY: entry 2");
    expect(run.stdout).toContain("witnessed by 0 of 1 (policy: 1 of 1)");
    expect((await t.run(["verify", "--proof", path, "--witness", witness, "--witness-k", "2"])).code).toBe(2);
  });

  describe("when the proof is tampered with", () => {
    it("refuses a changed inclusion hash or entry as REFUTED (exit 4)", async () => {
      const { proof } = await proved(tables[0], 3);
      const hash = { ...proof, inclusion: [toBase64(new Uint8Array(32)), ...proof.inclusion.slice(1)] };
      const entry = { ...proof, entry: { ...proof.entry, ts: proof.entry.ts + 1 } };
      for (const bad of [hash, entry]) {
        const run = await verifyProof(bad);
        expect({ code: run.code, error: run.body?.error?.code }).toEqual({ code: 4, error: "E_REFUTED" });
      }
    });

    it("refuses a checkpoint whose signature is not the relay key's (E_BAD_SIGNATURE) or whose size was changed under it", async () => {
      const { proof } = await proved(tables[0], 3);
      const lines = proof.checkpoint.split("\n");
      const sig = lines.findIndex((l: string) => l.startsWith("— "));
      const flipped = [...lines];
      flipped[sig] = lines[sig].slice(0, -3) + (lines[sig].slice(-3, -2) === "A" ? "B" : "A") + lines[sig].slice(-2);
      const resized = [...lines];
      resized[1] = "7";
      for (const checkpoint of [flipped.join("\n"), resized.join("\n")]) {
        const run = await verifyProof({ ...proof, checkpoint });
        expect({ code: run.code, error: run.body?.error?.code }).toEqual({ code: 3, error: "E_BAD_SIGNATURE" });
      }
    });

    it("refuses a proof made for another table (E_WRONG_TABLE)", async () => {
      const [a, b] = tables;
      const { proof } = await proved(a, 4);
      const other = await proved(b, 4);
      for (const bad of [
        { ...proof, table: b },
        { ...proof, checkpoint: other.proof.checkpoint },
        { ...other.proof, entry: proof.entry },
      ]) {
        const run = await verifyProof(bad);
        expect({ code: run.code, error: run.body?.error?.code }).toEqual({ code: 3, error: "E_WRONG_TABLE" });
      }
    });
  });

  describe("when the entry does not exist yet", () => {
    it("refuses with E_NOT_FOUND and writes nothing", async () => {
      const run = await t.json(["prove", "--table", tables[0], "--seq", "99", "--seat", "bot-tao"]);
      expect({ code: run.code, error: run.body?.error?.code }).toEqual({ code: 3, error: "E_NOT_FOUND" });
    });
  });
});
