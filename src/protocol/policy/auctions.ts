/**
 * Settling sealed-bid auctions (docs/SPEC.md §5.11, decision 0280). An auction settles as soon as
 * its outcome can no longer change: when both sides revealed (a deal at the clearing price when
 * the bids cross), when commits closed and every side that committed revealed, or at the reveal
 * deadline whatever is missing. The relay records it as `system/auction_settled`: caused by the
 * reveal that decided it, or submitted by the relay's alarm when it is due (judged at the entry's
 * own `ts`, like a watchdog stall), so every verifier recomputes the same settlement.
 */
import { canonicalize } from "../encoding/canonical.js";
import { clearingPrice } from "../rooms/auction.js";
import { TrestleError } from "../errors.js";
import { own } from "../encoding/records.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import type { AuctionSettledData, AuctionSide } from "../schemas/mechanism.js";
import type { AuctionState, RoomState } from "./room-state.js";
import type { TableState } from "./state.js";
import { openAuctionDeal } from "./deals.js";

/** Both sides, buyer first. */
export const AUCTION_SIDES: readonly AuctionSide[] = ["buyer", "seller"];

/** The auction whose open entry has leaf `leaf`; E_UNKNOWN_AUCTION when the room has none. */
export function auctionOf(room: RoomState, leaf: string): AuctionState {
  const auction = own(room.auctions, leaf);
  if (!auction)
    throw new TrestleError("E_UNKNOWN_AUCTION", `no auction ${leaf.slice(0, 16)}… in this room`, { auction: leaf });
  return auction;
}

/** The side `seat` bids on in `auction`, or null when it is neither. */
export function sideOf(auction: AuctionState, seat: string): AuctionSide | null {
  return AUCTION_SIDES.find((side) => auction.sides[side] === seat) ?? null;
}

/** The sides that have not committed yet. */
export function uncommitted(auction: AuctionState): AuctionSide[] {
  return AUCTION_SIDES.filter((side) => auction.commits[side] === null);
}

/** The settlement of the auction at leaf `leaf` at time `now`, or null while more commits or reveals can still change it (or it settled already). */
export function settlementOf(auction: AuctionState, leaf: string, now: number): AuctionSettledData | null {
  if (auction.settled !== null) return null;
  const missing = uncommitted(auction);
  if (missing.length > 0 && now < auction.deadline) return null;
  const unrevealed = AUCTION_SIDES.filter((side) => auction.commits[side] !== null && auction.bids[side] === null);
  if (unrevealed.length > 0 && now < auction.reveal_deadline) return null;
  if (missing.length > 0) return { auction: leaf, outcome: "no_deal", reason: "missing_commit" };
  if (unrevealed.length > 0) return { auction: leaf, outcome: "no_deal", reason: "missing_reveal" };
  const price = clearingPrice(auction.bids.buyer!, auction.bids.seller!, auction.k);
  return price === null
    ? { auction: leaf, outcome: "no_deal", reason: "bids_do_not_cross" }
    : { auction: leaf, outcome: "deal", price, currency: auction.currency };
}

/** When an unsettled auction settles without another entry: its commit deadline if nobody committed, else its reveal deadline. */
export function settlesAt(auction: AuctionState): number | null {
  if (auction.settled !== null) return null;
  return uncommitted(auction).length === AUCTION_SIDES.length ? auction.deadline : auction.reveal_deadline;
}

/** The earliest time an auction of an open room settles on its own (when to set the alarm), or null for none. */
export function auctionDeadline(state: TableState): number | null {
  if (!state.room || state.closed) return null;
  let earliest: number | null = null;
  for (const auction of Object.values(state.room.auctions)) {
    const at = settlesAt(auction);
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

/** The drafts the alarm submits at `now`: one settlement per auction due by then, in opening order. */
export function dueSettlements(state: TableState, now: number): SystemDraftOf<"auction_settled">[] {
  if (!state.room || state.closed) return [];
  return Object.entries(state.room.auctions)
    .sort((a, b) => a[1].seq - b[1].seq)
    .flatMap(([leaf, auction]) => {
      const data = settlementOf(auction, leaf, now);
      return data ? [settledDraft(state, data)] : [];
    });
}

/** The `auction_settled` entry for `data` (the relay's own, unsigned). */
export function settledDraft(state: TableState, data: AuctionSettledData): SystemDraftOf<"auction_settled"> {
  return { table: state.table, seat: null, kind: "system", subkind: "auction_settled", data, author: null };
}

/** Throws unless `draft` is exactly the settlement of its auction due at `now` (a settlement the relay submits on its own). */
export function checkSettlement(state: TableState, draft: SystemDraftOf<"auction_settled">, now: number): void {
  const room = state.room;
  if (!room) throw new TrestleError("E_NOT_ALLOWED", "an auction only settles in a room");
  const auction = auctionOf(room, draft.data.auction);
  const due = settlementOf(auction, draft.data.auction, now);
  if (due === null) {
    const why = auction.settled === null ? `it is not due at ${now}` : `it settled at entry ${auction.settled}`;
    throw new TrestleError("E_NOT_ALLOWED", `auction entry ${auction.seq} does not settle now: ${why}`, {
      auction: draft.data.auction,
    });
  }
  if (canonicalize(due) !== canonicalize(draft.data)) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `auction entry ${auction.seq} settles as ${canonicalize(due)}, not as recorded`,
      { settlement: due },
    );
  }
}

/** Folds an `auction_settled` entry into its auction (mutates the room); a settlement with a deal opens the deal both owners sign. */
export function applySettlement(
  state: TableState,
  room: RoomState,
  entry: { seq: number; data: AuctionSettledData },
): void {
  const auction = own(room.auctions, entry.data.auction);
  if (!auction) return;
  auction.settled = entry.seq;
  auction.price = entry.data.outcome === "deal" ? entry.data.price : null;
  if (entry.data.outcome === "deal")
    openAuctionDeal(state, room, entry.data.auction, auction, entry.seq, entry.data.price);
}
