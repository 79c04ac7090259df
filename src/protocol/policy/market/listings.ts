/**
 * The market kinds members' seats write (docs/SPEC.md §5.15): `listing` (an offer or a want, or a
 * new version of one: `supersedes`, which keeps the sealed terms bidders committed under; an offer
 * may take sealed bids: sealed-bids.ts) and `unlist` (withdraw). `check*` judge a draft at time `now`
 * (seat, key, pause and body were already checked); `apply*` fold an admitted entry.
 */
import { TrestleError } from "../../errors.js";
import type { AuthoredDraft, UnchainedEntry } from "../../schemas/entry.js";
import { ownerOfSeat } from "../kinds/kind-policy.js";
import type { TableState } from "../state.js";
import { listingWords } from "./listing-words.js";
import { endListing, listingOf, liveListing, liveListingCount, requireMarket } from "./listing-live.js";
import type { MarketState } from "./market-state.js";
import { checkSealedEnds, checkSealedListing, checkSealedTermsKept, openSealed } from "./sealed-bids.js";

type ListingDraft = Extract<AuthoredDraft, { kind: "listing" }>;
type UnlistDraft = Extract<AuthoredDraft, { kind: "unlist" }>;

/** What a listing's rules judge, whoever writes it: a seat's signed listing or a group's attested one. */
export type ListingRuleFields = Pick<ListingDraft, "side" | "category" | "expires" | "supersedes">;

/** Throws the refusal for a listing draft at `now`. */
export function checkListing(state: TableState, draft: ListingDraft, now: number): void {
  const market = requireMarket(state, "a listing");
  checkListingTerms(state, draft, now);
  checkSealedListing(draft, now);
  checkListingOwner(state, market, ownerOfSeat(state, draft.seat), draft, now);
  checkSealedTermsKept(market, draft);
}

/** Throws the refusal for a listing's category and expiry at `now` by the market's rules. */
export function checkListingTerms(state: TableState, draft: ListingRuleFields, now: number): void {
  const rules = state.config.market!;
  if (!rules.categories.includes(draft.category)) {
    throw new TrestleError(
      "E_SCHEMA",
      `category "${draft.category}" is not one of this market's: ${rules.categories.join(", ")}`,
      { issues: [{ path: "category", message: "not one of this market's categories" }] },
    );
  }
  if (draft.expires <= now) throw new TrestleError("E_EXPIRED", "the listing expires before it is written");
  if (draft.expires > now + rules.listing_ttl_ms)
    throw new TrestleError("E_EXPIRED", `a listing here may live at most ${rules.listing_ttl_ms} ms`);
}

/** Throws the refusal for a listing by `owner` at `now`: a version it supersedes must be the owner's, live, of its side; the owner's live listings must leave room. */
export function checkListingOwner(
  state: TableState,
  market: MarketState,
  owner: string,
  draft: ListingRuleFields,
  now: number,
): void {
  const rules = state.config.market!;
  if (draft.supersedes !== undefined) {
    const old = liveListing(state, market, draft.supersedes, now);
    if (old.owner !== owner)
      throw new TrestleError(
        "E_FORBIDDEN",
        `listing ${draft.supersedes.slice(0, 16)}… is ${old.owner}'s: only its owner writes a new version`,
      );
    if (old.side !== draft.side)
      throw new TrestleError(
        "E_NOT_ALLOWED",
        `a new version keeps the side: listing ${draft.supersedes.slice(0, 16)}… is a ${old.side}`,
        { reason: "side" },
      );
    checkSealedEnds(old, draft.supersedes, now, "supersedes");
  }
  const live = liveListingCount(state, market, owner, now) - (draft.supersedes === undefined ? 0 : 1);
  if (live >= rules.listings_per_member) {
    throw new TrestleError("E_NOT_ALLOWED", `${owner} holds ${live} live listings here, the most this market allows`, {
      reason: "listings_per_member",
      limit: rules.listings_per_member,
    });
  }
}

/** Folds an admitted listing (whose leaf is `leaf`): it is open and indexed, and a version it supersedes ends. */
export function applyListing(
  state: TableState,
  market: MarketState,
  entry: Extract<UnchainedEntry, { kind: "listing" }>,
  leaf: string,
): void {
  market.listings[leaf] = {
    seq: entry.seq,
    seat: entry.seat,
    via: null,
    owner: ownerOfSeat(state, entry.seat),
    side: entry.side,
    title: entry.title,
    category: entry.category,
    quantity: entry.quantity,
    closed: 0,
    price: entry.price ?? null,
    expires: entry.expires,
    words: listingWords(entry.title),
    supersedes: entry.supersedes ?? null,
    status: "open",
    ended: null,
    sealed: openSealed(entry),
  };
  // A sealed listing matches nobody by words (its bids set the price): it waits in the alarm's index, not the category's.
  if (entry.sealed) market.sealed.push(leaf);
  else market.open[entry.category]?.[entry.side].push(leaf);
  if (entry.supersedes !== undefined)
    endListing(market, entry.supersedes, listingOf(market, entry.supersedes), "superseded", entry.seq);
}

/** Throws the refusal for an unlist draft at `now`: only the listing's owner, only while it is live. */
export function checkUnlist(state: TableState, draft: UnlistDraft, now: number): void {
  const market = requireMarket(state, "unlisting");
  const listing = listingOf(market, draft.listing);
  const owner = ownerOfSeat(state, draft.seat);
  if (listing.owner !== owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `listing ${draft.listing.slice(0, 16)}… is ${listing.owner}'s: only its owner withdraws it`,
    );
  liveListing(state, market, draft.listing, now);
  checkSealedEnds(listing, draft.listing, now, "withdraws");
}

/** Folds an admitted unlist: the listing is withdrawn. */
export function applyUnlist(market: MarketState, entry: Extract<UnchainedEntry, { kind: "unlist" }>): void {
  endListing(market, entry.listing, listingOf(market, entry.listing), "withdrawn", entry.seq);
}
