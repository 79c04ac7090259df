/** The parallel verifier (worker threads, src/client/verify-pool.ts) reaches the serial verifier's verdict, coverage and refuted seq on a large export. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { verifyExportText } from "../../../src/client/verify.js";
import { checkerPool, type CheckerPool } from "../../../src/client/verify-pool.js";
import { checkEntries, exportText, signHead, type Entry, type EntryChecker } from "../../../src/protocol/index.js";
import { buildCli, isStale } from "../../../scripts/build-cli.mjs";
import { bigLedger, type BigLedger } from "../../support/big-export.js";
import { cast } from "../../support/table-fixture.js";
import { copy, exportLines, exportOf, rechain, seatedDebate, unlines } from "../protocol/fixtures.js";

/** Deep in the export: the 7th window of 256 entries, not its first entry. */
const TAMPERED = 1_777;
let big: BigLedger;
let pool: CheckerPool;

beforeAll(async () => {
  if (isStale()) await buildCli();
  pool = checkerPool(pathToFileURL(join(import.meta.dirname, "../../../dist/verify-worker.mjs")));
  big = await bigLedger(2_000);
}, 120_000);
afterAll(() => pool?.close());

/** The export with entry `seq`'s author (key and signature) swapped for the next say's by the same seat, re-chained and re-headed as a lying relay would. */
async function swappedSignature(seq: number): Promise<string> {
  const tampered = copy(big.entries);
  const target = tampered[seq - 1]!;
  const donor = tampered[seq + 1]!;
  if (target.kind !== "say" || donor.kind !== "say" || target.seat !== donor.seat)
    throw new Error("two says by one seat");
  target.author = donor.author;
  const chain: Entry[] = rechain(tampered);
  const last = chain[chain.length - 1]!;
  return exportText({ table: last.table, relay: big.relay.publicKeyText }, chain, [
    await signHead(big.relay, { table: last.table, seq: last.seq, link: last.link }),
  ]);
}

describe("the parallel verifier", () => {
  it("reports a whole large export CLEAN with the serial verifier's coverage", async () => {
    const context = { relayKey: big.relay.publicKeyText };
    const parallel = await verifyExportText(big.text, { ...context, checker: pool.check });
    expect(parallel.verdict).toBe("CLEAN");
    expect(parallel.coverage.signatures).toBe(2_000);
    expect(parallel).toEqual(await verifyExportText(big.text, context));
  }, 60_000);

  describe("when a signature deep in the export does not verify", () => {
    it("refutes it at its seq with the serial verifier's report", async () => {
      const text = await swappedSignature(TAMPERED);
      const context = { relayKey: big.relay.publicKeyText };
      const parallel = await verifyExportText(text, { ...context, checker: pool.check });
      expect(parallel.refuted).toEqual({ seq: TAMPERED, reason: "the entry signature does not verify" });
      expect(parallel).toEqual(await verifyExportText(text, context));
    }, 60_000);
  });

  describe("when an entry line leaves out a body the schema fills in", () => {
    it("checks that entry from its parsed object, with the serial verifier's report", async () => {
      const k = await cast();
      const l = await seatedDebate(k);
      await l.submit(k.botTao, { seat: "bot-tao", kind: "pass", body: "" });
      const ls = exportLines(exportOf(k.relay, l.entries, [await l.head()]));
      const at = ls.findIndex((line) => line.includes('"body":"",'));
      ls[at] = ls[at]!.replace('"body":"",', "");
      const context = { relayKey: k.relay.publicKeyText };
      const parallel = await verifyExportText(unlines(ls), { ...context, checker: pool.check });
      expect(parallel.verdict).toBe("CLEAN");
      expect(parallel).toEqual(await verifyExportText(unlines(ls), context));
    }, 60_000);
  });

  describe("when the calling thread checks windows too", () => {
    /** The reference checker, counting the entries it is handed. */
    const counting = () => {
      const seen = { entries: 0 };
      const local: EntryChecker = (entries, texts) => {
        seen.entries += entries.length;
        return checkEntries(entries, texts);
      };
      return { seen, local };
    };

    it("checks every window itself with no thread beside it, with the serial verifier's report", async () => {
      const { seen, local } = counting();
      const alone = checkerPool(pathToFileURL(join(import.meta.dirname, "../../../dist/verify-worker.mjs")), 0, local);
      const text = await swappedSignature(TAMPERED);
      const context = { relayKey: big.relay.publicKeyText };
      const report = await verifyExportText(text, { ...context, checker: alone.check });
      await alone.close();
      expect(seen.entries).toBe(2_000);
      expect(report.refuted).toEqual({ seq: TAMPERED, reason: "the entry signature does not verify" });
      expect(report).toEqual(await verifyExportText(text, context));
    }, 60_000);

    it("shares the windows with one worker and reports a large export CLEAN as the serial verifier does", async () => {
      const { seen, local } = counting();
      const shared = checkerPool(pathToFileURL(join(import.meta.dirname, "../../../dist/verify-worker.mjs")), 1, local);
      const context = { relayKey: big.relay.publicKeyText };
      const report = await verifyExportText(big.text, { ...context, checker: shared.check });
      await shared.close();
      expect(seen.entries).toBeGreaterThan(0);
      expect(seen.entries).toBeLessThan(2_000);
      expect(report.coverage.signatures).toBe(2_000);
      expect(report).toEqual(await verifyExportText(big.text, context));
    }, 60_000);
  });

  describe("when a worker thread dies", () => {
    it("rejects the verification instead of hanging or reporting a verdict", async () => {
      const broken = checkerPool(new URL("data:text/javascript,throw new Error('no checks here')"), 1);
      await expect(
        verifyExportText(big.text, { relayKey: big.relay.publicKeyText, checker: broken.check }),
      ).rejects.toThrow(/no checks here|exited/);
      await broken.close();
    }, 60_000);
  });
});
