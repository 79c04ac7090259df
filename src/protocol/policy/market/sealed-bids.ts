/**
 * Sealed bids on a market's listing (docs/SPEC.md §5.15 "Sealed bids on a listing", decision
 * 0469): an offer with `sealed` takes one sealed bid per member owner other than its seller,
 * committed before `until` as a hash bound to the market, the listing and the bidding owner, and
 * revealed from `until` (never before: bids stay sealed while others may still commit) until
 * `reveal_until`. The settlement is sealed-settlement.ts's. `check*` judge a draft at time `now`
 * (seat, key, pause and body were already checked); `apply*` fold an admitted entry.
 */
import { concatBytes, toHex, utf8 } from "../../encoding/bytes.js";
import { canonicalBytes } from "../../encoding/canonical.js";
import { own } from "../../encoding/records.js";
import { sha256 } from "../../encoding/hash.js";
import { TrestleError } from "../../errors.js";
import { LIMITS } from "../../limits/limits.js";
import { PROTOCOL_LABEL } from "../../signing/crypto.js";
import type { AuthoredDraft, UnchainedEntry } from "../../schemas/entry.js";
import { ownerOfSeat } from "../kinds/kind-policy.js";
import type { TableState } from "../state.js";
import { listingOf, liveListing, requireMarket } from "./listing-live.js";
import type { ListingState, MarketState, SealedState } from "./market-state.js";

type ListingDraft = Extract<AuthoredDraft, { kind: "listing" }>;
type BidDraft = Extract<AuthoredDraft, { kind: "bid" }>;

/** What a listing bid's commitment covers: the market, the listing (its entry's leaf), the bidding owner, the bid and its secret salt. */
export interface SealedListingBid {
  table: string;
  listing: string;
  bidder: string;
  bid: number;
  salt: string;
}

/** SHA-256(utf8("trestle/0.1 listing bid\n") || JCS({ bid, bidder, listing, salt, table })) in hex: the commitment to `sealed`. */
export function listingBidCommitment(sealed: SealedListingBid): string {
  const { table, listing, bidder, bid, salt } = sealed;
  return toHex(
    sha256(concatBytes(utf8(`${PROTOCOL_LABEL} listing bid\n`), canonicalBytes({ table, listing, bidder, bid, salt }))),
  );
}

/** Throws the refusal for a listing draft's `sealed` at `now`: an offer with a reserve in one currency, bids committed from now and revealed within its life and LIMITS.auction_ttl_max_ms. */
export function checkSealedListing(draft: ListingDraft, now: number): void {
  const sealed = draft.sealed;
  if (!sealed) return;
  if (draft.side !== "offer") schemaFail("sealed", "only an offer takes sealed bids");
  if (!draft.price || draft.price.max !== undefined || draft.price.min === undefined) {
    schemaFail(
      "price",
      "a sealed listing's price is { currency, min }: the bids' currency and the reserve (0 for none); the bids set the rest",
    );
  }
  if (sealed.until <= now)
    throw new TrestleError("E_EXPIRED", "the sealed bids' until lies before the listing is written");
  if (sealed.reveal_until > draft.expires)
    throw new TrestleError("E_EXPIRED", "a sealed listing's reveal_until lies within its life (at most its expires)");
  if (sealed.reveal_until - now > LIMITS.auction_ttl_max_ms) {
    throw new TrestleError(
      "E_EXPIRED",
      `a sealed listing's reveal_until is at most ${LIMITS.auction_ttl_max_ms} ms after it is written`,
    );
  }
}

/** The sealed state a listing entry opens; null for a listing without `sealed`. */
export function openSealed(entry: Extract<UnchainedEntry, { kind: "listing" }>): SealedState | null {
  if (!entry.sealed || !entry.price) return null;
  return {
    until: entry.sealed.until,
    reveal_until: entry.sealed.reveal_until,
    reserve: entry.price.min ?? 0,
    currency: entry.price.currency,
    commits: {},
    settled: null,
    winner: null,
  };
}

/** Throws E_NOT_ALLOWED when `listing` takes sealed bids and, at `now`, its bids decide it: from `until` until an unsold settlement (a sold one stays sold). */
export function checkSealedEnds(listing: ListingState, leaf: string, now: number, verb: string): void {
  const sealed = listing.sealed;
  if (!sealed || now < sealed.until || (sealed.settled !== null && sealed.winner === null)) return;
  throw new TrestleError(
    "E_NOT_ALLOWED",
    `listing ${leaf.slice(0, 16)}… took sealed bids until ${sealed.until}: its bids decide it, nobody ${verb} it now`,
    { reason: "sealed", until: sealed.until },
  );
}

/**
 * Throws E_NOT_ALLOWED (`sealed_terms`) when `draft`, a new version of a listing that takes sealed
 * bids and holds a committed one, changes its terms: `until`, `reveal_until`, the reserve or its
 * currency, or drops `sealed` (decision 0527). Its bids are void once it is superseded, but the
 * terms bidders committed under are the ones its new version keeps.
 */
export function checkSealedTermsKept(market: MarketState, draft: ListingDraft): void {
  if (draft.supersedes === undefined) return;
  const old = listingOf(market, draft.supersedes).sealed;
  const committed = old ? Object.keys(old.commits).length : 0;
  if (!old || committed === 0) return;
  const { sealed, price } = draft;
  if (
    sealed?.until === old.until &&
    sealed.reveal_until === old.reveal_until &&
    price?.currency === old.currency &&
    price.min === old.reserve
  )
    return;
  throw new TrestleError(
    "E_NOT_ALLOWED",
    `listing ${draft.supersedes.slice(0, 16)}… holds ${committed} committed sealed bid${committed === 1 ? "" : "s"}: a new version keeps its sealed terms (until, reveal_until, the reserve and its currency)`,
    {
      reason: "sealed_terms",
      bids: committed,
    },
  );
}

/** Throws the refusal for a bid draft at `now`. */
export function checkBid(state: TableState, draft: BidDraft, now: number): void {
  const market = requireMarket(state, "a sealed bid");
  const listing = listingOf(market, draft.listing);
  const sealed = listing.sealed;
  const name = `listing ${draft.listing.slice(0, 16)}…`;
  if (!sealed) throw new TrestleError("E_NOT_ALLOWED", `${name} takes no sealed bids`, { reason: "not_sealed" });
  if (sealed.settled !== null)
    throw new TrestleError("E_NOT_LIVE", `the sealed bids on ${name} settled at entry ${sealed.settled}`, {
      listing: draft.listing,
      status: "settled",
    });
  const owner = ownerOfSeat(state, draft.seat);
  if (draft.op === "commit") return checkCommit(state, draft, { listing, sealed, owner, name }, now);
  if (listing.status !== "open")
    throw new TrestleError("E_NOT_LIVE", `${name} was ${listing.status} at entry ${listing.ended}: its bids are void`, {
      listing: draft.listing,
      status: listing.status,
    });
  const commit = own(sealed.commits, owner);
  if (!commit)
    throw new TrestleError("E_NOT_ALLOWED", `${owner} never committed a bid on ${name}, so it has nothing to reveal`, {
      reason: "no_commit",
    });
  if (commit.bid !== null)
    throw new TrestleError("E_NOT_ALLOWED", `${owner} already revealed its bid on ${name}`, { reason: "revealed" });
  if (now < sealed.until) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `no reveal before ${sealed.until}: bids on ${name} stay sealed while others may still commit`,
      { reason: "sealed", until: sealed.until },
    );
  }
  if (now >= sealed.reveal_until)
    throw new TrestleError("E_EXPIRED", `reveals on ${name} closed at ${sealed.reveal_until}`, {
      reveal_until: sealed.reveal_until,
    });
  if (
    listingBidCommitment({
      table: state.table,
      listing: draft.listing,
      bidder: owner,
      bid: draft.bid,
      salt: draft.salt,
    }) !== commit.commitment
  ) {
    throw new TrestleError("E_REVEAL_MISMATCH", `this bid and salt do not hash to ${owner}'s commitment on ${name}`);
  }
}

function checkCommit(
  state: TableState,
  draft: BidDraft,
  on: { listing: ListingState; sealed: SealedState; owner: string; name: string },
  now: number,
): void {
  const { listing, sealed, owner, name } = on;
  if (owner === listing.owner)
    throw new TrestleError("E_FORBIDDEN", `${name} is ${owner}'s: a seller does not bid on its own listing`);
  if (now >= sealed.until)
    throw new TrestleError("E_EXPIRED", `commits to ${name} closed at ${sealed.until}`, { until: sealed.until });
  liveListing(state, requireMarket(state, "a sealed bid"), draft.listing, now);
  if (own(sealed.commits, owner))
    throw new TrestleError("E_NOT_ALLOWED", `${owner} already committed a bid on ${name}: one per owner`, {
      reason: "committed",
    });
}

/** Folds an admitted bid (whose leaf is `leaf`): a commit is kept under its owner, a reveal fills in that owner's bid. */
export function applyBid(state: TableState, entry: Extract<UnchainedEntry, { kind: "bid" }>, leaf: string): void {
  const sealed = state.market ? own(state.market.listings, entry.listing)?.sealed : undefined;
  if (!sealed) return;
  const owner = ownerOfSeat(state, entry.seat);
  if (entry.op === "commit")
    sealed.commits[owner] = { seq: entry.seq, leaf, seat: entry.seat, commitment: entry.commitment, bid: null };
  else {
    const commit = own(sealed.commits, owner);
    if (commit) commit.bid = entry.bid;
  }
}

function schemaFail(path: string, message: string): never {
  throw new TrestleError("E_SCHEMA", `listing at ${path}: ${message}`, { issues: [{ path, message }] });
}
