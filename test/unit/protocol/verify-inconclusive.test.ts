/**
 * What offline verification cannot check makes it INCONCLUSIVE (verify.ts), with a coverage report:
 * an unpinned relay key, no head, entries past the last head, entries present only by leaf hash.
 */
import { describe, expect, it } from "vitest";
import { exportText, verifyExport, verifyLedger } from "../../../src/protocol/index.js";
import { copy, exportOf, headOver, hide, pinnedDebate } from "./fixtures.js";

const { k, entries, head, pinned, verify } = await pinnedDebate();

describe("verifyExport is INCONCLUSIVE", () => {
  it("when the relay key is not pinned", async () => {
    const report = await verifyExport(exportOf(k.relay, entries, [head]));
    expect(report).toMatchObject({
      verdict: "INCONCLUSIVE",
      unchecked: ["the relay key is not pinned, so heads prove nothing about who signed them"],
      coverage: { relay_key_pinned: false, heads: 1, policy_replay: "full" },
    });
  });

  it("when no head covers the ledger", async () => {
    const report = await verify(exportOf(k.relay, entries, []));
    expect(report).toMatchObject({
      verdict: "INCONCLUSIVE",
      unchecked: ["no relay-signed head covers the ledger"],
      coverage: { heads: 0, head_seq: null, policy_replay: "full" },
    });
  });

  it("when entries follow the last head", async () => {
    const report = await verify(exportOf(k.relay, entries, [await headOver(k.relay, entries, 10)]));
    expect(report).toMatchObject({
      verdict: "INCONCLUSIVE",
      unchecked: ["entries after 10 are not covered by a signed head"],
      coverage: { head_seq: 10, policy_replay: "full" },
    });
  });

  it("when the ledger is empty", async () => {
    const report = await verify(exportOf(k.relay, [], []));
    expect(report).toMatchObject({ verdict: "INCONCLUSIVE", last_seq: 0, coverage: { entries: 0 } });
    expect(report.unchecked).toContain("the ledger is empty");
  });

  describe("when some entries are present only as leaf hashes", () => {
    it("checks the chain through them, counts them by hash and skips the policy replay", async () => {
      const report = await verify(exportOf(k.relay, hide(entries, [6, 7, 8]), [head]));
      expect(report).toMatchObject({
        verdict: "INCONCLUSIVE",
        last_seq: 15,
        unchecked: ["3 entries were checked by hash only, so the policy replay was skipped"],
        coverage: {
          entries: 15,
          by_content: 12,
          by_hash: 3,
          signatures: 7,
          heads: 1,
          head_seq: 15,
          policy_replay: "skipped",
        },
      });
    });

    it("refutes a wrong hidden leaf at the next visible entry", async () => {
      const items = hide(entries, [6]);
      items[5] = { seq: 6, leaf: "0".repeat(64) };
      const report = await verify(exportOf(k.relay, items, [head]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 7, reason: "link does not follow from the previous entry" },
      });
    });

    it("refutes a wrong hidden leaf at the end through the head", async () => {
      const items = hide(entries, [15]);
      items[14] = { seq: 15, leaf: "0".repeat(64) };
      const report = await verify(exportOf(k.relay, items, [head]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 15, reason: expect.stringMatching(/^fork/) },
      });
    });

    it("still refutes a visible entry altered next to hidden ones", async () => {
      const items = copy(hide(entries, [6, 7]));
      Object.assign(items[7]!, { body: "tampered" });
      const report = await verify(exportOf(k.relay, items, [head]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 8, reason: expect.stringMatching(/altered/) },
      });
    });
  });
});

describe("verifyLedger", () => {
  it("takes the table from the first entry when the view names none", async () => {
    const report = await verifyLedger({ items: entries, heads: [head] }, pinned);
    expect(report).toMatchObject({ verdict: "CLEAN", table: "t-459" });
  });

  it("gives the same verdict as the export of the same view", async () => {
    const text = exportText({ table: "t-459", relay: k.relay.publicKeyText }, entries, [head]);
    expect(
      await verifyLedger({ table: "t-459", relay: k.relay.publicKeyText, items: entries, heads: [head] }, pinned),
    ).toEqual(await verify(text));
  });
});
