/**
 * Sealed bids on a market's listing from the owner's side (docs/SPEC.md §5.15 "Sealed bids on a
 * listing"): the bid is chosen on this machine with its own salt, judged by the owner's mandate
 * like any commitment before anything is sent (cap, floor, currency, a commitment to no bid this
 * machine chose), kept in the seat's journal while only its commitment reaches the ledger, and
 * revealed later from the journal. On a real relay through a guarded seat, and on a market ledger
 * whose clock the test moves past the bids' until.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { openTable } from "../../../src/client/node.js";
import { checkMandateLimits } from "../../../src/owner/mandate-limits.js";
import { checkMarketScope, citedListings } from "../../../src/owner/market-scope.js";
import {
  commitMarketBid,
  committedMarketBid,
  gatedWhenLoosened,
  GuardedSeat,
  isCommitment,
  marketBidMessage,
  marketRevealMessage,
  recordMarketBid,
  seatJournal,
  type Mandate,
} from "../../../src/owner/index.js";
import { TrestleError, type Submission } from "../../../src/protocol/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { marketCast, marketConfig, MarketLedger } from "../../support/market-fixture.js";
import { mandate, refusedAt, tempHome, type Side } from "../../support/room-client.js";
import { uniqueTable } from "../../support/client-table.js";
import { keyOf } from "../../support/table-fixture.js";

let shared: LocalRelay;
beforeAll(async () => {
  shared = await sharedRelay();
}, 60_000);

const HOUR = 3_600_000;
const TWD = (min: number) => ({ currency: "TWD" as const, min });

/** A mandate as its file holds it, money in TWD. */
function mandateOf(money: Mandate["money"], never: string[] = []): Mandate {
  return {
    version: 1,
    table: "m-parents-swap",
    seat: "ben-bot",
    owner: "ben",
    money,
    never_disclose: never,
    require_confirm: [],
    paused: false,
    loosened: false,
    signed_at: 0,
  };
}

/** Runs the mandate's limits on `s` at `state`, returning the refusal's reason, or null when `s` keeps them. */
function judged(
  m: Mandate,
  s: Submission,
  journal: ReturnType<typeof seatJournal>,
  state: MarketLedger["state"],
): string | null {
  try {
    checkMandateLimits(
      m,
      s,
      { seat: "ben-bot", table: state.table, journal, state, recent: [] },
      (_guard, code, reason, message) => {
        throw new TrestleError(code, message, { reason });
      },
    );
    return null;
  } catch (error) {
    if (error instanceof TrestleError) return String(error.details?.reason);
    throw error;
  }
}

describe("a market bid and the mandate's markets and categories", () => {
  it("trades in its listing's category, and a sale's room in the one listing its match cites", async () => {
    const m = await MarketLedger.open();
    const until = m.l.now + HOUR;
    const [listed] = await m.list("ana", {
      side: "offer",
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(0),
      sealed: { until, reveal_until: until + HOUR },
    });
    const commit: Submission = {
      table: m.state.table,
      seat: "ben-bot",
      nonce: "n-market-bid-000000004",
      kind: "bid",
      body: "",
      op: "commit",
      listing: listed!.leaf,
      commitment: "c".repeat(64),
    };
    const scoped = (categories: string[]) =>
      checkMarketScope(
        { ...mandateOf({ currency: "TWD", cap: 300000 }), categories },
        commit,
        { seat: "ben-bot", table: m.state.table, state: m.state, categories: async () => [] },
        (_guard, code, reason, message) => {
          throw new TrestleError(code, message, { reason });
        },
      );
    await scoped(["baby-gear"]);
    await expect(scoped(["books"])).rejects.toMatchObject({ code: "E_MANDATE", details: { reason: "category" } });
    await m.commitBid("ben", listed!.leaf, 300000);
    m.l.now = until;
    const [sale] = MarketLedger.matches(await m.revealBid("ben", listed!.leaf, 300000));
    expect(citedListings(await m.cite(sale!.seq))).toEqual([[listed!.seq, listed!.leaf]]);
  });
});

describe("a market bid on the owner's machine", () => {
  it("keeps the bid and its salt in the journal, commits only the hash, and reveals them after until", async () => {
    const m = await MarketLedger.open();
    const until = m.l.now + HOUR;
    const [listed] = await m.list("ana", {
      side: "offer",
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(100000),
      sealed: { until, reveal_until: until + HOUR },
    });
    const journal = seatJournal(tempHome("ben"), m.state.table, "ben-bot", () => m.l.now);
    const record = recordMarketBid(journal, m.state, listed!.leaf, "ben-bot", 250000, []);
    expect(journal.ofType("market_bid")).toEqual([record]);
    expect(record).toMatchObject({ listing: listed!.leaf, bidder: "ben", bid: 250000, currency: "TWD" });
    const [commit] = await m.write("ben-bot", {
      kind: "bid",
      op: "commit",
      listing: listed!.leaf,
      commitment: record.commitment,
    });
    expect(JSON.stringify(commit)).not.toContain(record.salt);
    m.l.now = until;
    const back = committedMarketBid(journal, m.state, listed!.leaf, "ben-bot");
    const batch = await m.write("ben-bot", {
      kind: "bid",
      op: "reveal",
      listing: listed!.leaf,
      bid: back.bid,
      salt: back.salt,
    });
    expect(batch[1]).toMatchObject({
      subkind: "listing_settled",
      data: { outcome: "sold", winner: { owner: "ben" }, price: 100000 },
    });
  });

  it("is a commitment the mandate judges by the journal's bid: within the cap, and gated when the mandate is loosened", async () => {
    const m = await MarketLedger.open();
    const [listed] = await m.list("ana", {
      side: "offer",
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(0),
      sealed: { until: m.l.now + HOUR, reveal_until: m.l.now + 2 * HOUR },
    });
    const journal = seatJournal(tempHome("ben"), m.state.table, "ben-bot", () => m.l.now);
    const record = recordMarketBid(journal, m.state, listed!.leaf, "ben-bot", 250000, []);
    const commit: Submission = {
      table: m.state.table,
      seat: "ben-bot",
      nonce: "n-market-bid-000000001",
      kind: "bid",
      body: "",
      op: "commit",
      listing: listed!.leaf,
      commitment: record.commitment,
    };
    expect(isCommitment(commit)).toBe(true);
    expect(gatedWhenLoosened(commit)).toBe(true);
    expect(judged(mandateOf({ currency: "TWD", cap: 300000 }), commit, journal, m.state)).toBeNull();
    const reveal: Submission = {
      table: m.state.table,
      seat: "ben-bot",
      nonce: "n-market-bid-000000002",
      kind: "bid",
      body: "",
      op: "reveal",
      listing: listed!.leaf,
      bid: 250000,
      salt: record.salt,
    };
    expect(judged(mandateOf({ currency: "TWD", cap: 300000 }), reveal, journal, m.state)).toBeNull();
  });

  describe("when the mandate or the listing does not allow it", () => {
    it("refuses a bid above the cap, below the floor, in another currency, without money, and a commitment to no bid this machine chose", async () => {
      const m = await MarketLedger.open();
      const [listed] = await m.list("ana", {
        side: "offer",
        title: "Stroller",
        category: "baby-gear",
        quantity: 1,
        price: TWD(0),
        sealed: { until: m.l.now + HOUR, reveal_until: m.l.now + 2 * HOUR },
      });
      const journal = seatJournal(tempHome("ben"), m.state.table, "ben-bot", () => m.l.now);
      const record = recordMarketBid(journal, m.state, listed!.leaf, "ben-bot", 250000, []);
      const commit = (commitment: string): Submission => ({
        table: m.state.table,
        seat: "ben-bot",
        nonce: "n-market-bid-000000003",
        kind: "bid",
        body: "",
        op: "commit",
        listing: listed!.leaf,
        commitment,
      });
      expect(judged(mandateOf({ currency: "TWD", cap: 249999 }), commit(record.commitment), journal, m.state)).toBe(
        "cap",
      );
      expect(
        judged(mandateOf({ currency: "TWD", cap: 500000, floor: 260000 }), commit(record.commitment), journal, m.state),
      ).toBe("floor");
      expect(judged(mandateOf({ currency: "USD", cap: 500000 }), commit(record.commitment), journal, m.state)).toBe(
        "currency",
      );
      expect(judged(mandateOf(undefined), commit(record.commitment), journal, m.state)).toBe("cap");
      expect(judged(mandateOf({ currency: "TWD", cap: 500000 }), commit("c".repeat(64)), journal, m.state)).toBe(
        "unknown_bid",
      );
    });

    it("refuses to record a bid by the seller's own seat (E_FORBIDDEN) or on a listing without sealed bids (E_NOT_ALLOWED)", async () => {
      const m = await MarketLedger.open();
      const [sealed] = await m.list("ana", {
        side: "offer",
        title: "Stroller",
        category: "baby-gear",
        quantity: 1,
        price: TWD(0),
        sealed: { until: m.l.now + HOUR, reveal_until: m.l.now + 2 * HOUR },
      });
      const [plain] = await m.list("ana", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
      const journal = seatJournal(tempHome("ana"), m.state.table, "ana-bot", () => m.l.now);
      expect(() => recordMarketBid(journal, m.state, sealed!.leaf, "ana-bot", 1, [])).toThrow(
        expect.objectContaining({ code: "E_FORBIDDEN" }),
      );
      expect(() => recordMarketBid(journal, m.state, plain!.leaf, "ben-bot", 1, [])).toThrow(
        expect.objectContaining({ code: "E_NOT_ALLOWED" }),
      );
      expect(journal.ofType("market_bid")).toEqual([]);
    });
  });
});

/** A market on the shared relay whose config lists ana (who sells) and ben (who bids) as owners; each seats a guarded seat from its own home. */
async function marketOnRelay(): Promise<{ ana: Side; ben: Side }> {
  const k = await marketCast(uniqueTable("market-bids-owner"));
  const id = uniqueTable("m-bids");
  const owners = {
    hana: { public_key: k.owners.hana.publicKeyText },
    ana: { public_key: k.owners.ana.publicKeyText },
    ben: { public_key: k.owners.ben.publicKeyText },
  };
  const hana = await openTable({ relay: shared.url, table: id, home: tempHome("hana") });
  await hana.create(k.owners.hana, "hana", marketConfig(k, { id, owners }));
  const side = async (owner: "ana" | "ben"): Promise<Side> => {
    const home = tempHome(owner);
    const client = await openTable({ relay: shared.url, table: id, home });
    const signer = await keyOf(`seat:${id}:${owner}-bot`);
    await client.join(k.owners[owner], {
      seat: `${owner}-bot`,
      owner,
      seatKey: signer.publicKeyText,
      card: { summary: `${owner}'s trading agent` },
      expires: Date.now() + 60_000,
    });
    return {
      home,
      owner,
      ownerKey: k.owners[owner],
      seat: `${owner}-bot`,
      client,
      guard: new GuardedSeat({ client, seat: `${owner}-bot`, signer, home }),
    };
  };
  return { ana: await side("ana"), ben: await side("ben") };
}

describe("a market bid through a guarded seat on a real relay", () => {
  it("sends only the commitment, refuses a bid above the cap before anything is sent, and reads the reveal back from the journal", async () => {
    const { ana, ben } = await marketOnRelay();
    await mandate(ana);
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const until = Date.now() + HOUR;
    const sent = await ana.guard.send({
      kind: "listing",
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(100000),
      expires: until + 2 * HOUR,
      sealed: { until, reveal_until: until + HOUR },
    });
    const listing = (await ben.guard.transcript()).entries.find((e) => e.seq === sent.seq)!.leaf;

    const high = await refusedAt(ben, async () => ben.guard.send(await marketBidMessage(ben.guard, listing, 300001)));
    expect(high).toMatchObject({ code: "E_MANDATE", details: expect.objectContaining({ reason: "cap" }) });
    await ben.guard.send(await marketBidMessage(ben.guard, listing, 280000));
    const records = ben.guard.journal.ofType("market_bid");
    const { entries, state } = await ben.guard.transcript();
    expect(JSON.stringify(entries)).not.toContain(records.at(-1)!.salt);
    expect(state!.market!.listings[listing]!.sealed!.commits.ben!.commitment).toBe(records.at(-1)!.commitment);

    expect(await marketRevealMessage(ben.guard, listing, until)).toEqual({
      kind: "bid",
      op: "reveal",
      listing,
      bid: 280000,
      salt: records.at(-1)!.salt,
    });
    const early = await refusedAt(ben, async () =>
      ben.guard.send(await marketRevealMessage(ben.guard, listing, Date.now())),
    );
    expect(early).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "sealed", until } });
    const late = await refusedAt(ben, async () =>
      ben.guard.send(await marketRevealMessage(ben.guard, listing, until + HOUR)),
    );
    expect(late).toMatchObject({ code: "E_EXPIRED", details: { reason: "closed", reveal_until: until + HOUR } });
  });
});

describe("a market bid's journal record (commitMarketBid)", () => {
  it("is blanked when the guards or the relay refuse the bid, kept when its answer was lost, and the kept one reveals", async () => {
    const { ana, ben } = await marketOnRelay();
    await mandate(ana);
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const until = Date.now() + 4_000;
    const sent = await ana.guard.send({
      kind: "listing",
      side: "offer",
      title: "Cot",
      category: "baby-gear",
      quantity: 1,
      price: TWD(1000),
      expires: until + HOUR,
      sealed: { until, reveal_until: until + HOUR },
    });
    const listing = (await ben.guard.transcript()).entries.find((e) => e.seq === sent.seq)!.leaf;
    const send = (m: Parameters<typeof ben.guard.send>[0]) => ben.guard.send(m);

    const high = await refusedAt(ben, () => commitMarketBid(ben.guard, listing, 300001, send));
    expect(high).toMatchObject({ code: "E_MANDATE", details: expect.objectContaining({ reason: "cap" }) });
    expect(ben.guard.journal.ofType("market_bid")).toEqual([]);
    expect(ben.guard.journal.read().skipped).toBe(0);

    // Sent, but the answer never came: the record stays, so the bid can be revealed.
    const lost = commitMarketBid(ben.guard, listing, 5000, async (m) => {
      await ben.guard.send(m);
      throw new TrestleError("E_NETWORK", "the connection closed before any answer");
    });
    await expect(lost).rejects.toMatchObject({ code: "E_NETWORK" });
    const [kept] = ben.guard.journal.ofType("market_bid");
    expect(kept).toMatchObject({ listing, bid: 5000 });

    // The relay refuses a second bid by the same owner: no second record.
    const twice = await refusedAt(ben, () => commitMarketBid(ben.guard, listing, 6000, send));
    expect(twice).toMatchObject({ code: "E_NOT_ALLOWED", details: expect.objectContaining({ reason: "committed" }) });
    expect(ben.guard.journal.ofType("market_bid")).toEqual([kept]);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() + 50)));
    await ben.guard.send(await marketRevealMessage(ben.guard, listing, Date.now()));
    const sealed = (await ben.guard.transcript()).state!.market!.listings[listing]!.sealed!;
    expect(sealed).toMatchObject({ winner: "ben", settled: expect.any(Number) });
  });
});

describe("a new version of a sealed listing", () => {
  it("keeps its sealed terms; changing them once a bid was committed is refused (E_NOT_ALLOWED, sealed_terms), the ledger unchanged", async () => {
    const m = await MarketLedger.open();
    const until = m.l.now + HOUR;
    const terms = { until, reveal_until: until + HOUR };
    const offer = {
      side: "offer" as const,
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(1000),
      sealed: terms,
    };
    const [first] = await m.list("ana", offer);
    const [second] = await m.list("ana", {
      ...offer,
      title: "Stroller, red",
      supersedes: first!.leaf,
      sealed: { until: until + 1, reveal_until: until + HOUR },
    });
    expect(m.state.market!.listings[second!.leaf]!.sealed).toMatchObject({ until: until + 1 });
    await m.commitBid("ben", second!.leaf, 5000);
    const before = m.l.entries.length;
    const { sealed: _dropped, ...unsealed } = offer;
    for (const changed of [
      { ...offer, sealed: terms },
      { ...offer, price: TWD(2000), sealed: { until: until + 1, reveal_until: until + HOUR } },
      unsealed,
    ]) {
      await expect(m.list("ana", { ...changed, supersedes: second!.leaf })).rejects.toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "sealed_terms", bids: 1 },
      });
    }
    expect(m.l.entries.length).toBe(before);
    const [third] = await m.list("ana", {
      ...offer,
      title: "Stroller, red, with rain cover",
      supersedes: second!.leaf,
      sealed: { until: until + 1, reveal_until: until + HOUR },
    });
    expect(m.state.market!.listings[third!.leaf]!.sealed).toMatchObject({
      until: until + 1,
      reveal_until: until + HOUR,
      reserve: 1000,
      commits: {},
    });
  });
});
