/**
 * Searching a market (docs/SPEC.md §5.15): the live listings at a time that fit a query (category,
 * side, owner, and words the title must all contain, read as matching reads them), newest first,
 * at most a page. Pure: the table object runs it over its folded state, and any client can run it
 * over a verified export's fold and get the same answer.
 */
import { LIMITS } from "../limits/limits.js";
import type { ListingQuery } from "../schemas/market.js";
import type { TableState } from "../policy/state.js";
import { listingWords } from "../policy/market/listing-words.js";
import { listingNotLive, quantityLeft, requireMarket } from "../policy/market/listing-live.js";
import type { ListingState } from "../policy/market/market-state.js";

/** A listing that fits a query: its leaf and its state. */
export interface Found {
  leaf: string;
  listing: ListingState;
}

/** The live listings of `state` at `now` that fit `query`, newest first, at most LIMITS.page. */
export function searchListings(state: TableState, query: ListingQuery, now: number): Found[] {
  const market = requireMarket(state, "searching listings");
  const words = query.q === undefined ? [] : listingWords(query.q);
  const found: Found[] = [];
  for (const [leaf, listing] of Object.entries(market.listings)) {
    if (query.category !== undefined && listing.category !== query.category) continue;
    if (query.side !== undefined && listing.side !== query.side) continue;
    if (query.owner !== undefined && listing.owner !== query.owner) continue;
    if (!words.every((w) => listing.words.includes(w))) continue;
    if (listingNotLive(state, listing, now) !== null || quantityLeft(listing) === 0) continue;
    found.push({ leaf, listing });
  }
  return found.sort((a, b) => b.listing.seq - a.listing.seq).slice(0, LIMITS.page);
}
