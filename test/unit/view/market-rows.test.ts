/**
 * An owner's part of a market for the principal window (src/view/market-rows.ts), from the swap
 * market's ledger and match rooms driven through the real admit and fold: only the owner's listings;
 * each match from the owner's side with where its room stands (not opened, open, deal pending, deal
 * done, no deal, not known) and what the page's button does (open it, enter it, or nothing once the
 * owner is in it); and the allowance in figures and words, with or without a mandate's limits.
 */
import { describe, expect, it } from "vitest";
import type { AllowanceCommitment } from "../../../src/owner/index.js";
import { joinDraft, signJoin, type Entry } from "../../../src/protocol/index.js";
import { marketBoard, type BoardMatch } from "../../../src/text/market-board.js";
import { allowanceView, matchRow, ownListings } from "../../../src/view/market-rows.js";
import type { DealView } from "../../../src/view/wire.js";
import { MarketLedger } from "../../support/market-fixture.js";
import type { MemoryLedger } from "../../support/table-fixture.js";

/** The swap market with ben's stroller matched to ana's want (and a listing of chen's); `match` is the match on the board. */
async function matched(): Promise<{ m: MarketLedger; match: BoardMatch }> {
  const m = await MarketLedger.open();
  await m.list("chen", { side: "offer", title: "High chair", category: "baby-gear", quantity: 1 });
  await m.list("ana", { side: "want", title: "Stroller wanted", category: "baby-gear", quantity: 1 });
  await m.list("ben", { side: "offer", title: "Stroller", category: "baby-gear", quantity: 1 });
  const board = marketBoard(m.state, m.state.market!, m.l.entries as Entry[], m.l.now);
  return { m, match: board.matches[0]! };
}

/** `owner` joins `room` with its own key and no invite (the match's other side). */
async function joinAsOtherSide(m: MarketLedger, room: MemoryLedger, owner: "ana" | "ben"): Promise<void> {
  const key = m.k.owners[owner];
  const seat = `${owner}-bot`;
  const request = await signJoin(
    key,
    {
      table: room.state!.table,
      seat,
      owner,
      seat_key: (await m.seatKey(seat)).publicKeyText,
      human: false,
      nonce: `join-${owner}-room-000000`,
      expires: room.now + 60_000,
      owner_key: key.publicKeyText,
    },
    { summary: `${owner} in the match's room` },
  );
  room.append(joinDraft(room.state!, request));
}

/** A deal on offer #4 of a room, as owner-loop.ts words it. */
function dealOf(status: "pending" | "done"): DealView {
  const pending = status === "pending";
  return {
    offer: "0f".repeat(32),
    offer_seq: 4,
    status,
    label: pending ? "PENDING" : "DONE",
    lines: [
      pending ? "not final, waiting for ana to sign" : "both owners signed the same terms",
      "30.00 USD",
      pending ? "signed by ben (#6)" : "signed by ben (#6) and ana (#7)",
    ],
    signed: pending ? ["ben"] : ["ben", "ana"],
    can_sign: pending,
  };
}

const key = (m: MarketLedger, owner: "ana" | "ben") => m.k.owners[owner].publicKeyText;

describe("an owner's part of a market", () => {
  it("shows only the owner's listings", async () => {
    const { m } = await matched();
    const board = marketBoard(m.state, m.state.market!, m.l.entries as Entry[], m.l.now);
    expect(ownListings(board, "ana").map((l) => [l.title, l.side, l.standing])).toEqual([
      ["Stroller wanted", "want", "live"],
    ]);
    expect(ownListings(board, "ana")[0]).not.toHaveProperty("owner");
  });

  it("shows a match from each side's own listing, with the other side and the words they share", async () => {
    const { m, match } = await matched();
    const ana = matchRow(match, "ana", key(m, "ana"), { presence: "none" });
    const ben = matchRow(match, "ben", key(m, "ben"), { presence: "none" });
    expect(ana).toMatchObject({
      seq: match.seq,
      side: "want",
      title: "Stroller wanted",
      their_title: "Stroller",
      other: "ben",
      words: ["stroller"],
      quantity: 1,
      room: match.room,
      recorded: null,
    });
    expect(ben).toMatchObject({ side: "offer", title: "Stroller", their_title: "Stroller wanted", other: "ana" });
  });

  it("offers to open a room nobody opened, and to enter one the other side opened", async () => {
    const { m, match } = await matched();
    expect(matchRow(match, "ana", key(m, "ana"), { presence: "none" })).toMatchObject({
      state: "not_opened",
      entered: false,
      action: "open",
    });
    expect(matchRow(match, "ana", key(m, "ana"), { presence: "open" })).toMatchObject({
      state: "open",
      entered: false,
      action: "enter",
    });
    const room = await m.openRoom(match.seq, "ben");
    const followed = () => ({ followed: { state: room.state!, deals: [] } });
    expect(matchRow(match, "ben", key(m, "ben"), followed())).toMatchObject({
      state: "open",
      state_words: "open: negotiating",
      entered: true,
      action: null,
    });
    expect(matchRow(match, "ana", key(m, "ana"), followed())).toMatchObject({
      state: "open",
      entered: false,
      action: "enter",
    });
    await joinAsOtherSide(m, room, "ana");
    expect(matchRow(match, "ana", key(m, "ana"), followed())).toMatchObject({
      state: "open",
      entered: true,
      action: null,
    });
  });

  it("reads a deal pending or done from the room the window follows, and done once the market recorded it", async () => {
    const { m, match } = await matched();
    const room = await m.openRoom(match.seq, "ben");
    const pending = matchRow(match, "ben", key(m, "ben"), {
      followed: { state: room.state!, deals: [dealOf("pending")] },
    });
    expect(pending).toMatchObject({
      state: "deal_pending",
      state_words: "deal pending on offer #4: not final, waiting for ana to sign",
      deals: [dealOf("pending")],
    });
    const done = matchRow(match, "ben", key(m, "ben"), { followed: { state: room.state!, deals: [dealOf("done")] } });
    expect(done).toMatchObject({
      state: "deal_done",
      state_words: "deal done: both owners signed the deal on offer #4; the market has not recorded it yet",
      action: null,
    });
    const recorded = { ...match, deal: 12 };
    expect(matchRow(recorded, "ana", key(m, "ana"), { presence: "open" })).toMatchObject({
      state: "deal_done",
      state_words: "deal done: recorded in the market at #12",
      action: null,
      recorded: 12,
    });
  });

  describe("when the room ended without a deal, or its presence is not known", () => {
    it("says no deal for a room that closed or was deleted, and not known when the relay did not say", async () => {
      const { m, match } = await matched();
      const room = await m.openRoom(match.seq, "ben", { termination: { any: [{ max_entries: 1 }] } });
      await joinAsOtherSide(m, room, "ana");
      await room.submit(await m.seatKey("ana-bot"), { seat: "ana-bot", kind: "say", body: "Is it still there?" });
      expect(room.state!.closed).not.toBeNull();
      expect(
        matchRow(match, "ana", key(m, "ana"), { followed: { state: room.state!, deals: [dealOf("pending")] } }),
      ).toMatchObject({ state: "no_deal", entered: true, action: null });
      expect(matchRow(match, "ana", key(m, "ana"), { presence: "deleted" })).toMatchObject({
        state: "no_deal",
        state_words: "no deal: the room was deleted",
        action: null,
      });
      expect(matchRow(match, "ana", key(m, "ana"), { presence: "unknown" })).toMatchObject({
        state: "unknown",
        action: "enter",
      });
    });
  });
});

/** A commitment of ana's in room `room`, reserved by a process long gone. */
function commitment(over: Partial<AllowanceCommitment>): AllowanceCommitment {
  return {
    room: "mr-" + "1".repeat(40),
    seat: "ana-bot",
    kind: "accept",
    nonce: "nonce-000000000001",
    message_sha256: "aa".repeat(32),
    side: "buyer",
    amount: 2500,
    currency: "USD",
    state: "open",
    seq: 7,
    deal: "bb".repeat(32),
    process: { pid: 1, host: "h" },
    at: 10,
    ...over,
  };
}

describe("the allowance in the window", () => {
  const file = (commitments: AllowanceCommitment[]) => ({
    file: { v: 1 as const, version: 3, owner: "ana", owner_key: "k".repeat(43), market: "m-swap", commitments },
  });

  it("gives the limits, what is spent, reserved and left, and each commitment, open first", () => {
    const view = allowanceView({
      store: file([
        commitment({ state: "spent", amount: 4000, at: 5, kind: "deal_sign", seq: 9 }),
        commitment({}),
        commitment({ side: "seller", amount: 0, currency: undefined, kind: "offer", seq: 3, at: 20 }),
      ]),
      limit: { allowance: { currency: "USD", total: 10_000, open: 4 }, seat: "ana-bot", table: "m-swap" },
      mandateProblem: null,
    });
    expect(view).toMatchObject({
      currency: "USD",
      total: 10_000,
      open_limit: 4,
      source: "ana-bot's mandate at m-swap",
      spent: 4000,
      reserved: 2500,
      open: 2,
      problem: null,
    });
    expect(view.figures.map((f) => `${f.label}: ${f.value}`)).toEqual([
      "Allowance: 100.00 USD",
      "Spent: 40.00 USD",
      "Reserved: 25.00 USD",
      "Left: 35.00 USD",
      "Open commitments: 2 of at most 4",
    ]);
    expect(view.commitments).toEqual([
      {
        state: "open",
        words: "open: accept #7 by ana-bot in mr-1111111111111111111111111111111111111111, as the buyer: 25.00 USD",
      },
      {
        state: "open",
        words:
          "open: offer #3 by ana-bot in mr-1111111111111111111111111111111111111111, as the seller: counts as one open commitment",
      },
      {
        state: "spent",
        words: "spent: deal_sign #9 by ana-bot in mr-1111111111111111111111111111111111111111, as the buyer: 40.00 USD",
      },
    ]);
  });

  describe("when no mandate sets an allowance, or the store cannot be trusted", () => {
    it("says no allowance is set and shows what the store counts anyway", () => {
      const view = allowanceView({ store: file([commitment({ seq: undefined })]), limit: null, mandateProblem: null });
      expect(view.figures.map((f) => f.value)).toEqual(["not set", "0.00 USD", "25.00 USD", "1"]);
      expect(view.lines[0]).toMatch(/^no allowance set/);
      expect(view.commitments[0]!.words).toContain("accept (not yet seen in its room)");
    });

    it("names the store's problem and the mandate's, and counts nothing it cannot read", () => {
      const view = allowanceView({
        store: { problem: "E_MANDATE: the allowance store … cannot be trusted: it is not JSON" },
        limit: null,
        mandateProblem: "ana-bot's mandate does not hold: bad signature",
      });
      expect(view.problem).toBe(
        "E_MANDATE: the allowance store … cannot be trusted: it is not JSON; ana-bot's mandate does not hold: bad signature",
      );
      expect([view.spent, view.reserved, view.open, view.commitments]).toEqual([0, 0, 0, []]);
    });
  });
});
