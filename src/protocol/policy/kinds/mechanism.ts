/**
 * `mechanism` (docs/SPEC.md §5.11, decision 0280): the sealed-bid k-double auction. `open` names
 * the buying and selling seats (two owners, two keys), k, the currency and the deadlines; each
 * side `commit`s the hash of its bid before the commit deadline; a side `reveal`s only once every
 * side committed or commits closed, so every commit precedes every reveal on the chain; the reveal
 * that decides the auction causes the relay's `auction_settled` (policy/auctions.ts).
 */
import { bidCommitment } from "../../rooms/auction.js";
import { checkSalePrice } from "../market/sale-room.js";
import { TrestleError } from "../../errors.js";
import { LIMITS } from "../../limits/limits.js";
import { own } from "../../encoding/records.js";
import type { AuctionSides } from "../../schemas/mechanism.js";
import { auctionOf, settledDraft, settlementOf, sideOf, uncommitted } from "../auctions.js";
import type { AuctionState, RoomState } from "../room-state.js";
import type { TableState } from "../state.js";
import { checkFuture, type RoomDraftOf, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The mechanism policy: one auction's open, each side's commit, each side's reveal. */
export const mechanismPolicy: RoomKindPolicy<"mechanism"> = {
  kind: "mechanism",
  commitment: {
    ...NO_COMMITMENT,
    commits: (s) => s.op === "commit",
    gatedWhenLoosened: (s) => s.op === "commit",
    deal: (s) => (s.op === "commit" ? s.auction : undefined),
  },
  check(state, room, draft, now) {
    if (draft.op === "open") return checkOpen(state, room, draft, now);
    const auction = liveAuction(room, draft.auction);
    if (draft.op === "commit") return checkCommit(auction, draft, now);
    return checkReveal(state, auction, draft, now);
  },
  apply(_state, room, entry, leaf) {
    if (entry.op === "open") {
      const { seq, seat, sides, k, currency, deadline, reveal_deadline } = entry;
      room.auctions[leaf] = {
        seq,
        seat,
        sides,
        k,
        currency,
        deadline,
        reveal_deadline,
        commits: { buyer: null, seller: null },
        bids: { buyer: null, seller: null },
        settled: null,
        price: null,
      };
      return;
    }
    const auction = own(room.auctions, entry.auction);
    if (!auction) return;
    if (entry.op === "commit") auction.commits[entry.side] = entry.commitment;
    else {
      const side = sideOf(auction, entry.seat);
      if (side) auction.bids[side] = entry.bid;
    }
  },
  causes(state, entry) {
    if (entry.op !== "reveal" || !state.room) return null;
    const data = settlementOf(auctionOf(state.room, entry.auction), entry.auction, entry.ts);
    return data ? settledDraft(state, data) : null;
  },
};

function checkOpen(
  state: TableState,
  room: RoomState,
  draft: Extract<RoomDraftOf<"mechanism">, { op: "open" }>,
  now: number,
): void {
  checkSalePrice(state, null);
  checkSides(state, draft.sides);
  checkFuture(draft.deadline, now, "auction's commit deadline");
  if (draft.reveal_deadline <= draft.deadline)
    throw new TrestleError("E_SCHEMA", "an auction's reveal_deadline comes after its deadline for commits");
  if (draft.reveal_deadline - now > LIMITS.auction_ttl_max_ms) {
    throw new TrestleError(
      "E_EXPIRED",
      `an auction's reveal_deadline is at most ${LIMITS.auction_ttl_max_ms} ms after it opens`,
    );
  }
  if (Object.keys(room.auctions).length >= LIMITS.auctions)
    throw new TrestleError("E_TOO_LARGE", `a room opens at most ${LIMITS.auctions} auctions`);
}

/** Throws unless the sides are two present seats of two owners: nobody bids against themselves (two seats never share a key: admit-join.ts). */
function checkSides(state: TableState, sides: AuctionSides): void {
  const buyer = own(state.seats, sides.buyer);
  const seller = own(state.seats, sides.seller);
  for (const [name, seat] of [
    [sides.buyer, buyer],
    [sides.seller, seller],
  ] as const) {
    if (!seat || seat.left !== null)
      throw new TrestleError("E_UNKNOWN_SEAT", `side "${name}" is not a seat in this room`);
  }
  if (buyer!.name === seller!.name)
    throw new TrestleError("E_FORBIDDEN", `${buyer!.name} cannot be both the buyer and the seller`);
  if (buyer!.owner === seller!.owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `both sides are ${buyer!.owner}'s seats: an owner does not bid against itself`,
    );
}

/** The auction at `leaf`, unless it settled (E_NOT_LIVE) or does not exist (E_UNKNOWN_AUCTION). */
function liveAuction(room: RoomState, leaf: string): AuctionState {
  const auction = auctionOf(room, leaf);
  if (auction.settled !== null)
    throw new TrestleError("E_NOT_LIVE", `auction entry ${auction.seq} settled at entry ${auction.settled}`, {
      auction: leaf,
    });
  return auction;
}

function checkCommit(
  auction: AuctionState,
  draft: Extract<RoomDraftOf<"mechanism">, { op: "commit" }>,
  now: number,
): void {
  if (auction.sides[draft.side] !== draft.seat)
    throw new TrestleError(
      "E_FORBIDDEN",
      `${auction.sides[draft.side]} bids as the ${draft.side} in auction entry ${auction.seq}, not ${draft.seat}`,
    );
  if (now >= auction.deadline)
    throw new TrestleError("E_EXPIRED", `commits to auction entry ${auction.seq} closed at ${auction.deadline}`, {
      deadline: auction.deadline,
    });
  if (auction.commits[draft.side] !== null)
    throw new TrestleError("E_NOT_ALLOWED", `the ${draft.side} already committed to auction entry ${auction.seq}`);
  const other = auction.commits[draft.side === "buyer" ? "seller" : "buyer"];
  if (other === draft.commitment)
    throw new TrestleError("E_NOT_ALLOWED", "this is the other side's commitment: a commitment binds its own side");
}

function checkReveal(
  state: TableState,
  auction: AuctionState,
  draft: Extract<RoomDraftOf<"mechanism">, { op: "reveal" }>,
  now: number,
): void {
  const side = sideOf(auction, draft.seat);
  if (side === null)
    throw new TrestleError("E_FORBIDDEN", `${draft.seat} is not a side of auction entry ${auction.seq}`);
  const commitment = auction.commits[side];
  if (commitment === null)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `the ${side} never committed to auction entry ${auction.seq}, so it has nothing to reveal`,
    );
  if (auction.bids[side] !== null)
    throw new TrestleError("E_NOT_ALLOWED", `the ${side} already revealed its bid in auction entry ${auction.seq}`);
  const waiting = uncommitted(auction);
  if (waiting.length > 0 && now < auction.deadline) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `no reveal before every side committed or commits closed (waiting for the ${waiting.join(" and ")} until ${auction.deadline})`,
      {
        waiting_for: waiting,
        deadline: auction.deadline,
      },
    );
  }
  if (now >= auction.reveal_deadline)
    throw new TrestleError(
      "E_EXPIRED",
      `reveals in auction entry ${auction.seq} closed at ${auction.reveal_deadline}`,
      { reveal_deadline: auction.reveal_deadline },
    );
  if (
    bidCommitment({ table: state.table, auction: draft.auction, side, bid: draft.bid, salt: draft.salt }) !== commitment
  ) {
    throw new TrestleError(
      "E_REVEAL_MISMATCH",
      `this bid and salt do not hash to the ${side}'s commitment in auction entry ${auction.seq}`,
    );
  }
}
