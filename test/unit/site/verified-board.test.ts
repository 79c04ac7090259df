/**
 * What the public viewer shows of a market (worker/site/browser/verified-board.ts): the board folded
 * from the entries the page verified, as the viewer verifies them (the export parsed, then
 * verifyLedger against the relay key): all of a CLEAN ledger; of a ledger REFUTED at an invented
 * match, only the entries before it, so the invented match is not shown; nothing for a table that
 * is no market, or a ledger refuted at its first entry.
 */
import { describe, expect, it } from "vitest";
import { parseExport, verifyLedger, type Entry, type UnchainedEntry } from "../../../src/protocol/index.js";
import { verifiedBoard } from "../../../worker/site/browser/verified-board.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { exportOf, headOver, rechain } from "../protocol/fixtures.js";

/** The swap market with ben's stroller matched to ana's want. */
async function matched(): Promise<{ m: MarketLedger; seq: number }> {
  const m = await MarketLedger.open();
  await m.list("ana", { side: "want", title: "Stroller wanted", category: "baby-gear", quantity: 2 });
  const [match] = MarketLedger.matches(
    await m.list("ben", { side: "offer", title: "Stroller", category: "baby-gear", quantity: 1 }),
  );
  return { m, seq: match!.seq };
}

/** `entries` as a relay exports them (chained again, with a head over them), then parsed and verified as the viewer does. */
async function asViewed(m: MarketLedger, entries: readonly (Entry | UnchainedEntry)[]) {
  const chained = rechain(entries);
  const parsed = parseExport(
    exportOf(m.k.relay, chained, [await headOver(m.k.relay, chained, chained.length, m.state.table)], m.state.table),
  );
  if (!parsed.ok) throw new Error("the export does not parse");
  const report = await verifyLedger(parsed.view, { relayKey: m.k.relay.publicKeyText });
  return { items: parsed.view.items, report };
}

describe("the public viewer's market board", () => {
  it("folds everything a CLEAN ledger holds", async () => {
    const { m, seq } = await matched();
    const { items, report } = await asViewed(m, m.l.entries);
    expect(report.verdict).toBe("CLEAN");
    const shown = verifiedBoard(items, report, m.l.now)!;
    expect(shown.through).toBe(items.length);
    expect(shown.board.listings.map((l) => l.title)).toEqual(["Stroller", "Stroller wanted"]);
    expect(shown.board.matches.map((x) => [x.seq, x.offer.owner, x.want.owner])).toEqual([[seq, "ben", "ana"]]);
  });

  describe("when the ledger does not verify, or is no market's", () => {
    it("shows only what came before the refuted entry: an invented match is not on the board", async () => {
      const { m, seq } = await matched();
      const { items, report } = await asViewed(m, m.withInventedMatch(seq, "chen"));
      expect(report).toMatchObject({ verdict: "REFUTED", refuted: { seq: seq + 1 } });
      const shown = verifiedBoard(items, report, m.l.now)!;
      expect(shown.through).toBe(seq);
      expect(shown.board.matches.map((x) => x.want.owner)).toEqual(["ana"]);
      expect(verifiedBoard(items, { ...report, refuted: { seq: 1, reason: "forged" } }, m.l.now)).toBeNull();
    });

    it("shows nothing for a table that is no market (a match's room)", async () => {
      const { m, seq } = await matched();
      const room = await m.openRoom(seq, "ben");
      const report = await verifyLedger(
        { items: room.entries, heads: [await room.head()] },
        { relayKey: m.k.relay.publicKeyText },
      );
      expect(report.verdict).toBe("CLEAN");
      expect(verifiedBoard(room.entries, report, m.l.now)).toBeNull();
    });
  });
});
