/**
 * Sealed bids on a market's listing (docs/SPEC.md §5.15 "Sealed bids on a listing", decision
 * 0469): a sealed offer matches nobody by words; members other than the seller commit once before
 * `until` and reveal from `until` until `reveal_until`; the second price with a reserve settles it
 * (ties to the earliest commit), caused by the last reveal or by the relay when due; a sale makes
 * the match whose room writes only the settled price; and verifiers refute a settlement with
 * another winner or price, one too early, and a hidden one.
 */
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  dueListingSettlements,
  fold,
  joinDraft,
  listingBidCommitment,
  listingSettledDraft,
  matchSeatOf,
  sealedDeadline,
  signJoin,
  verifyExport,
  type DistributiveOmit,
  type Entry,
  type ListingSettledData,
  type SubmissionInput,
  type SystemEntryOf,
  type UnchainedEntry,
} from "../../../src/protocol/index.js";
import { bidSalt, MarketLedger, type Member } from "../../support/market-fixture.js";
import { copy, exportOf, headOver, rechain, refusal } from "./fixtures.js";

const HOUR = 3_600_000;
const TWD = (min: number) => ({ currency: "TWD" as const, min });

/** The swap market with ana's stroller listed for sealed bids (reserve `reserve` TWD minor units): commits for an hour, reveals for an hour after that. */
async function sealedStroller(
  reserve = 200000,
): Promise<{ m: MarketLedger; listing: string; until: number; revealUntil: number }> {
  const m = await MarketLedger.open();
  const until = m.l.now + HOUR;
  const revealUntil = until + HOUR;
  const [entry] = await m.list("ana", {
    side: "offer",
    title: "Bugaboo stroller",
    category: "baby-gear",
    quantity: 1,
    price: TWD(reserve),
    sealed: { until, reveal_until: revealUntil },
  });
  return { m, listing: entry!.leaf, until, revealUntil };
}

const settlementIn = (entries: readonly Entry[]) =>
  entries.find((e): e is SystemEntryOf<"listing_settled"> => e.kind === "system" && e.subkind === "listing_settled");

/** Runs `attempt` expecting a refusal with `code`, and checks that neither the ledger nor the state moved. */
async function refused(
  m: MarketLedger,
  code: string,
  attempt: () => Promise<unknown>,
): Promise<Record<string, unknown> | undefined> {
  const before = { entries: m.l.entries.length, state: canonicalize(m.state) };
  const error = await refusal(attempt);
  expect(error.code, error.message).toBe(code);
  expect(m.l.entries.length).toBe(before.entries);
  expect(canonicalize(m.state)).toBe(before.state);
  return error.details;
}

/** Each of `bids` committed in order, then the clock past `until`. */
async function committed(
  m: MarketLedger,
  listing: string,
  until: number,
  bids: readonly [Member, number][],
): Promise<void> {
  for (const [member, bid] of bids) await m.commitBid(member, listing, bid);
  m.l.now = until;
}

describe("a sealed listing", () => {
  it("takes sealed bids with its price's min as the reserve, and matches nobody by words", async () => {
    const { m, listing, until, revealUntil } = await sealedStroller();
    expect(m.state.market!.listings[listing]!.sealed).toEqual({
      until,
      reveal_until: revealUntil,
      reserve: 200000,
      currency: "TWD",
      commits: {},
      settled: null,
      winner: null,
    });
    expect(m.state.market!.sealed).toEqual([listing]);
    expect(m.state.market!.open["baby-gear"]!.offer).toEqual([]);
    expect(
      MarketLedger.matches(
        await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }),
      ),
    ).toEqual([]);
  });

  it("may be withdrawn before until, and after a settlement that sold nothing", async () => {
    const first = await sealedStroller();
    await first.m.write("ana-bot", { kind: "unlist", listing: first.listing });
    expect(first.m.state.market!.sealed).toEqual([]);
    const { m, listing, until } = await sealedStroller();
    m.l.now = until;
    m.l.append(dueListingSettlements(m.state, m.l.now)[0]!);
    await m.write("ana-bot", { kind: "unlist", listing });
    expect(m.state.market!.listings[listing]!.status).toBe("withdrawn");
  });

  describe("when its terms break a rule", () => {
    const sealedInput = (m: MarketLedger, over: Record<string, unknown> = {}) => ({
      side: "offer" as const,
      title: "Crib",
      category: "baby-gear",
      quantity: 1,
      price: TWD(1000),
      sealed: { until: m.l.now + HOUR, reveal_until: m.l.now + 2 * HOUR },
      ...over,
    });

    it("refuses a sealed want, a price without a min or with a max, and no price at all (E_SCHEMA)", async () => {
      const m = await MarketLedger.open();
      await refused(m, "E_SCHEMA", () => m.list("ana", sealedInput(m, { side: "want" })));
      await refused(m, "E_SCHEMA", () => m.list("ana", sealedInput(m, { price: { currency: "TWD", max: 5000 } })));
      await refused(m, "E_SCHEMA", () =>
        m.list("ana", sealedInput(m, { price: { currency: "TWD", min: 1000, max: 5000 } })),
      );
      const { price: _price, ...unpriced } = sealedInput(m);
      await refused(m, "E_SCHEMA", () => m.list("ana", unpriced));
    });

    it("refuses reveal_until not after until (E_SCHEMA), until already past, reveal_until past the listing's expiry or 7 days away (E_EXPIRED)", async () => {
      const m = await MarketLedger.open({
        config: { market: { categories: ["baby-gear"], listing_ttl_ms: 30 * 86_400_000, listings_per_member: 5 } },
      });
      const now = m.l.now;
      await refused(m, "E_SCHEMA", () =>
        m.list("ana", sealedInput(m, { sealed: { until: now + HOUR, reveal_until: now + HOUR } })),
      );
      await refused(m, "E_EXPIRED", () =>
        m.list("ana", sealedInput(m, { sealed: { until: now - 1, reveal_until: now + HOUR } })),
      );
      await refused(m, "E_EXPIRED", () =>
        m.list(
          "ana",
          sealedInput(m, { expires: now + HOUR, sealed: { until: now + 1000, reveal_until: now + 2 * HOUR } }),
        ),
      );
      await refused(m, "E_EXPIRED", () =>
        m.list(
          "ana",
          sealedInput(m, {
            expires: now + 20 * 86_400_000,
            sealed: { until: now + HOUR, reveal_until: now + 8 * 86_400_000 },
          }),
        ),
      );
    });

    it("refuses a withdrawal or a new version from until on while its bids decide it (E_NOT_ALLOWED, sealed)", async () => {
      const { m, listing, until } = await sealedStroller();
      await m.commitBid("ben", listing, 300000);
      m.l.now = until;
      expect(await refused(m, "E_NOT_ALLOWED", () => m.write("ana-bot", { kind: "unlist", listing }))).toMatchObject({
        reason: "sealed",
        until,
      });
      expect(
        await refused(m, "E_NOT_ALLOWED", () =>
          m.list("ana", { side: "offer", title: "Stroller", category: "baby-gear", quantity: 1, supersedes: listing }),
        ),
      ).toMatchObject({ reason: "sealed" });
    });
  });
});

describe("a sealed bid's commit", () => {
  it("keeps only the hash, under its owner", async () => {
    const { m, listing } = await sealedStroller();
    const [entry] = await m.commitBid("ben", listing, 300000);
    expect(JSON.stringify(entry)).not.toContain("300000");
    expect(m.state.market!.listings[listing]!.sealed!.commits.ben).toMatchObject({
      seq: entry!.seq,
      leaf: entry!.leaf,
      seat: "ben-bot",
      bid: null,
    });
  });

  it("binds the market, the listing, the bidding owner, the bid and the salt", () => {
    const base = {
      table: "m-parents-swap",
      listing: "ab".repeat(32),
      bidder: "ben",
      bid: 300000,
      salt: bidSalt("ben"),
    };
    const seen = new Set([listingBidCommitment(base)]);
    for (const change of [
      { table: "m-other" },
      { listing: "cd".repeat(32) },
      { bidder: "chen" },
      { bid: 300001 },
      { salt: bidSalt("chen") },
    ])
      seen.add(listingBidCommitment({ ...base, ...change }));
    expect(seen.size).toBe(6);
  });

  describe("when it breaks a rule", () => {
    it("refuses the seller's own bid (E_FORBIDDEN) and a second commit by one owner, from another of its seats too (E_NOT_ALLOWED)", async () => {
      const { m, listing } = await sealedStroller();
      await refused(m, "E_FORBIDDEN", () => m.commitBid("ana", listing, 1));
      await m.commitBid("ben", listing, 300000);
      expect(await refused(m, "E_NOT_ALLOWED", () => m.commitBid("ben", listing, 310000))).toMatchObject({
        reason: "committed",
      });
      const key = m.k.owners.ben;
      const request = await signJoin(
        key,
        {
          table: m.state.table,
          seat: "ben-phone",
          owner: "ben",
          seat_key: (await m.seatKey("ben-phone")).publicKeyText,
          human: false,
          nonce: "join-ben-phone-00000",
          expires: m.l.now + 60_000,
        },
        { summary: "ben's phone" },
      );
      m.l.append(joinDraft(m.state, request));
      const commitment = listingBidCommitment({
        table: m.state.table,
        listing,
        bidder: "ben",
        bid: 1,
        salt: bidSalt("ben"),
      });
      await refused(m, "E_NOT_ALLOWED", () => m.write("ben-phone", { kind: "bid", op: "commit", listing, commitment }));
    });

    it("refuses a commit at or after until (E_EXPIRED), on a listing without sealed bids (E_NOT_ALLOWED), unknown (E_UNKNOWN_LISTING) or withdrawn (E_NOT_LIVE)", async () => {
      const { m, listing, until } = await sealedStroller();
      const [plain] = await m.list("chen", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
      expect(await refused(m, "E_NOT_ALLOWED", () => m.commitBid("ben", plain!.leaf, 1))).toMatchObject({
        reason: "not_sealed",
      });
      await refused(m, "E_UNKNOWN_LISTING", () => m.commitBid("ben", "ef".repeat(32), 1));
      const [other] = await m.list("chen", {
        side: "offer",
        title: "High chair",
        category: "baby-gear",
        quantity: 1,
        price: TWD(0),
        sealed: { until, reveal_until: until + HOUR },
      });
      await m.write("chen-bot", { kind: "unlist", listing: other!.leaf });
      await refused(m, "E_NOT_LIVE", () => m.commitBid("ben", other!.leaf, 1));
      m.l.now = until;
      expect(await refused(m, "E_EXPIRED", () => m.commitBid("ben", listing, 300000))).toMatchObject({ until });
    });
  });
});

describe("a sealed bid's reveal", () => {
  describe("when it breaks a rule", () => {
    it("refuses a reveal before until, while others may still commit (E_NOT_ALLOWED, details.until)", async () => {
      const { m, listing, until } = await sealedStroller();
      await m.commitBid("ben", listing, 300000);
      expect(await refused(m, "E_NOT_ALLOWED", () => m.revealBid("ben", listing, 300000))).toMatchObject({
        reason: "sealed",
        until,
      });
    });

    it("refuses another bid or salt, and another owner's bid and salt as one's own (E_REVEAL_MISMATCH)", async () => {
      const { m, listing, until } = await sealedStroller();
      await committed(m, listing, until, [
        ["ben", 300000],
        ["chen", 250000],
      ]);
      await refused(m, "E_REVEAL_MISMATCH", () => m.revealBid("ben", listing, 300001));
      await refused(m, "E_REVEAL_MISMATCH", () => m.revealBid("ben", listing, 300000, bidSalt("chen")));
      await refused(m, "E_REVEAL_MISMATCH", () => m.revealBid("chen", listing, 300000, bidSalt("ben")));
    });

    it("refuses a reveal by an owner that never committed or already revealed (E_NOT_ALLOWED), after reveal_until (E_EXPIRED), and after the settlement (E_NOT_LIVE)", async () => {
      const { m, listing, until, revealUntil } = await sealedStroller();
      await committed(m, listing, until, [
        ["ben", 300000],
        ["chen", 250000],
        ["dora", 240000],
      ]);
      expect(await refused(m, "E_NOT_ALLOWED", () => m.revealBid("eli", listing, 1))).toMatchObject({
        reason: "no_commit",
      });
      await m.revealBid("ben", listing, 300000);
      expect(await refused(m, "E_NOT_ALLOWED", () => m.revealBid("ben", listing, 300000))).toMatchObject({
        reason: "revealed",
      });
      m.l.now = revealUntil;
      await refused(m, "E_EXPIRED", () => m.revealBid("chen", listing, 250000));
      m.l.append(dueListingSettlements(m.state, m.l.now)[0]!);
      await refused(m, "E_NOT_LIVE", () => m.revealBid("chen", listing, 250000));
    });
  });
});

describe("the settlement", () => {
  it("sells to the highest bid at the second-highest on the last reveal, and makes the match of the sale in the same batch", async () => {
    const { m, listing, until } = await sealedStroller(100000);
    await committed(m, listing, until, [
      ["ben", 250000],
      ["chen", 300000],
      ["dora", 200000],
    ]);
    await m.revealBid("chen", listing, 300000);
    await m.revealBid("ben", listing, 250000);
    const batch = await m.revealBid("dora", listing, 200000);
    expect(batch.map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual(["bid", "listing_settled", "match"]);
    const chenCommit = m.state.market!.listings[listing]!.sealed!.commits.chen!;
    expect(batch[1]!.kind === "system" && batch[1]!.data).toEqual({
      listing,
      outcome: "sold",
      winner: { owner: "chen", key: m.k.owners.chen.publicKeyText },
      bid: chenCommit.seq,
      price: 250000,
      currency: "TWD",
    });
    const [match] = MarketLedger.matches(batch);
    expect(match!.data).toEqual({
      offer: listing,
      want: chenCommit.leaf,
      offer_seq: m.state.market!.listings[listing]!.seq,
      want_seq: chenCommit.seq,
      quantity: 1,
      words: [],
      offered_by: { owner: "ana", key: m.k.owners.ana.publicKeyText },
      wanted_by: { owner: "chen", key: m.k.owners.chen.publicKeyText },
      sale: { price: 250000, currency: "TWD" },
    });
    expect(m.state.market!.matches[String(match!.seq)]).toMatchObject({
      room: `mr-${match!.leaf.slice(0, 40)}`,
      sale: { price: 250000, currency: "TWD" },
    });
    expect(m.state.market!.listings[listing]!.sealed).toMatchObject({ settled: batch[1]!.seq, winner: "chen" });
    expect(m.state.market!.sealed).toEqual([]);
  });

  it("charges the reserve when the second-highest bid is below it, and to a single bidder", async () => {
    const two = await sealedStroller(200000);
    await committed(two.m, two.listing, two.until, [
      ["ben", 300000],
      ["chen", 150000],
    ]);
    await two.m.revealBid("ben", two.listing, 300000);
    expect(settlementIn(await two.m.revealBid("chen", two.listing, 150000))!.data).toMatchObject({
      outcome: "sold",
      winner: { owner: "ben" },
      price: 200000,
    });
    const one = await sealedStroller(200000);
    await committed(one.m, one.listing, one.until, [["ben", 300000]]);
    expect(settlementIn(await one.m.revealBid("ben", one.listing, 300000))!.data).toMatchObject({
      outcome: "sold",
      winner: { owner: "ben" },
      price: 200000,
    });
  });

  it("sells nothing when the best bid is below the reserve, and makes no match", async () => {
    const { m, listing, until } = await sealedStroller(200000);
    await committed(m, listing, until, [["ben", 199999]]);
    const batch = await m.revealBid("ben", listing, 199999);
    expect(settlementIn(batch)!.data).toEqual({ listing, outcome: "unsold", reason: "below_reserve" });
    expect(MarketLedger.matches(batch)).toEqual([]);
  });

  it("gives a tie to the earliest commit, at the tied price", async () => {
    const { m, listing, until } = await sealedStroller(0);
    await committed(m, listing, until, [
      ["dora", 300000],
      ["ben", 300000],
      ["chen", 100000],
    ]);
    await m.revealBid("ben", listing, 300000);
    await m.revealBid("chen", listing, 100000);
    expect(settlementIn(await m.revealBid("dora", listing, 300000))!.data).toMatchObject({
      outcome: "sold",
      winner: { owner: "dora" },
      price: 300000,
    });
  });

  it("is due at until when nobody committed (no_bids), and not before", async () => {
    const { m, listing, until } = await sealedStroller();
    expect(sealedDeadline(m.state)).toBe(until);
    expect(dueListingSettlements(m.state, until - 1)).toEqual([]);
    m.l.now = until;
    const [settled] = m.l.append(dueListingSettlements(m.state, until)[0]!);
    expect(settled).toMatchObject({
      subkind: "listing_settled",
      data: { listing, outcome: "unsold", reason: "no_bids" },
    });
    expect(sealedDeadline(m.state)).toBeNull();
  });

  it("is due at reveal_until once someone committed: with nobody revealing (no_reveals), or among the bids revealed", async () => {
    const none = await sealedStroller();
    await committed(none.m, none.listing, none.until, [["ben", 300000]]);
    expect(sealedDeadline(none.m.state)).toBe(none.revealUntil);
    expect(dueListingSettlements(none.m.state, none.revealUntil - 1)).toEqual([]);
    none.m.l.now = none.revealUntil;
    expect(none.m.l.append(dueListingSettlements(none.m.state, none.revealUntil)[0]!)[0]).toMatchObject({
      data: { outcome: "unsold", reason: "no_reveals" },
    });
    const some = await sealedStroller();
    await committed(some.m, some.listing, some.until, [
      ["ben", 300000],
      ["chen", 400000],
    ]);
    await some.m.revealBid("ben", some.listing, 300000);
    some.m.l.now = some.revealUntil;
    const batch = some.m.l.append(dueListingSettlements(some.m.state, some.revealUntil)[0]!);
    expect(batch[0]).toMatchObject({ data: { outcome: "sold", winner: { owner: "ben" }, price: 200000 } });
    expect(MarketLedger.matches(batch)).toHaveLength(1);
  });

  it("folds to the same state from the ledger alone", async () => {
    const { m, listing, until } = await sealedStroller();
    await committed(m, listing, until, [
      ["ben", 300000],
      ["chen", 250000],
    ]);
    await m.revealBid("ben", listing, 300000);
    await m.revealBid("chen", listing, 250000);
    expect(canonicalize(fold(m.l.entries))).toBe(canonicalize(m.state));
  });

  describe("when the relay submits one that is not the computed one", () => {
    it("refuses a settlement before it is due, with another winner or price, and a second one (E_NOT_ALLOWED)", async () => {
      const { m, listing, until, revealUntil } = await sealedStroller();
      await committed(m, listing, until, [
        ["ben", 300000],
        ["chen", 250000],
      ]);
      await m.revealBid("ben", listing, 300000);
      const early: ListingSettledData = {
        listing,
        outcome: "sold",
        winner: { owner: "ben", key: m.k.owners.ben.publicKeyText },
        bid: m.state.market!.listings[listing]!.sealed!.commits.ben!.seq,
        price: 200000,
        currency: "TWD",
      };
      await refused(m, "E_NOT_ALLOWED", async () => m.l.append(listingSettledDraft(m.state, early)));
      m.l.now = revealUntil;
      await refused(m, "E_NOT_ALLOWED", async () =>
        m.l.append(listingSettledDraft(m.state, { ...early, price: 210000 })),
      );
      await refused(m, "E_NOT_ALLOWED", async () =>
        m.l.append(
          listingSettledDraft(m.state, { ...early, winner: { owner: "chen", key: m.k.owners.chen.publicKeyText } }),
        ),
      );
      m.l.append(listingSettledDraft(m.state, early));
      await refused(m, "E_NOT_ALLOWED", async () => m.l.append(listingSettledDraft(m.state, early)));
    });
  });
});

describe("the room of a sale", () => {
  /** A sale of ana's stroller to ben at 250000; `seq` is its match's. */
  async function sold(): Promise<{ m: MarketLedger; seq: number }> {
    const { m, listing, until } = await sealedStroller();
    await committed(m, listing, until, [
      ["ben", 300000],
      ["chen", 250000],
    ]);
    await m.revealBid("ben", listing, 300000);
    const [match] = MarketLedger.matches(await m.revealBid("chen", listing, 250000));
    return { m, seq: match!.seq };
  }

  it("opens as any match's room, its citation carrying the price, and takes offers and counters at that price only (E_NOT_ALLOWED, sale_price)", async () => {
    const { m, seq } = await sold();
    const room = await m.openRoom(seq, "ben");
    expect(room.state!.config.room!.match!.data.sale).toEqual({ price: 250000, currency: "TWD" });
    const ben = await m.seatKey("ben-room");
    const request = await signJoin(
      m.k.owners.ben,
      {
        table: room.state!.table,
        seat: "ben-room",
        owner: "ben",
        seat_key: ben.publicKeyText,
        human: false,
        nonce: "join-ben-room-000000",
        expires: room.now + 60_000,
      },
      { summary: "ben" },
    );
    room.append(joinDraft(room.state!, request));
    const write = (input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">) =>
      room.submit(ben, { seat: "ben-room", ...input } as Parameters<typeof room.submit>[1]);
    const [offer] = await write({
      kind: "offer",
      terms: { amount: 250000, currency: "TWD", text: "pick up Saturday" },
    });
    const anaSeat = await m.seatKey("ana-room");
    const anaJoin = await signJoin(
      m.k.owners.ana,
      {
        table: room.state!.table,
        seat: "ana-room",
        owner: "ana",
        seat_key: anaSeat.publicKeyText,
        human: false,
        nonce: "join-ana-room-000000",
        expires: room.now + 60_000,
        owner_key: m.k.owners.ana.publicKeyText,
      },
      { summary: "ana" },
    );
    room.append(joinDraft(room.state!, anaJoin));
    const counter = {
      seat: "ana-room",
      kind: "counter",
      offer: offer!.leaf,
      terms: { amount: 260000, currency: "TWD" },
    } as Parameters<typeof room.submit>[1];
    expect(await refusal(() => room.submit(anaSeat, counter))).toMatchObject({
      code: "E_NOT_ALLOWED",
      details: { reason: "sale_price" },
    });
    for (const terms of [
      { amount: 240000, currency: "TWD" as const },
      { amount: 250000, currency: "USD" as const },
      { text: "let us talk" },
    ]) {
      const error = await refusal(() => write({ kind: "offer", terms }));
      expect(error).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "sale_price" } });
    }
    const auction = await refusal(() =>
      write({
        kind: "mechanism",
        op: "open",
        sides: { buyer: "ben-room", seller: "ben-room" },
        k: { num: 1, den: 2 },
        currency: "TWD",
        deadline: room.now + HOUR,
        reveal_deadline: room.now + 2 * HOUR,
      }),
    );
    expect(auction).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "sale_price" } });
  });

  it("names the seat behind each side: the listing's author for the seller, the bid's for the winner (where an owner's client finds the mandate to carry)", async () => {
    const { m, seq } = await sold();
    expect(matchSeatOf(m.state.market!, seq, m.k.owners.ana.publicKeyText)).toBe("ana-bot");
    expect(matchSeatOf(m.state.market!, seq, m.k.owners.ben.publicKeyText)).toBe("ben-bot");
    expect(matchSeatOf(m.state.market!, seq, m.k.owners.chen.publicKeyText)).toBeUndefined();
  });

  it("records its deal back, which fills the listing", async () => {
    const { m, seq } = await sold();
    const match = m.state.market!.matches[String(seq)]!;
    const [deal] = m.l.append(await m.dealDraft(seq, "cd".repeat(32)));
    expect(deal).toMatchObject({ data: { quantity: 1 } });
    expect(m.state.market!.listings[match.offer]).toMatchObject({ status: "filled", closed: 1 });
  });
});

describe("verifying a market with sealed bids", () => {
  /** A sale decided by the last reveal and an unsold listing settled by the relay at its until. */
  async function market(): Promise<MarketLedger> {
    const { m, listing, until } = await sealedStroller();
    const [other] = await m.list("dora", {
      side: "offer",
      title: "High chair",
      category: "baby-gear",
      quantity: 1,
      price: TWD(0),
      sealed: { until: until + 5000, reveal_until: until + HOUR },
    });
    await committed(m, listing, until, [
      ["ben", 300000],
      ["chen", 250000],
    ]);
    await m.revealBid("ben", listing, 300000);
    await m.revealBid("chen", listing, 250000);
    m.l.now = until + 5000;
    m.l.append(dueListingSettlements(m.state, m.l.now)[0]!);
    expect(m.state.market!.listings[other!.leaf]!.sealed!.settled).not.toBeNull();
    return m;
  }
  const pinned = (m: MarketLedger) => ({ relayKey: m.k.relay.publicKeyText });
  const forged = async (m: MarketLedger, entries: readonly (Entry | UnchainedEntry)[]) => {
    const chained = rechain(entries.map((e, i) => ({ ...e, seq: i + 1 })));
    return exportOf(m.k.relay, chained, [await headOver(m.k.relay, chained)], m.state.table);
  };
  const settlementAt = (entries: Entry[]) =>
    entries.findIndex((e) => e.kind === "system" && e.subkind === "listing_settled");

  it("is CLEAN, every settlement and sale recomputed by the replay", async () => {
    const m = await market();
    const report = await verifyExport(await m.exportText(), pinned(m));
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.policy_replay).toBe("full");
  });

  it("refutes a settlement with another winner, or another price", async () => {
    const m = await market();
    for (const change of [{ winner: { owner: "chen", key: m.k.owners.chen.publicKeyText } }, { price: 300000 }]) {
      const entries = copy(m.l.entries);
      const i = settlementAt(entries);
      Object.assign(entries[i]!.kind === "system" ? entries[i]!.data : {}, change);
      const report = await verifyExport(await forged(m, entries), pinned(m));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({
        seq: entries[i]!.seq,
        reason: expect.stringMatching(/policy replay expected system listing_settled/),
      });
    }
  });

  it("refutes a hidden settlement, and a hidden match of a sale", async () => {
    const m = await market();
    const i = settlementAt(m.l.entries);
    for (const hidden of [[i, i + 1], [i + 1]]) {
      const entries = copy(m.l.entries).filter((_, j) => !hidden.includes(j));
      const report = await verifyExport(await forged(m, entries), pinned(m));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted!.seq).toBe(hidden[0]! + 1);
    }
  });

  it("refutes a settlement the relay recorded before it was due", async () => {
    const { m, listing } = await sealedStroller();
    const early = {
      ...listingSettledDraft(m.state, { listing, outcome: "unsold", reason: "no_bids" }),
      seq: m.l.entries.length + 1,
      ts: m.l.now,
    } as UnchainedEntry;
    const report = await verifyExport(await forged(m, [...m.l.entries, early]), pinned(m));
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted!.reason).toMatch(/E_NOT_ALLOWED/);
  });
});
