/**
 * Matching (docs/SPEC.md §5.15, decision 0460): the matches a new listing makes, a pure function of
 * the state after it, so every verifier's replay computes the same `system/match` entries. A
 * listing matches a live listing of the other side in its category, of another owner, with a title
 * word in common, public price ranges that overlap in one currency (or a range that is absent), and
 * quantity left on both; a listing that takes sealed bids matches nobody this way (its bids set
 * the price: sealed-settlement.ts). The best LIMITS.matches_per_listing are kept: most words in common, then
 * the oldest. Bounded: only the newest LIMITS.match_scan open listings of the other side are read.
 */
import { own } from "../../encoding/records.js";
import { LIMITS } from "../../limits/limits.js";
import type { PriceRange } from "../../schemas/market.js";
import type { MatchData } from "../../schemas/match.js";
import type { SystemDraftOf } from "../../schemas/entry.js";
import { ownerKeyOf } from "../owners.js";
import type { TableState } from "../state.js";
import { sharedWords } from "./listing-words.js";
import { listingNotLive, quantityLeft } from "./listing-live.js";
import type { ListingState, MarketState } from "./market-state.js";

/** Whether two public price ranges can meet: either is absent ("ask"), or both are in one currency and overlap. */
export function pricesMeet(a: PriceRange | null, b: PriceRange | null): boolean {
  if (a === null || b === null) return true;
  if (a.currency !== b.currency) return false;
  const low = Math.max(a.min ?? 0, b.min ?? 0);
  const high = Math.min(a.max ?? Number.MAX_SAFE_INTEGER, b.max ?? Number.MAX_SAFE_INTEGER);
  return low <= high;
}

interface Candidate {
  leaf: string;
  listing: ListingState;
  words: string[];
}

/** The match entries the listing with leaf `leaf` (just applied to `state`, at time `now`) causes, best first. */
export function matchesFor(
  state: TableState,
  market: MarketState,
  leaf: string,
  now: number,
): SystemDraftOf<"match">[] {
  const listing = own(market.listings, leaf);
  if (!listing || listing.sealed !== null || listingNotLive(state, listing, now) !== null) return [];
  const index = own(market.open, listing.category);
  if (!index) return [];
  const others = index[listing.side === "offer" ? "want" : "offer"];
  const candidates: Candidate[] = [];
  for (let i = others.length - 1; i >= Math.max(0, others.length - LIMITS.match_scan); i--) {
    const other = own(market.listings, others[i]!);
    if (!other || other.owner === listing.owner || listingNotLive(state, other, now) !== null) continue;
    if (!pricesMeet(listing.price, other.price)) continue;
    const words = sharedWords(listing.words, other.words);
    if (words.length > 0) candidates.push({ leaf: others[i]!, listing: other, words });
  }
  candidates.sort((a, b) => b.words.length - a.words.length || a.listing.seq - b.listing.seq);
  return candidates.slice(0, LIMITS.matches_per_listing).map((c) => matchDraft(state, { leaf, listing }, c));
}

function matchDraft(
  state: TableState,
  made: { leaf: string; listing: ListingState },
  other: Candidate,
): SystemDraftOf<"match"> {
  const [offer, want] = made.listing.side === "offer" ? [made, other] : [other, made];
  const party = (l: ListingState) => ({ owner: l.owner, key: ownerKeyOf(state, l.owner) ?? "" });
  const data: MatchData = {
    offer: offer.leaf,
    want: want.leaf,
    offer_seq: offer.listing.seq,
    want_seq: want.listing.seq,
    quantity: Math.min(quantityLeft(offer.listing), quantityLeft(want.listing)),
    words: other.words.slice(0, 8),
    offered_by: party(offer.listing),
    wanted_by: party(want.listing),
  };
  return { table: state.table, seat: null, kind: "system", subkind: "match", data, author: null };
}
