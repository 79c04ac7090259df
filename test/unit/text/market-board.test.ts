/**
 * A market's board (src/text/market-board.ts), from the swap market's ledger driven through the
 * real admit and fold: listings live first, each ended one saying how (withdrawn, superseded,
 * filled by a recorded deal, expired, its author ejected), members' words reduced to one safe line;
 * a sealed listing's bids and how it sold; matches with both sides and the words they share (a
 * sale's with its settled price); recorded deals with both owners.
 */
import { describe, expect, it } from "vitest";
import { ejectDraft, signEject, type Entry } from "../../../src/protocol/index.js";
import { marketBoard } from "../../../src/text/market-board.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { nonceOf } from "../../support/table-fixture.js";

/** The board of `m` as of `now` (default the ledger's time). */
function boardOf(m: MarketLedger, now = m.l.now) {
  return marketBoard(m.state, m.state.market!, m.l.entries as Entry[], now);
}

describe("a market's board", () => {
  it("lists live listings first, newest first, then the ended ones, each with how it ended", async () => {
    const m = await MarketLedger.open();
    const [withdrawn] = await m.list("chen", {
      side: "offer",
      title: "High chair",
      category: "baby-gear",
      quantity: 1,
    });
    await m.write("chen-bot", { kind: "unlist", listing: withdrawn!.leaf });
    const [old] = await m.list("ana", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
    const [next] = await m.list("ana", {
      side: "offer",
      title: "Crib, with mattress",
      category: "baby-gear",
      quantity: 1,
      supersedes: old!.leaf,
    });
    const expires = m.l.now + 5000;
    const [soon] = await m.list("dora", {
      side: "offer",
      title: "Picture books",
      category: "books",
      quantity: 3,
      expires,
    });
    const [gone] = await m.list("eli", {
      side: "want",
      title: "Baby monitor",
      category: "baby-gear",
      quantity: 1,
      price: { currency: "USD", max: 2500 },
    });
    m.l.append(
      ejectDraft(
        m.state,
        await signEject(m.k.owners.hana, { table: m.state.table, seat: "eli-bot", nonce: nonceOf("eject-eli") }),
      ),
    );
    const [live] = await m.list("ben", {
      side: "want",
      title: "Bath tub",
      category: "baby-gear",
      quantity: 2,
      price: { currency: "USD", min: 1000, max: 3000 },
    });

    const board = boardOf(m, m.l.now + 10_000);
    expect(board.listings.map((l) => [l.seq, l.standing, l.ended])).toEqual([
      [live!.seq, "live", null],
      [next!.seq, "live", null],
      [gone!.seq, "left", "its seat eli-bot left the market"],
      [soon!.seq, "expired", `expired at ${new Date(expires).toISOString()}`],
      [old!.seq, "superseded", `superseded by a new version, #${next!.seq}`],
      [withdrawn!.seq, "withdrawn", `withdrawn at #${withdrawn!.seq + 1}`],
    ]);
    expect(board.listings[0]).toMatchObject({
      owner: "ben",
      seat: "ben-bot",
      side: "want",
      title: "Bath tub",
      category: "baby-gear",
      quantity: 2,
      left: 2,
      price: "10.00-30.00 USD",
      text: null,
    });
    expect(board.matches).toEqual([]);
    expect(board.deals).toEqual([]);
  });

  it("shows each match's sides, shared words and room, and a recorded deal that fills a listing", async () => {
    const m = await MarketLedger.open();
    const [want] = await m.list("ana", {
      side: "want",
      title: "Stroller wanted",
      category: "baby-gear",
      quantity: 2,
      text: "City stroller, folds flat",
    });
    const match = MarketLedger.matches(
      await m.list("ben", { side: "offer", title: "Stroller, barely used", category: "baby-gear", quantity: 1 }),
    )[0]!;
    const [recorded] = m.l.append(await m.dealDraft(match.seq, "ab".repeat(32)));

    const board = boardOf(m);
    const offer = board.listings.find((l) => l.owner === "ben")!;
    expect(offer).toMatchObject({
      standing: "filled",
      left: 0,
      ended: `filled: recorded deals closed all 1 (the last at #${recorded!.seq})`,
    });
    expect(board.listings.find((l) => l.owner === "ana")).toMatchObject({
      seq: want!.seq,
      standing: "live",
      left: 1,
      quantity: 2,
      text: "City stroller, folds flat",
      price: "ask",
    });
    expect(board.matches).toEqual([
      {
        seq: match.seq,
        offer: {
          leaf: match.data.offer,
          seq: offer.seq,
          owner: "ben",
          key: m.k.owners.ben.publicKeyText,
          title: "Stroller, barely used",
        },
        want: {
          leaf: want!.leaf,
          seq: want!.seq,
          owner: "ana",
          key: m.k.owners.ana.publicKeyText,
          title: "Stroller wanted",
        },
        words: ["stroller"],
        sale: null,
        quantity: 1,
        room: m.state.market!.matches[String(match.seq)]!.room,
        deal: recorded!.seq,
      },
    ]);
    expect(board.deals).toEqual([
      {
        seq: recorded!.seq,
        match: match.seq,
        room: board.matches[0]!.room,
        quantity: 1,
        owners: ["ben", "ana"],
        deal: "ab".repeat(32),
      },
    ]);
  });

  it("says where a sealed listing's bids stand, how it sold, and the sale's match at the settled price", async () => {
    const m = await MarketLedger.open();
    const until = m.l.now + 3_600_000;
    const [listing] = await m.list("ana", {
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 1,
      price: { currency: "TWD", min: 200000 },
      sealed: { until, reveal_until: until + 3_600_000 },
    });
    await m.commitBid("ben", listing!.leaf, 300000);
    await m.commitBid("chen", listing!.leaf, 250000);
    expect(boardOf(m).listings[0]!.sealed).toBe(
      `sealed bids: commits until ${new Date(until).toISOString()}, reveals until ${new Date(until + 3_600_000).toISOString()}; 2 committed`,
    );
    m.l.now = until;
    await m.revealBid("ben", listing!.leaf, 300000);
    const caused = await m.revealBid("chen", listing!.leaf, 250000);
    const settled = caused.find((e) => e.kind === "system" && e.subkind === "listing_settled")!;
    const board = boardOf(m);
    expect(board.listings[0]).toMatchObject({
      title: "Bugaboo stroller",
      standing: "live",
      price: "2,000.00 TWD or more",
      sealed: `sold by sealed bids to ben at 2,500.00 TWD (250000 minor units), settled at #${settled.seq}`,
    });
    expect(board.matches).toHaveLength(1);
    expect(board.matches[0]).toMatchObject({
      offer: { owner: "ana", title: "Bugaboo stroller" },
      want: { owner: "ben", title: "winning sealed bid" },
      words: [],
      sale: "2,500.00 TWD (250000 minor units)",
    });
  });

  it("reduces what members wrote to one safe line: no control, bidi or zero-width character", async () => {
    const m = await MarketLedger.open();
    await m.list("ana", {
      side: "offer",
      title: "Crib\u202E gnp.exe\u200B",
      category: "baby-gear",
      quantity: 1,
      text: "Pick up\nin the\u2066 evening",
    });
    const [listing] = boardOf(m).listings;
    expect(listing!.title).toBe("Crib gnp.exe");
    expect(listing!.text).toBe("Pick up in the evening");
  });
});
