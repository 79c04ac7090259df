/**
 * What became of an allowance's commitments, judged from a match room's ledger alone (docs/MARKETS.md
 * "An owner's allowance"): a deal both owners signed is spent at its amount, an offer that ended
 * without one is released, and whatever the ledger does not settle stays counted. A sealed bid on a
 * listing is judged at its market (released when it lost, the listing was withdrawn or nothing sold;
 * turned into its sale's commitment at the second price when it won) and then in its sale's room.
 * Driven through the protocol's own admit on an in-memory market and match room.
 */
import { describe, expect, it } from "vitest";
import {
  bidFateOf,
  EXPIRY_MARGIN_MS,
  fateOf,
  saleFateOf,
  settleRoom,
  withSaleWon,
  type AllowanceCommitment,
} from "../../../src/owner/index.js";
import {
  dealStatement,
  joinDraft,
  signJoin,
  signStatement,
  type DistributiveOmit,
  type Entry,
  type SubmissionInput,
} from "../../../src/protocol/index.js";
import { MarketLedger } from "../../support/market-fixture.js";
import type { MemoryLedger } from "../../support/table-fixture.js";

/** A match room where ana sells a stroller to ben: ben (the buyer) opened it and seated ben-room; ana joined as the other side with ana-room. */
async function strollerRoom(): Promise<{
  m: MarketLedger;
  room: MemoryLedger;
  say: (
    seat: "ana-room" | "ben-room",
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">,
  ) => Promise<Entry>;
}> {
  const m = await MarketLedger.open();
  await m.list("ana", { side: "offer", title: "Bugaboo stroller", category: "baby-gear", quantity: 1 });
  const [match] = MarketLedger.matches(
    await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }),
  );
  const room = await m.openRoom(match!.seq, "ben");
  await room.join(m.k.owners.ben, "ben", "ben-room", await m.seatKey("ben-room"));
  const key = m.k.owners.ana;
  const join = {
    table: room.state!.table,
    seat: "ana-room",
    owner: "ana",
    seat_key: (await m.seatKey("ana-room")).publicKeyText,
    human: false,
    nonce: "ana-joins-the-match-room",
    expires: room.now + 60_000,
    owner_key: key.publicKeyText,
  };
  room.append(joinDraft(room.state!, await signJoin(key, join, { summary: "ana sells" })));
  const say = async (
    seat: "ana-room" | "ben-room",
    input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">,
  ) =>
    (await room.submit(await m.seatKey(seat), { seat, ...input } as Omit<SubmissionInput, "table" | "nonce">)).at(0)!;
  return { m, room, say };
}

const usd = (amount: number) => ({ amount, currency: "USD" as const });

/** A commitment of ben's (the buyer) made by `entry`, as the guard reserved it before sending. */
function reserved(entry: Entry, over: Partial<AllowanceCommitment> = {}): AllowanceCommitment {
  return {
    room: entry.table,
    seat: entry.seat!,
    kind: entry.kind,
    nonce: "nonce" in entry ? entry.nonce : "",
    message_sha256: "0".repeat(64),
    side: "buyer",
    amount: 5_000,
    currency: "USD",
    state: "open",
    process: { pid: 1, host: "elsewhere" },
    at: 1,
    ...over,
  };
}

describe("the fate of a commitment in its room", () => {
  it("is open while an offer is live, released once it is rejected, countered or expired, open while its deal waits, and spent once both owners signed", async () => {
    const { m, room, say } = await strollerRoom();
    const fate = (leaf: string, at = room.now) => fateOf(room.state!, leaf, at).fate;
    const rejected = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    expect(fate(rejected.leaf)).toBe("open");
    await say("ana-room", { kind: "reject", offer: rejected.leaf });
    expect(fate(rejected.leaf)).toBe("released");
    const countered = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    const counter = await say("ana-room", { kind: "counter", offer: countered.leaf, terms: usd(6_000) });
    expect(fate(countered.leaf)).toBe("released");
    const expiring = await say("ben-room", { kind: "offer", terms: usd(4_000), expires: room.now + 10_000 });
    expect(fate(expiring.leaf, room.now + 10_000)).toBe("open");
    expect(fate(expiring.leaf, room.now + 10_000 + EXPIRY_MARGIN_MS)).toBe("released");
    await say("ben-room", { kind: "accept", offer: counter.leaf });
    expect(fate(counter.leaf)).toBe("open");
    const deal = room.state!.room!.deals[counter.leaf]!;
    for (const [seat, owner] of [
      ["ben-room", "ben"],
      ["ana-room", "ana"],
    ] as const) {
      const key = m.k.owners[owner];
      await say(seat, {
        kind: "deal_sign",
        offer: counter.leaf,
        deal: deal.terms_sha256,
        owner_key: key.publicKeyText,
        owner_sig: await signStatement(key, "deal", dealStatement(room.state!.table, deal.terms_sha256)),
      });
    }
    expect(fateOf(room.state!, counter.leaf, room.now)).toEqual({ fate: "spent", amount: 6_000, currency: "USD" });
  });

  it("is released for an offer still open when the room closed without a deal, and open for what the ledger does not know", async () => {
    const { room, say } = await strollerRoom();
    const offer = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    await say("ana-room", { kind: "close", outcome: "no_deal" });
    expect(fateOf(room.state!, offer.leaf, room.now).fate).toBe("released");
    expect(fateOf(room.state!, "f".repeat(64), room.now).fate).toBe("open");
  });
});

describe("settling a room's commitments", () => {
  it("finds each write's entry by its nonce, keeps what the ledger does not show unless its process ended, leaves other rooms alone, and counts one deal once", async () => {
    const { room, say } = await strollerRoom();
    const offer = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    const unsent = reserved(offer, { nonce: "never-reached-the-relay" });
    const elsewhere = reserved(offer, { room: "mr-another-room", seq: 3, deal: "e".repeat(64) });
    const twin = reserved(offer, { kind: "deal_sign", nonce: "a-later-write-on-it", seq: 9, deal: offer.leaf });
    const judged = { room: room.state!.table, state: room.state!, entries: room.entries, now: room.now };
    const kept = settleRoom([reserved(offer), unsent, elsewhere, twin], { ...judged, ended: () => false });
    expect(kept).toEqual([{ ...reserved(offer), seq: offer.seq, deal: offer.leaf }, unsent, elsewhere]);
    expect(settleRoom([unsent], { ...judged, ended: (c) => c.nonce === unsent.nonce })).toEqual([]);
  });
});

const HOUR = 3_600_000;

/** A market where ana lists a cot for sealed bids (reserve 30.00 USD) and ben and chen commit bids of 50.00 and 40.00 USD: `commits` are their commit entries. */
async function sealedCot(reserve = 3_000) {
  const m = await MarketLedger.open();
  const until = m.l.now + HOUR;
  const [listed] = await m.list("ana", {
    side: "offer",
    title: "Cot",
    category: "baby-gear",
    quantity: 1,
    price: { currency: "USD", min: reserve },
    sealed: { until, reveal_until: until + HOUR },
  });
  const leaf = listed!.leaf;
  const commits = {
    ben: (await m.commitBid("ben", leaf, 5_000))[0]!,
    chen: (await m.commitBid("chen", leaf, 4_000))[0]!,
  };
  const revealAll = async () => {
    m.l.now = until;
    await m.revealBid("ben", leaf, 5_000);
    return m.revealBid("chen", leaf, 4_000);
  };
  return { m, leaf, commits, revealAll };
}

/** The commitment a bidder's guard reserved for its commit `entry` on the listing at `listing`, as the buyer. */
const bidReserved = (entry: Entry, listing: string, amount: number) =>
  reserved(entry, { kind: "bid", listing, amount });

describe("the fate of a sealed bid at its market", () => {
  it("is open until the bids settle, then won by the best bid at the second price with its sale's room, and released for the others", async () => {
    const { m, leaf, commits, revealAll } = await sealedCot();
    expect(bidFateOf(m.state, leaf, commits.ben.seq)).toEqual({ fate: "open" });
    const [sale] = MarketLedger.matches(await revealAll());
    expect(bidFateOf(m.state, leaf, commits.ben.seq)).toEqual({
      fate: "won",
      room: m.state.market!.matches[String(sale!.seq)]!.room,
      price: 4_000,
      currency: "USD",
    });
    expect(bidFateOf(m.state, leaf, commits.chen.seq)).toEqual({ fate: "released" });
  });

  it("is released for every bid when nothing sold, and when the listing was withdrawn before its bids settled", async () => {
    const unsold = await sealedCot(6_000);
    await unsold.revealAll();
    expect(unsold.m.state.market!.listings[unsold.leaf]!.sealed!.winner).toBeNull();
    expect(bidFateOf(unsold.m.state, unsold.leaf, unsold.commits.ben.seq)).toEqual({ fate: "released" });
    const withdrawn = await sealedCot();
    await withdrawn.m.write("ana-bot", { kind: "unlist", listing: withdrawn.leaf });
    expect(bidFateOf(withdrawn.m.state, withdrawn.leaf, withdrawn.commits.ben.seq)).toEqual({ fate: "released" });
  });
});

describe("settling a market's sealed bids and their sale", () => {
  it("turns the won bid into its sale's commitment at the second price, drops the lost one, and spends the sale once both owners signed its deal", async () => {
    const { m, leaf, commits, revealAll } = await sealedCot();
    const bids = [bidReserved(commits.ben, leaf, 5_000), bidReserved(commits.chen, leaf, 4_000)];
    const atMarket = () => ({
      room: m.state.table,
      state: m.state,
      entries: m.l.entries,
      now: m.l.now,
      ended: () => false,
    });
    expect(settleRoom(bids, atMarket())).toEqual([
      { ...bids[0], seq: commits.ben.seq },
      { ...bids[1], seq: commits.chen.seq },
    ]);
    const [sale] = MarketLedger.matches(await revealAll());
    const room = m.state.market!.matches[String(sale!.seq)]!.room;
    const won = settleRoom(bids, atMarket());
    expect(won).toEqual([{ ...bids[0], seq: commits.ben.seq, sale: room, amount: 4_000 }]);

    const saleRoom = await m.openRoom(sale!.seq, "ben");
    expect(saleRoom.state!.table).toBe(room);
    await saleRoom.join(m.k.owners.ben, "ben", "ben-room", await m.seatKey("ben-room"));
    const key = m.k.owners.ana;
    const join = {
      table: room,
      seat: "ana-room",
      owner: "ana",
      seat_key: (await m.seatKey("ana-room")).publicKeyText,
      human: false,
      nonce: "ana-joins-the-sale-room",
      expires: saleRoom.now + 60_000,
      owner_key: key.publicKeyText,
    };
    saleRoom.append(joinDraft(saleRoom.state!, await signJoin(key, join, { summary: "ana sells" })));
    const say = async (
      seat: "ana-room" | "ben-room",
      input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">,
    ) =>
      (await saleRoom.submit(await m.seatKey(seat), { seat, ...input } as Omit<SubmissionInput, "table" | "nonce">)).at(
        0,
      )!;
    const inRoom = () => ({
      room,
      state: saleRoom.state!,
      entries: saleRoom.entries,
      now: saleRoom.now,
      ended: () => true,
    });
    expect(settleRoom(won, inRoom())).toEqual(won);
    expect(settleRoom(won, { ...atMarket(), ended: () => true })).toEqual(won);
    const offer = await say("ana-room", { kind: "offer", terms: usd(4_000) });
    await say("ben-room", { kind: "accept", offer: offer.leaf });
    expect(saleFateOf(saleRoom.state!, saleRoom.now)).toEqual({ fate: "open" });
    const deal = saleRoom.state!.room!.deals[offer.leaf]!;
    for (const [seat, owner] of [
      ["ben-room", "ben"],
      ["ana-room", "ana"],
    ] as const) {
      const signer = m.k.owners[owner];
      await say(seat, {
        kind: "deal_sign",
        offer: offer.leaf,
        deal: deal.terms_sha256,
        owner_key: signer.publicKeyText,
        owner_sig: await signStatement(signer, "deal", dealStatement(room, deal.terms_sha256)),
      });
    }
    const { currency: _currency, ...spent } = won[0]!;
    expect(settleRoom(won, inRoom())).toEqual([{ ...spent, state: "spent", amount: 4_000, currency: "USD" }]);
  });

  it("releases a won bid's sale when its room closes without a deal, and lets the sale's room's citation turn the bid into the sale before the market is read again", async () => {
    const { m, leaf, commits, revealAll } = await sealedCot();
    const [sale] = MarketLedger.matches(await revealAll());
    const saleRoom = await m.openRoom(sale!.seq, "ben");
    const citation = saleRoom.state!.config.room!.match!;
    const unseen = { ...bidReserved(commits.ben, leaf, 5_000), seq: undefined };
    const elsewhere = reserved(commits.ben, { room: "mr-another-room", kind: "offer" });
    const turned = withSaleWon([unseen, elsewhere], saleRoom.state!.table, citation);
    expect(turned).toEqual([
      { ...unseen, seq: commits.ben.seq, sale: saleRoom.state!.table, amount: 4_000 },
      elsewhere,
    ]);
    await saleRoom.join(m.k.owners.ben, "ben", "ben-room", await m.seatKey("ben-room"));
    await saleRoom.submit(await m.seatKey("ben-room"), { seat: "ben-room", kind: "close", outcome: "no_deal" } as Omit<
      SubmissionInput,
      "table" | "nonce"
    >);
    expect(saleFateOf(saleRoom.state!, saleRoom.now)).toEqual({ fate: "released" });
    expect(
      settleRoom(turned, {
        room: saleRoom.state!.table,
        state: saleRoom.state!,
        entries: saleRoom.entries,
        now: saleRoom.now,
        ended: () => false,
      }),
    ).toEqual([elsewhere]);
  });
});
