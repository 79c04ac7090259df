/** A witness judging add-checkpoint requests (C2SP tlog-witness): what it cosigns, every refusal with its status, and the evidence it keeps of a log that forked. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  addCheckpoint,
  cosignatureTimestamp,
  cosignatureVerifierFromKey,
  cosignedCheckpoint,
  ed25519,
  ed25519VerifierFromKey,
  formatAddCheckpoint,
  fromBase64,
  openNote,
  originHash,
  parseAddCheckpoint,
  witnessedLogs,
  witnessVerifierKey,
  type WitnessAnswer,
  type WitnessEvidence,
  type WitnessKey,
  type WitnessRecord,
  type WitnessStore,
} from "../../../../src/protocol/index.js";
import { testLog, type TestLog } from "../../../support/witness-log.js";

const NOW = 1_800_000_000_123;
const ORIGIN = "relay.example.com/tables/witnessed";

/** A witness over a store in memory, with its records and evidence open to the test. */
function memoryWitness(witness: WitnessKey, entries: string[]) {
  const records = new Map<string, WitnessRecord>();
  const evidence: WitnessEvidence[] = [];
  const store: WitnessStore = {
    record: (origin) => records.get(origin),
    save: (r) => void records.set(r.origin, r),
    keep: (e) => void evidence.push(e),
  };
  const context = { logs: witnessedLogs(entries), store, witness, now: NOW };
  return { records, evidence, context, add: (body: string): Promise<WitnessAnswer> => addCheckpoint(body, context) };
}

let witness: WitnessKey;
let log: TestLog;
let forked: TestLog;
beforeAll(async () => {
  witness = { name: "witness.example/w1", signer: await (await ed25519()).signer(new Uint8Array(32).fill(9)) };
  log = await testLog(ORIGIN, 1);
  forked = await testLog(ORIGIN, 1, "forked ");
});

/** A witness that cosigned `log` at size 9. */
async function witnessAt9() {
  const w = memoryWitness(witness, [log.entry]);
  expect((await w.add(await log.body(0, 9))).status).toBe(200);
  return w;
}

describe("a witness", () => {
  it("cosigns a first checkpoint from old size 0 with a timestamped cosignature its verifier key checks, and keeps it", async () => {
    const w = memoryWitness(witness, [log.entry]);
    const answer = await w.add(await log.body(0, 5));
    expect([answer.status, answer.contentType]).toEqual([200, "text/plain; charset=utf-8"]);
    expect(answer.body).toMatch(/^— witness\.example\/w1 [A-Za-z0-9+/=]+\n$/);
    const opened = await openNote(`${await log.note(5)}${answer.body}`, [
      cosignatureVerifierFromKey(witnessVerifierKey(witness)),
    ]);
    expect(cosignatureTimestamp(opened.verified[0]!.signature)).toBe(Math.floor(NOW / 1000));
    const record = w.records.get(ORIGIN)!;
    expect([record.size, record.time]).toEqual([5, Math.floor(NOW / 1000)]);
    // The kept note carries the log's signature and the cosignature, as the monitor read serves it.
    const kept = await openNote(record.note, [
      ed25519VerifierFromKey(log.vkey),
      cosignatureVerifierFromKey(witnessVerifierKey(witness)),
    ]);
    expect(kept.verified.map((s) => s.name)).toEqual([ORIGIN, "witness.example/w1"]);
    expect((await cosignedCheckpoint(originHash(ORIGIN), w.context)).body).toBe(record.note);
  });

  it("cosigns a larger checkpoint with a consistency proof from the size it holds, and the same one again", async () => {
    const w = await witnessAt9();
    expect((await w.add(await log.body(9, 30))).status).toBe(200);
    expect((await w.add(await log.body(30, 30))).status).toBe(200);
    expect(w.records.get(ORIGIN)!.size).toBe(30);
    expect(w.evidence).toEqual([]);
  });

  it("takes a log's second key beside its first", async () => {
    const other = await testLog(ORIGIN, 2);
    const w = memoryWitness(witness, [log.entry, other.entry]);
    expect((await w.add(await other.body(0, 3))).status).toBe(200);
  });

  describe("when the request must be refused", () => {
    it("answers 404 E_UNKNOWN_LOG for an origin it does not witness, and keeps nothing", async () => {
      const w = memoryWitness(witness, [log.entry]);
      const stranger = await testLog("relay.example.com/tables/stranger", 1);
      const answer = await w.add(await stranger.body(0, 3));
      expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([404, "E_UNKNOWN_LOG"]);
      expect([w.records.size, w.evidence.length]).toEqual([0, 0]);
      expect((await cosignedCheckpoint(originHash(stranger.origin), w.context)).status).toBe(404);
    });

    it("answers 403 E_BAD_SIGNATURE when no trusted key signed, or a trusted key's signature fails", async () => {
      const w = memoryWitness(witness, [log.entry]);
      const impostor = await testLog(ORIGIN, 7);
      const unsigned = await w.add(await impostor.body(0, 3));
      const body = await log.body(0, 3);
      const tampered = await w.add(
        body.replace(/\n— (\S+) (\S)/, (_, name: string, c: string) => `\n— ${name} ${c === "A" ? "B" : "A"}`),
      );
      for (const answer of [unsigned, tampered])
        expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([403, "E_BAD_SIGNATURE"]);
      expect(w.records.size).toBe(0);
    });

    it("answers 400 E_SCHEMA for a malformed body or an old size past the checkpoint's", async () => {
      const w = await witnessAt9();
      for (const body of ["old 9\n", "old x\n\nnote", await log.body(12, 10)]) {
        const answer = await w.add(body);
        expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([400, "E_SCHEMA"]);
      }
    });

    it("answers 409 with the size it holds as text/x.tlog.size when the old size is another", async () => {
      const w = await witnessAt9();
      for (const old of [0, 5, 10]) {
        expect(await w.add(await log.body(old, 12))).toEqual({
          status: 409,
          contentType: "text/x.tlog.size",
          body: "9\n",
        });
      }
      expect(w.records.get(ORIGIN)!.size).toBe(9);
    });

    it("answers 422 E_INCONSISTENT for a size-0 checkpoint without the empty root, or a proof from old size 0", async () => {
      const w = memoryWitness(witness, [log.entry]);
      const note = await log.note(3);
      const root = note.split("\n")[2]!;
      const zero = await w.add(
        formatAddCheckpoint({ oldSize: 0, proof: [], note: await log.sign(`${ORIGIN}\n0\n${root}\n`) }),
      );
      expect([zero.status, JSON.parse(zero.body).error.code]).toEqual([422, "E_INCONSISTENT"]);
      const withProof = formatAddCheckpoint({
        oldSize: 0,
        proof: parseAddCheckpoint(await log.body(2, 3)).proof,
        note,
      });
      const answer = await w.add(withProof);
      expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([422, "E_INCONSISTENT"]);
    });
  });

  describe("when the log signed a checkpoint that conflicts with the one cosigned", () => {
    it("refuses the same size with another root (422) and keeps both notes as fork evidence", async () => {
      const w = await witnessAt9();
      const cosigned = w.records.get(ORIGIN)!.note;
      const answer = await w.add(await forked.body(9, 9));
      expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([422, "E_INCONSISTENT"]);
      expect(w.evidence).toEqual([
        {
          origin: ORIGIN,
          kind: "fork",
          time: Math.floor(NOW / 1000),
          cosigned,
          conflicting: await forked.note(9),
          old_size: 9,
          proof: [],
        },
      ]);
      // Both notes verify: the log signed two roots for one size.
      for (const note of [w.evidence[0]!.cosigned, w.evidence[0]!.conflicting])
        await openNote(note, [ed25519VerifierFromKey(log.vkey)]);
      expect(w.records.get(ORIGIN)!.note).toBe(cosigned);
    });

    it("keeps fork evidence for the same size with another root even when the old size is stale (409)", async () => {
      const w = await witnessAt9();
      expect((await w.add(await forked.body(0, 9))).status).toBe(409);
      expect(w.evidence.map((e) => [e.kind, e.old_size])).toEqual([["fork", 0]]);
    });

    it("refuses a larger checkpoint whose proof fails against what it cosigned (422), keeping both as unproven evidence", async () => {
      const w = await witnessAt9();
      const answer = await w.add(await forked.body(9, 20));
      expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([422, "E_INCONSISTENT"]);
      expect(w.evidence.map((e) => [e.kind, e.conflicting])).toEqual([["unproven", await forked.note(20)]]);
      expect(w.evidence[0]!.proof.map(fromBase64).every((h) => h.length === 32)).toBe(true);
      expect(w.records.get(ORIGIN)!.size).toBe(9);
      // The honest log's next checkpoint is still cosigned.
      expect((await w.add(await log.body(9, 20))).status).toBe(200);
    });
  });
});
