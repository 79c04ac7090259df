/**
 * Sealed bids on a listing in a market's live tail (src/text/market.ts): a sealed listing with its
 * deadlines and reserve, a commit that shows no amount, a reveal, the settlement, and a sale's match
 * with its price instead of shared words.
 */
import { describe, expect, it } from "vitest";
import { marketEntryText } from "../../../src/text/market.js";
import { MarketLedger } from "../../support/market-fixture.js";

describe("a market's tail with sealed bids", () => {
  it("says a listing is sealed, hides a commit's amount, and names the sale's winner and price", async () => {
    const m = await MarketLedger.open();
    const until = m.l.now + 3_600_000;
    const [listed] = await m.list("ana", {
      side: "offer",
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      price: { currency: "TWD", min: 200000 },
      sealed: { until, reveal_until: until + 3_600_000 },
    });
    const [commit] = await m.commitBid("ben", listed!.leaf, 300000);
    m.l.now = until;
    const lines = [listed!, commit!, ...(await m.revealBid("ben", listed!.leaf, 300000))].map(marketEntryText);
    expect(lines[0]).toMatch(/sealed bids until .* reserve 2,000\.00 TWD or more/);
    expect(lines[1]).toBe(`ben-bot commits a sealed bid on listing ${listed!.leaf.slice(0, 12)}…`);
    expect(lines[1]).not.toContain("300000");
    expect(lines[2]).toContain("reveals a bid of 300000 (minor units)");
    expect(lines[3]).toMatch(/sold by sealed bids to ben at 2,000\.00 TWD \(200000 minor units\)/);
    expect(lines[4]).toMatch(
      /^sale: ana's listing #\d+ to ben's bid #\d+, 1 unit at 2,000\.00 TWD .*; its room is mr-[0-9a-f]{40}$/,
    );
  });
});
