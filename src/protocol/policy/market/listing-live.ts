/**
 * What is live in a market at a time (docs/SPEC.md §5.15): a listing is live while it is open,
 * `now` (the ts of the entry being judged) is before its expiry, its author is still seated (for a
 * listing posted from a group, its owner still a member) and quantity is left. Derived from the folded state, never stored.
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { ownerKeyOf } from "../owners.js";
import type { TableState } from "../state.js";
import type { ListingState, MarketState } from "./market-state.js";

/** The market state; E_NOT_ALLOWED when the table is not a market (its config has no `market`). */
export function requireMarket(state: TableState, what: string): MarketState {
  if (!state.market)
    throw new TrestleError("E_NOT_ALLOWED", `${what} only happens in a market (a table whose config has "market")`);
  return state.market;
}

/** The quantity of `listing` no recorded deal closed yet. */
export function quantityLeft(listing: ListingState): number {
  return Math.max(0, listing.quantity - listing.closed);
}

/** Why `listing` is not live at `now`, or null when it is. */
export function listingNotLive(state: TableState, listing: ListingState, now: number): string | null {
  if (listing.status !== "open") return `it was ${listing.status} at entry ${listing.ended}`;
  if (now >= listing.expires) return `it expired at ${listing.expires}`;
  if (listing.seat === null) return memberGone(state, listing.owner);
  const seat = own(state.seats, listing.seat);
  if (!seat || seat.left !== null || seat.joined > listing.seq) return `its author ${listing.seat} left the market`;
  return null;
}

/** Why `owner` is no member of the market now (a group listing lives while its owner is one), or null when it is. */
export function memberGone(state: TableState, owner: string): string | null {
  if (ownerKeyOf(state, owner) === undefined) return `${owner} is no member of this market`;
  const ejected = state.room ? (own(state.room.parties, owner)?.ejected ?? null) : null;
  return ejected === null ? null : `${owner} was ejected from the market at entry ${ejected}`;
}

/** The listing written by the entry with leaf `leaf`; E_UNKNOWN_LISTING when the market has none. */
export function listingOf(market: MarketState, leaf: string): ListingState {
  const listing = own(market.listings, leaf);
  if (!listing)
    throw new TrestleError("E_UNKNOWN_LISTING", `no listing ${leaf.slice(0, 16)}… in this market`, { listing: leaf });
  return listing;
}

/** The live listing with leaf `leaf` at `now`; E_UNKNOWN_LISTING or E_NOT_LIVE otherwise. */
export function liveListing(state: TableState, market: MarketState, leaf: string, now: number): ListingState {
  const listing = listingOf(market, leaf);
  const why = listingNotLive(state, listing, now);
  if (why !== null)
    throw new TrestleError("E_NOT_LIVE", `listing ${leaf.slice(0, 16)}… is not live: ${why}`, {
      listing: leaf,
      status: listing.status,
    });
  return listing;
}

/** How many listings of `owner` are live at `now` (one pass over the listings, nothing copied: every listing an admit judges counts them). */
export function liveListingCount(state: TableState, market: MarketState, owner: string, now: number): number {
  let live = 0;
  for (const leaf in market.listings) {
    const listing = own(market.listings, leaf);
    if (listing && listing.owner === owner && listingNotLive(state, listing, now) === null) live += 1;
  }
  return live;
}

/** Ends `listing` with `status` at entry `seq`, and takes it out of its category's open index and the sealed index (mutates all). */
export function endListing(
  market: MarketState,
  leaf: string,
  listing: ListingState,
  status: Exclude<ListingState["status"], "open">,
  seq: number,
): void {
  listing.status = status;
  listing.ended = seq;
  const index = own(market.open, listing.category);
  if (index) index[listing.side] = index[listing.side].filter((l) => l !== leaf);
  if (listing.sealed) market.sealed = market.sealed.filter((l) => l !== leaf);
}
