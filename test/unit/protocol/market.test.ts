/**
 * Markets (docs/SPEC.md §5.15, decision 0460): members admitted by invites bound to their keys,
 * listings and withdrawals, the matches admit causes (category, shared words, prices, quantity,
 * owners, the best 8), the refusals of each rule, and a fold of the whole ledger equal to the
 * state admit kept.
 */
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  fold,
  LIMITS,
  listingWords,
  liveListingCount,
  pricesMeet,
  type Entry,
} from "../../../src/protocol/index.js";
import { MarketLedger, marketCast } from "../../support/market-fixture.js";
import { refusal } from "./fixtures.js";

const TWD = (min?: number, max?: number) => ({
  currency: "TWD" as const,
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
});

describe("a market's members", () => {
  it("join with a plain join on an invite bound to their key, and become parties", async () => {
    const m = await MarketLedger.open({ members: ["ana"] });
    expect(m.state.room!.parties.ana).toMatchObject({ public_key: m.k.owners.ana.publicKeyText, ejected: null });
    expect(m.state.seats["ana-bot"]).toMatchObject({ owner: "ana" });
  });

  describe("when someone else tries", () => {
    it("refuses a key-bound invite used by another key (E_INVITE, other_key)", async () => {
      const m = await MarketLedger.open({ members: [] });
      const ana = m.k.owners.ana;
      const { signInvite, inviteDraft, signJoin, joinDraft } = await import("../../../src/protocol/index.js");
      m.l.append(
        inviteDraft(
          m.state,
          await signInvite(m.k.owners.hana, {
            table: m.state.table,
            invite: "inv-for-ana-000000",
            expires: m.l.now + 60_000,
            owner_key: ana.publicKeyText,
          }),
        ),
      );
      const ben = m.k.owners.ben;
      const request = await signJoin(
        ben,
        {
          table: m.state.table,
          seat: "ben-bot",
          owner: "ben",
          seat_key: (await m.seatKey("ben-bot")).publicKeyText,
          human: false,
          nonce: "join-ben-000000000",
          expires: m.l.now + 60_000,
          invite: "inv-for-ana-000000",
          owner_key: ben.publicKeyText,
        },
        { summary: "ben" },
      );
      const error = await refusal(() => m.l.append(joinDraft(m.state, request)));
      expect(error).toMatchObject({ code: "E_INVITE", details: { reason: "other_key" } });
    });

    it("refuses a member past max_members (E_SEAT_LIMIT)", async () => {
      const m = await MarketLedger.open({
        members: ["ana"],
        config: {
          market: { categories: ["books"], listing_ttl_ms: 86_400_000, listings_per_member: 5, max_members: 1 },
        },
      });
      expect(await refusal(() => m.admit("ben"))).toMatchObject({ code: "E_SEAT_LIMIT" });
    });
  });
});

describe("listings", () => {
  it("are open, indexed by category and side, with their title's words", async () => {
    const m = await MarketLedger.open();
    const [entry] = await m.list("ana", {
      side: "offer",
      title: "Bugaboo Fox strollers, folds flat",
      category: "baby-gear",
      quantity: 1,
      price: TWD(250000, 400000),
    });
    const listing = m.state.market!.listings[entry!.leaf]!;
    expect(listing).toMatchObject({
      owner: "ana",
      side: "offer",
      status: "open",
      closed: 0,
      words: ["bugaboo", "fox", "stroller", "fold", "flat"],
    });
    expect(m.state.market!.open["baby-gear"]!.offer).toEqual([entry!.leaf]);
  });

  it("a new version supersedes the old one, which leaves the index", async () => {
    const m = await MarketLedger.open();
    const [old] = await m.list("ana", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
    const [next] = await m.list("ana", {
      side: "offer",
      title: "Crib, with mattress",
      category: "baby-gear",
      quantity: 1,
      supersedes: old!.leaf,
    });
    expect(m.state.market!.listings[old!.leaf]).toMatchObject({ status: "superseded", ended: next!.seq });
    expect(m.state.market!.open["baby-gear"]!.offer).toEqual([next!.leaf]);
  });

  it("unlist withdraws a listing, which stops matching", async () => {
    const m = await MarketLedger.open();
    const [offer] = await m.list("ana", { side: "offer", title: "High chair", category: "baby-gear", quantity: 1 });
    await m.write("ana-bot", { kind: "unlist", listing: offer!.leaf });
    expect(m.state.market!.listings[offer!.leaf]!.status).toBe("withdrawn");
    expect(
      MarketLedger.matches(
        await m.list("ben", { side: "want", title: "high chair", category: "baby-gear", quantity: 1 }),
      ),
    ).toEqual([]);
  });

  it("counts one owner's live listings only: not another owner's, a superseded, a withdrawn or an expired one", async () => {
    const m = await MarketLedger.open();
    const book = (title: string, over: { expires?: number } = {}) => ({
      side: "offer" as const,
      title,
      category: "books",
      quantity: 1,
      ...over,
    });
    await m.list("ana", book("Atlas"));
    const [old] = await m.list("ana", book("Almanac"));
    await m.list("ana", { ...book("Almanac, second edition"), supersedes: old!.leaf });
    const [gone] = await m.list("ana", book("Annual"));
    await m.write("ana-bot", { kind: "unlist", listing: gone!.leaf });
    const [soon] = await m.list("ana", book("Anthology", { expires: m.l.now + 60_000 }));
    await m.list("ben", book("Bestiary"));
    const count = (owner: string, now: number) => liveListingCount(m.state, m.state.market!, owner, now);
    expect(count("ana", m.l.now)).toBe(3);
    expect(count("ana", soon!.ts + 60_000)).toBe(2);
    expect(count("ben", m.l.now)).toBe(1);
    expect(count("chen", m.l.now)).toBe(0);
  });

  describe("when a listing breaks a rule", () => {
    it("refuses a category the market does not have (E_SCHEMA)", async () => {
      const m = await MarketLedger.open();
      expect(
        await refusal(() => m.list("ana", { side: "offer", title: "Bike", category: "bikes", quantity: 1 })),
      ).toMatchObject({ code: "E_SCHEMA" });
    });

    it("refuses an expiry past the market's listing_ttl_ms, or already past (E_EXPIRED)", async () => {
      const m = await MarketLedger.open();
      expect(
        await refusal(() =>
          m.list("ana", {
            side: "offer",
            title: "Bike seat",
            category: "baby-gear",
            quantity: 1,
            expires: m.l.now + 8 * 86_400_000,
          }),
        ),
      ).toMatchObject({ code: "E_EXPIRED" });
      expect(
        await refusal(() =>
          m.list("ana", {
            side: "offer",
            title: "Bike seat",
            category: "baby-gear",
            quantity: 1,
            expires: m.l.now - 1,
          }),
        ),
      ).toMatchObject({ code: "E_EXPIRED" });
    });

    it("refuses a sixth live listing of one member (E_NOT_ALLOWED, listings_per_member), but not a new version", async () => {
      const m = await MarketLedger.open();
      let last: Entry | undefined;
      for (let i = 0; i < 5; i++)
        [last] = await m.list("ana", { side: "offer", title: `Book number ${i}`, category: "books", quantity: 1 });
      expect(
        await refusal(() => m.list("ana", { side: "offer", title: "One more book", category: "books", quantity: 1 })),
      ).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "listings_per_member" } });
      await m.list("ana", {
        side: "offer",
        title: "Book number 4, signed",
        category: "books",
        quantity: 1,
        supersedes: last!.leaf,
      });
    });

    it("refuses a new version or a withdrawal by another owner (E_FORBIDDEN), and of an unknown listing (E_UNKNOWN_LISTING)", async () => {
      const m = await MarketLedger.open();
      const [offer] = await m.list("ana", { side: "offer", title: "Baby carrier", category: "baby-gear", quantity: 1 });
      expect(
        await refusal(() =>
          m.list("ben", {
            side: "offer",
            title: "Baby carrier",
            category: "baby-gear",
            quantity: 1,
            supersedes: offer!.leaf,
          }),
        ),
      ).toMatchObject({ code: "E_FORBIDDEN" });
      expect(await refusal(() => m.write("ben-bot", { kind: "unlist", listing: offer!.leaf }))).toMatchObject({
        code: "E_FORBIDDEN",
      });
      expect(await refusal(() => m.write("ben-bot", { kind: "unlist", listing: "ab".repeat(32) }))).toMatchObject({
        code: "E_UNKNOWN_LISTING",
      });
    });

    it("refuses a withdrawn listing withdrawn again (E_NOT_LIVE) and a new version that changes side (E_NOT_ALLOWED)", async () => {
      const m = await MarketLedger.open();
      const [a] = await m.list("ana", { side: "offer", title: "Playpen", category: "baby-gear", quantity: 1 });
      expect(
        await refusal(() =>
          m.list("ana", { side: "want", title: "Playpen", category: "baby-gear", quantity: 1, supersedes: a!.leaf }),
        ),
      ).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "side" } });
      await m.write("ana-bot", { kind: "unlist", listing: a!.leaf });
      expect(await refusal(() => m.write("ana-bot", { kind: "unlist", listing: a!.leaf }))).toMatchObject({
        code: "E_NOT_LIVE",
      });
    });

    it("refuses a listing at a table that is not a market, and a room kind in a market (E_NOT_ALLOWED)", async () => {
      const m = await MarketLedger.open();
      expect(
        await refusal(() => m.write("ana-bot", { kind: "offer", terms: { amount: 100, currency: "TWD" } })),
      ).toMatchObject({ code: "E_NOT_ALLOWED" });
      const { RoomLedger } = await import("../../support/room-fixture.js");
      const r = await RoomLedger.open();
      expect(
        await refusal(() =>
          r.write("ben-bot", {
            kind: "listing",
            side: "want",
            title: "Stroller",
            category: "baby-gear",
            quantity: 1,
            expires: r.l.now + 1000,
          }),
        ),
      ).toMatchObject({ code: "E_NOT_ALLOWED" });
    });
  });
});

describe("matching", () => {
  it("matches a want with an offer of another owner in the category, sharing a word, prices overlapping", async () => {
    const m = await MarketLedger.open();
    const [offer] = await m.list("ana", {
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 2,
      price: TWD(300000, 450000),
    });
    const written = await m.list("ben", {
      side: "want",
      title: "Looking for a stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(undefined, 350000),
    });
    const [match, ...rest] = MarketLedger.matches(written);
    expect(rest).toEqual([]);
    expect(match!.data).toEqual({
      offer: offer!.leaf,
      want: written[0]!.leaf,
      offer_seq: offer!.seq,
      want_seq: written[0]!.seq,
      quantity: 1,
      words: ["stroller"],
      offered_by: { owner: "ana", key: m.k.owners.ana.publicKeyText },
      wanted_by: { owner: "ben", key: m.k.owners.ben.publicKeyText },
    });
    expect(m.state.market!.matches[String(match!.seq)]).toMatchObject({
      leaf: match!.leaf,
      room: `mr-${match!.leaf.slice(0, 40)}`,
      deal: null,
    });
  });

  it("does not match across categories, within one owner, without a shared word, or with prices that cannot meet", async () => {
    const m = await MarketLedger.open();
    await m.list("ana", { side: "offer", title: "Stroller", category: "baby-gear", quantity: 1, price: TWD(300000) });
    await m.list("ana", { side: "offer", title: "Stroller book", category: "books", quantity: 1 });
    expect(
      MarketLedger.matches(
        await m.list("ana", { side: "want", title: "Stroller", category: "baby-gear", quantity: 1 }),
      ),
    ).toEqual([]);
    expect(
      MarketLedger.matches(
        await m.list("ben", { side: "want", title: "Car seat", category: "baby-gear", quantity: 1 }),
      ),
    ).toEqual([]);
    expect(
      MarketLedger.matches(
        await m.list("chen", {
          side: "want",
          title: "Stroller",
          category: "baby-gear",
          quantity: 1,
          price: TWD(0, 299999),
        }),
      ),
    ).toEqual([]);
    expect(
      MarketLedger.matches(
        await m.list("dora", {
          side: "want",
          title: "Stroller",
          category: "baby-gear",
          quantity: 1,
          price: { currency: "USD", max: 500000 },
        }),
      ),
    ).toEqual([]);
    expect(
      MarketLedger.matches(
        await m.list("eli", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }),
      ).map((e) => e.data.offered_by.owner),
    ).toEqual(["ana"]);
  });

  it("keeps the best LIMITS.matches_per_listing: most words in common, then the oldest", async () => {
    const k = await marketCast();
    const m = await MarketLedger.open(
      { config: { market: { categories: ["books"], listing_ttl_ms: 86_400_000, listings_per_member: 20 } } },
      k,
    );
    const titles = [
      "Picture book",
      "Picture book",
      "Big picture book set",
      "Old book",
      "Book",
      "Book",
      "Book",
      "Book",
      "Book",
      "Book",
    ];
    const leaves: string[] = [];
    for (const [i, title] of titles.entries()) {
      const owner = (["ana", "ben", "chen", "dora"] as const)[i % 4]!;
      leaves.push((await m.list(owner, { side: "offer", title, category: "books", quantity: 1 }))[0]!.leaf);
    }
    const matches = MarketLedger.matches(
      await m.list("eli", { side: "want", title: "Big picture book", category: "books", quantity: 1 }),
    );
    expect(matches).toHaveLength(LIMITS.matches_per_listing);
    expect(matches.map((e) => e.data.offer)).toEqual([
      leaves[2],
      leaves[0],
      leaves[1],
      leaves[3],
      leaves[4],
      leaves[5],
      leaves[6],
      leaves[7],
    ]);
    expect(matches[0]!.data.words).toEqual(["big", "picture", "book"]);
  });

  it("does not match an expired listing", async () => {
    const m = await MarketLedger.open();
    await m.list("ana", {
      side: "offer",
      title: "Bouncer",
      category: "baby-gear",
      quantity: 1,
      expires: m.l.now + 1500,
    });
    m.l.now += 5000;
    expect(
      MarketLedger.matches(await m.list("ben", { side: "want", title: "bouncer", category: "baby-gear", quantity: 1 })),
    ).toEqual([]);
  });

  it("reads words across scripts: plural s, case, width, and pairs of Han or kana characters", () => {
    expect(listingWords("STROLLERS and the Strollér")).toEqual(["stroller", "strollér"]);
    expect(listingWords("ｂａｂｙ ｃａｒｒｉｅｒ")).toEqual(["baby", "carrier"]);
    expect(listingWords("嬰兒推車 二手")).toEqual(["嬰兒", "兒推", "推車", "二手"]);
    expect(listingWords("glass")).toEqual(["glass"]);
  });

  it("meets prices only in one currency with overlapping ranges, or when either is absent", () => {
    expect(pricesMeet(TWD(100, 200), TWD(200, 300))).toBe(true);
    expect(pricesMeet(TWD(100, 199), TWD(200, 300))).toBe(false);
    expect(pricesMeet(TWD(100), null)).toBe(true);
    expect(pricesMeet({ currency: "USD", min: 1 }, TWD(1))).toBe(false);
  });
});

describe("the fold", () => {
  it("of the whole ledger equals the state admit kept after listings, matches, versions and withdrawals", async () => {
    const m = await MarketLedger.open();
    const [a] = await m.list("ana", { side: "offer", title: "Stroller", category: "baby-gear", quantity: 3 });
    await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 });
    await m.list("ana", {
      side: "offer",
      title: "Stroller, two of them",
      category: "baby-gear",
      quantity: 2,
      supersedes: a!.leaf,
    });
    const [c] = await m.list("chen", { side: "want", title: "Books about strollers", category: "books", quantity: 1 });
    await m.write("chen-bot", { kind: "unlist", listing: c!.leaf });
    expect(canonicalize(fold(m.l.entries))).toBe(canonicalize(m.state));
  });
});
