/**
 * Sealed bids from the owner's side on a real relay (docs/SPEC.md §5.11, docs/ROOMS.md): the bid
 * is judged by the owner's mandate before anything is sent, kept with its salt in the seat's
 * journal, and only its commitment reaches the ledger until the reveal reads both back; the relay
 * settles the auction when the last side reveals.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { leafAt, mandate, refusedAt, type Side, strollerRoom } from "../../support/room-client.js";

let shared: LocalRelay;
beforeAll(async () => {
  shared = await sharedRelay();
}, 60_000);
const relay = () => shared;

/** Opens an auction (ben buys, sara sells, k = 1/2, ten minutes to commit and ten to reveal) as sara; returns its leaf. */
async function openAuction(sara: Side): Promise<string> {
  const deadline = Date.now() + 600_000;
  const sent = await sara.guard.send({
    kind: "mechanism",
    op: "open",
    sides: { buyer: "ben-bot", seller: "sara-bot" },
    k: { num: 1, den: 2 },
    currency: "TWD",
    deadline,
    reveal_deadline: deadline + 600_000,
  });
  return leafAt(sara, sent.seq);
}

/** Commits `bid` as `side` through its guards. */
async function bid(side: Side, auction: string, amount: number) {
  return side.guard.send(await side.guard.bidMessage(auction, amount));
}

describe("a sealed-bid auction between two owners' machines", () => {
  it("ends in a deal: bids stay in the journals until revealed, the relay settles at the clearing price", async () => {
    const { sara, ben } = await strollerRoom(relay().url);
    await mandate(sara, { money: { currency: "TWD", cap: 500000, floor: 240000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const auction = await openAuction(sara);
    await bid(ben, auction, 300000);
    await bid(sara, auction, 240000);
    const committed = JSON.stringify((await ben.guard.transcript()).entries);
    for (const secret of [ben.guard.journal.ofType("bid")[0]!.salt, sara.guard.journal.ofType("bid")[0]!.salt])
      expect(committed).not.toContain(secret);

    await ben.guard.send(await ben.guard.revealMessage(auction));
    const last = await sara.guard.send(await sara.guard.revealMessage(auction));
    const { entries, state, report } = await sara.guard.transcript();
    expect(report.verdict).toBe("CLEAN");
    expect(entries.find((e) => e.seq === last.seq + 1)).toMatchObject({
      kind: "system",
      subkind: "auction_settled",
      data: { auction, outcome: "deal", price: 270000, currency: "TWD" },
    });
    expect(state!.room!.auctions[auction]).toMatchObject({ price: 270000, bids: { buyer: 300000, seller: 240000 } });
    await sara.guard.send({ kind: "close", outcome: "deal", auction });
    expect((await ben.guard.transcript()).state!.room!.outcome).toMatchObject({ outcome: "deal", auction });
  });

  it("ends without a deal when the bid is below the ask", async () => {
    const { sara, ben } = await strollerRoom(relay().url);
    await mandate(sara, { money: { currency: "TWD", cap: 500000 } });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const auction = await openAuction(sara);
    await bid(ben, auction, 200000);
    await bid(sara, auction, 240000);
    await ben.guard.send(await ben.guard.revealMessage(auction));
    await sara.guard.send(await sara.guard.revealMessage(auction));
    expect((await ben.guard.transcript()).state!.room!.auctions[auction]).toMatchObject({ price: null });
  });

  describe("when the owner's mandate does not allow the bid", () => {
    it("refuses a bid above the cap, and one below the floor, before anything is sent, and keeps no record of either", async () => {
      const { sara, ben } = await strollerRoom(relay().url);
      await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
      await mandate(sara, { money: { currency: "TWD", cap: 500000, floor: 250000 } });
      const auction = await openAuction(sara);
      const high = await refusedAt(ben, async () => bid(ben, auction, 300001));
      expect(high).toMatchObject({ code: "E_MANDATE", details: expect.objectContaining({ reason: "cap" }) });
      const low = await refusedAt(sara, async () => bid(sara, auction, 240000));
      expect(low).toMatchObject({ code: "E_MANDATE", details: expect.objectContaining({ reason: "floor" }) });
      expect(ben.guard.journal.ofType("refusal").at(-1)).toMatchObject({
        guard: "mandate",
        reason: "cap",
        kind: "mechanism",
      });
      // A refused bid leaves no sealed bid in the journal: nothing to reveal, nothing counted against the owner.
      expect(ben.guard.journal.ofType("bid")).toEqual([]);
      expect(sara.guard.journal.ofType("bid")).toEqual([]);
      await bid(ben, auction, 300000);
      expect(ben.guard.journal.ofType("bid").map((b) => b.bid)).toEqual([300000]);
    });

    it("commits nothing without a mandate (cap 0)", async () => {
      const { sara, ben } = await strollerRoom(relay().url);
      await mandate(sara);
      const auction = await openAuction(sara);
      const error = await refusedAt(ben, async () => bid(ben, auction, 1));
      expect(error.details).toMatchObject({ reason: "no_mandate" });
    });

    it("refuses a commitment to a bid this machine never chose", async () => {
      const { sara, ben } = await strollerRoom(relay().url);
      await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
      await mandate(sara);
      const auction = await openAuction(sara);
      const error = await refusedAt(ben, () =>
        ben.guard.send({ kind: "mechanism", op: "commit", auction, side: "buyer", commitment: "c".repeat(64) }),
      );
      expect(error.details).toMatchObject({ reason: "unknown_bid" });
    });
  });

  describe("when a reveal comes too early", () => {
    it("is refused by the relay until the other side committed", async () => {
      const { sara, ben } = await strollerRoom(relay().url);
      await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
      await mandate(sara);
      const auction = await openAuction(sara);
      await bid(ben, auction, 300000);
      const error = await refusedAt(ben, async () => ben.guard.send(await ben.guard.revealMessage(auction)));
      expect(error.code).toBe("E_NOT_ALLOWED");
      expect(error.details).toMatchObject({ waiting_for: ["seller"] });
    });
  });
});
