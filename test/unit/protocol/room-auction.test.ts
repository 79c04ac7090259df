/** Sealed-bid k-double auctions (docs/SPEC.md §5.11): each rule of open, commit, reveal and settle, each refusal, and what a verifier re-checks. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  bidCommitment,
  clearingPrice,
  dueSettlements,
  fold,
  settledDraft,
  verifyExport,
  type Entry,
  type UnchainedEntry,
} from "../../../src/protocol/index.js";
import { COMMIT_MS, commit, HALF, openAuction, reveal, REVEAL_MS, saltOf } from "../../support/auction-fixture.js";
import { RoomLedger } from "../../support/room-fixture.js";
import { cast, MemoryLedger } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, kindOf, openConfig, rechain, refusal } from "./fixtures.js";
import { refused } from "../../support/refused.js";

let r: RoomLedger;
beforeEach(async () => {
  r = await RoomLedger.open();
});

const settlement = (entries: readonly Entry[]) =>
  entries.find((e) => e.kind === "system" && e.subkind === "auction_settled");

describe("the clearing price", () => {
  it("is s + k(b - s) when the bids cross, rounded down, and none otherwise", () => {
    expect(clearingPrice(300000, 240000, HALF)).toBe(270000);
    expect(clearingPrice(100, 0, { num: 1, den: 3 })).toBe(33);
    expect(clearingPrice(100, 0, { num: 2, den: 3 })).toBe(66);
    expect(clearingPrice(5000, 5000, HALF)).toBe(5000);
    expect(clearingPrice(300000, 240000, { num: 0, den: 1 })).toBe(240000);
    expect(clearingPrice(300000, 240000, { num: 7, den: 7 })).toBe(300000);
    expect(clearingPrice(239999, 240000, HALF)).toBeNull();
  });

  it("stays exact at the largest safe integers, where floating point would round", () => {
    const b = 9007199254740981;
    const k = { num: 999_999, den: 1_000_000 };
    const exact = Number((BigInt(k.num) * BigInt(b)) / BigInt(k.den));
    expect(clearingPrice(b, 0, k)).toBe(exact);
    expect(exact).not.toBe(Math.floor((k.num * b) / k.den));
  });
});

describe("an auction that ends in a deal", () => {
  it("settles at the clearing price once both sides revealed, and the room closes with it", async () => {
    const auction = await openAuction(r);
    expect(r.state.room!.auctions[auction]).toMatchObject({
      sides: { buyer: "ben-bot", seller: "sara-bot" },
      k: HALF,
      currency: "TWD",
      settled: null,
    });
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    const first = await reveal(r, "ben-bot", auction, 300000);
    expect(first.map(kindOf)).toEqual(["mechanism"]);
    const last = await reveal(r, "sara-bot", auction, 240000);
    expect(last.map(kindOf)).toEqual(["mechanism", "auction_settled"]);
    expect(last[1]).toMatchObject({
      seat: null,
      author: null,
      data: { auction, outcome: "deal", price: 270000, currency: "TWD" },
    });
    expect(r.state.room!.auctions[auction]).toMatchObject({
      bids: { buyer: 300000, seller: 240000 },
      settled: last[1]!.seq,
      price: 270000,
    });
    const closed = await r.write("ben-bot", { kind: "close", outcome: "deal", auction });
    expect(closed.map(kindOf)).toEqual(["close", "table_closed"]);
    expect(r.state.room!.outcome).toEqual({ seq: closed[0]!.seq, outcome: "deal", offer: null, auction });
  });

  it("records every commit before every reveal on the chain", async () => {
    const auction = await openAuction(r);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await reveal(r, "sara-bot", auction, 240000);
    await reveal(r, "ben-bot", auction, 300000);
    const ops = r.l.entries.flatMap((e) => (e.kind === "mechanism" && e.op !== "open" ? [e.op] : []));
    expect(ops).toEqual(["commit", "commit", "reveal", "reveal"]);
  });

  it("folds to the same state from the ledger alone (a relay that woke mid-auction)", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    expect(fold(r.l.entries)).toEqual(r.state);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await reveal(r, "ben-bot", auction, 300000);
    await reveal(r, "sara-bot", auction, 240000);
    expect(fold(r.l.entries)).toEqual(r.state);
  });
});

describe("an auction without a deal", () => {
  it("settles with no deal when the bid is below the ask", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 200000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await reveal(r, "ben-bot", auction, 200000);
    const last = await reveal(r, "sara-bot", auction, 240000);
    expect(settlement(last)).toMatchObject({ data: { auction, outcome: "no_deal", reason: "bids_do_not_cross" } });
    expect(r.state.room!.auctions[auction]!.price).toBeNull();
    await refused("E_NOT_ALLOWED", () => r.write("ben-bot", { kind: "close", outcome: "deal", auction }), {
      unmoved: r,
    });
  });

  it("settles with no deal for a missing commit once the only committed side reveals after the deadline", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    r.l.now += COMMIT_MS;
    const revealed = await reveal(r, "ben-bot", auction, 300000);
    expect(settlement(revealed)).toMatchObject({ data: { outcome: "no_deal", reason: "missing_commit" } });
  });

  it("is settled by the relay at the reveal deadline when a side that committed never reveals", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await reveal(r, "ben-bot", auction, 300000);
    expect(dueSettlements(r.state, r.l.now)).toEqual([]);
    const early = settledDraft(r.state, { auction, outcome: "no_deal", reason: "missing_reveal" });
    await refused("E_NOT_ALLOWED", async () => r.l.append(early), { unmoved: r });
    r.l.now = r.state.room!.auctions[auction]!.reveal_deadline;
    const [due] = dueSettlements(r.state, r.l.now);
    expect(due).toEqual(early);
    expect(r.l.append(due!).map(kindOf)).toEqual(["auction_settled"]);
    await refused("E_NOT_ALLOWED", async () => r.l.append(due!), { unmoved: r });
  });

  it("is settled by the relay at the commit deadline when nobody committed", async () => {
    const auction = await openAuction(r);
    r.l.now += COMMIT_MS;
    expect(dueSettlements(r.state, r.l.now)).toEqual([
      settledDraft(r.state, { auction, outcome: "no_deal", reason: "missing_commit" }),
    ]);
  });

  it("refuses a settlement the relay makes up (another price than the bids give)", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await reveal(r, "ben-bot", auction, 300000);
    r.l.now += COMMIT_MS + REVEAL_MS;
    await refused(
      "E_NOT_ALLOWED",
      async () => r.l.append(settledDraft(r.state, { auction, outcome: "deal", price: 300000, currency: "TWD" })),
      { unmoved: r },
    );
  });
});

describe("when a commit is not allowed", () => {
  it("refuses a late commit, after the commit deadline", async () => {
    const auction = await openAuction(r);
    r.l.now += COMMIT_MS;
    await refused("E_EXPIRED", () => commit(r, "sara-bot", auction, "seller", 240000), {
      unmoved: r,
      details: { deadline: r.state.room!.auctions[auction]!.deadline },
    });
  });

  it("refuses a commit by a seat that is not that side, and a second commit by the side", async () => {
    const auction = await openAuction(r);
    await refused("E_FORBIDDEN", () => commit(r, "sara-bot", auction, "buyer", 1), { unmoved: r });
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await refused("E_NOT_ALLOWED", () => commit(r, "ben-bot", auction, "buyer", 310000), { unmoved: r });
  });

  it("refuses a commitment copied from the other side: a commitment binds its own side", async () => {
    const auction = await openAuction(r);
    const [buyer] = await commit(r, "ben-bot", auction, "buyer", 300000);
    if (buyer?.kind !== "mechanism" || buyer.op !== "commit") throw new Error("no commit");
    await refused(
      "E_NOT_ALLOWED",
      () =>
        r.write("sara-bot", { kind: "mechanism", op: "commit", auction, side: "seller", commitment: buyer.commitment }),
      { unmoved: r },
    );
  });

  it("refuses a commit to an auction that does not exist or has settled", async () => {
    await refused("E_UNKNOWN_AUCTION", () => commit(r, "ben-bot", "a".repeat(64), "buyer", 1), { unmoved: r });
    const auction = await openAuction(r);
    r.l.now += COMMIT_MS;
    r.l.append(dueSettlements(r.state, r.l.now)[0]!);
    r.l.now -= COMMIT_MS;
    await refused("E_NOT_LIVE", () => commit(r, "ben-bot", auction, "buyer", 1), { unmoved: r });
  });
});

describe("when a reveal is not allowed", () => {
  it("refuses a reveal before every side committed while commits are open", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await refused("E_NOT_ALLOWED", () => reveal(r, "ben-bot", auction, 300000), {
      unmoved: r,
      details: { waiting_for: ["seller"] },
    });
  });

  it("refuses a reveal by a side that never committed", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    r.l.now += COMMIT_MS;
    await refused("E_NOT_ALLOWED", () => reveal(r, "sara-bot", auction, 240000), { unmoved: r });
  });

  it("refuses a bid or salt other than the committed one, and the other side's bid as one's own", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await refused("E_REVEAL_MISMATCH", () => reveal(r, "ben-bot", auction, 290000), { unmoved: r });
    await refused("E_REVEAL_MISMATCH", () => reveal(r, "ben-bot", auction, 300000, saltOf("sara-bot")), { unmoved: r });
    await refused("E_REVEAL_MISMATCH", () => reveal(r, "sara-bot", auction, 300000, saltOf("ben-bot")), { unmoved: r });
  });

  it("refuses a reveal after the reveal deadline", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    r.l.now += COMMIT_MS + REVEAL_MS;
    await refused("E_EXPIRED", () => reveal(r, "ben-bot", auction, 300000), { unmoved: r });
  });

  it("binds a commitment to its room, auction and side", () => {
    const base = {
      table: "r-stroller",
      auction: "a".repeat(64),
      side: "buyer" as const,
      bid: 300000,
      salt: saltOf("ben-bot"),
    };
    const hash = bidCommitment(base);
    expect(bidCommitment({ ...base, table: "r-other" })).not.toBe(hash);
    expect(bidCommitment({ ...base, auction: "b".repeat(64) })).not.toBe(hash);
    expect(bidCommitment({ ...base, side: "seller" })).not.toBe(hash);
    expect(bidCommitment({ ...base, bid: 300001 })).not.toBe(hash);
  });
});

describe("when an auction cannot open", () => {
  it("never has the same key on both sides: a second seat with a key already seated cannot join to bid", async () => {
    await r.invite();
    const seatKey = await r.seatKey("ben-bot");
    const error = await refusal(() => r.joinByInvite("cleo", "cleo-bot", r.lastInvite, { seatKey }));
    expect(error).toMatchObject({
      code: "E_FORBIDDEN",
      message: expect.stringMatching(/seat key already holds seat "ben-bot"/),
    });
  });

  it("refuses one seat or one owner (one owner key) on both sides", async () => {
    await r.l.join(r.k.sara, "sara", "sara-two", await r.seatKey("sara-two"));
    await refused("E_FORBIDDEN", () => openAuction(r, { buyer: "sara-bot", seller: "sara-bot" }), { unmoved: r });
    await refused("E_FORBIDDEN", () => openAuction(r, { buyer: "sara-two", seller: "sara-bot" }), { unmoved: r });
  });

  it("refuses a side that is not seated, deadlines out of order or too far, k above 1, and auctions outside a room", async () => {
    await refused("E_UNKNOWN_SEAT", () => openAuction(r, { buyer: "nobody" }), { unmoved: r });
    const open = {
      kind: "mechanism" as const,
      op: "open" as const,
      sides: { buyer: "ben-bot", seller: "sara-bot" },
      k: HALF,
      currency: "TWD" as const,
    };
    await refused(
      "E_EXPIRED",
      () => r.write("sara-bot", { ...open, deadline: r.l.now - 1, reveal_deadline: r.l.now + 1000 }),
      { unmoved: r },
    );
    await refused(
      "E_SCHEMA",
      () => r.write("sara-bot", { ...open, deadline: r.l.now + 1000, reveal_deadline: r.l.now + 1000 }),
      { unmoved: r },
    );
    await refused(
      "E_EXPIRED",
      () => r.write("sara-bot", { ...open, deadline: r.l.now + 1000, reveal_deadline: r.l.now + 8 * 86_400_000 }),
      { unmoved: r },
    );
    await refused(
      "E_SCHEMA",
      () =>
        r.write("sara-bot", {
          ...open,
          k: { num: 3, den: 2 },
          deadline: r.l.now + 1000,
          reveal_deadline: r.l.now + 2000,
        }),
      { unmoved: r },
    );
  });

  it("refuses an auction outside a room", async () => {
    const k = await cast();
    const l = new MemoryLedger(k.relay);
    await l.create(k.ops, "ops", openConfig(k));
    await l.join(k.tao, "tao", "x", k.botTao);
    const open = {
      seat: "x",
      kind: "mechanism",
      op: "open",
      sides: { buyer: "x", seller: "y" },
      k: HALF,
      currency: "TWD",
      deadline: l.now + 1000,
      reveal_deadline: l.now + 2000,
    };
    const error = await refusal(() => l.submit(k.botTao, open as Parameters<typeof l.submit>[1]));
    expect(error.code).toBe("E_NOT_ALLOWED");
  });
});

describe("verifying an auction", () => {
  async function settled(): Promise<string> {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    await commit(r, "sara-bot", auction, "seller", 240000);
    await reveal(r, "ben-bot", auction, 300000);
    await reveal(r, "sara-bot", auction, 240000);
    return auction;
  }
  const pinned = () => ({ relayKey: r.k.relay.publicKeyText });
  const forged = async (entries: readonly (Entry | UnchainedEntry)[]) => {
    const chained = rechain(entries);
    return exportOf(r.k.relay, chained, [await headOver(r.k.relay, chained)], r.state.table);
  };

  it("is CLEAN, the settlement re-computed by the replay", async () => {
    await settled();
    const report = await verifyExport(await r.exportText(), pinned());
    expect(report.verdict).toBe("CLEAN");
  });

  it("refutes a settlement at another price than the revealed bids give", async () => {
    await settled();
    const entries = copy(r.l.entries);
    const settle = settlement(entries)!;
    if (settle.kind !== "system" || settle.subkind !== "auction_settled" || settle.data.outcome !== "deal")
      throw new Error("no deal");
    settle.data.price = 290000;
    const report = await verifyExport(await forged(entries), pinned());
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({
      seq: settle.seq,
      reason: expect.stringMatching(/policy replay expected system auction_settled .*270000/),
    });
  });

  it("refutes a settlement the relay recorded before the auction was due", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    const early = {
      ...settledDraft(r.state, { auction, outcome: "no_deal", reason: "missing_commit" }),
      seq: r.l.entries.length + 1,
      ts: r.l.now,
    } as UnchainedEntry;
    const report = await verifyExport(await forged([...r.l.entries, early]), pinned());
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted!.reason).toMatch(/E_NOT_ALLOWED/);
  });

  it("refutes a reveal recorded before the other side committed", async () => {
    const auction = await openAuction(r);
    await commit(r, "ben-bot", auction, "buyer", 300000);
    const early = copy(r.l.entries);
    await commit(r, "sara-bot", auction, "seller", 240000);
    const [revealed] = await reveal(r, "ben-bot", auction, 300000);
    const moved = { ...(revealed as Entry), seq: early.length + 1 } as Entry;
    const report = await verifyExport(await forged([...early, moved]), pinned());
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted!.reason).toMatch(/E_NOT_ALLOWED/);
  });
});
