/**
 * Settling a sealed listing's bids (docs/SPEC.md §5.15 "Sealed bids on a listing", decision 0469)
 * by the second price with a reserve: the highest revealed bid at or above the reserve wins (ties
 * to the earliest commit) and pays the larger of the second-highest revealed bid and the reserve;
 * with no such bid nothing is sold. A listing settles once its outcome cannot change: from `until`
 * when nobody committed, when every owner who committed revealed, or at `reveal_until` whatever is
 * missing. The relay records `system/listing_settled`, caused by the reveal that decided it or
 * submitted by the table's alarm when due (judged at the entry's own `ts`), and a sale causes the
 * match between the seller and the winner, whose room opens as any match's does with the price in
 * its citation. Every verifier recomputes both.
 */
import { canonicalize } from "../../encoding/canonical.js";
import { own } from "../../encoding/records.js";
import { TrestleError } from "../../errors.js";
import type { SystemDraftOf, UnchainedEntry } from "../../schemas/entry.js";
import type { ListingSettledData } from "../../schemas/listing-bid.js";
import { ownerKeyOf } from "../owners.js";
import type { TableState } from "../state.js";
import { listingOf, quantityLeft, requireMarket } from "./listing-live.js";
import type { ListingState, SealedCommitState, SealedState } from "./market-state.js";

type Sold = Extract<ListingSettledData, { outcome: "sold" }>;

/** The settlement of the sealed listing at `leaf` at time `now` (state `state`), or null while commits or reveals can still change it, or once it settled. */
export function listingSettlement(
  state: TableState,
  leaf: string,
  listing: ListingState,
  now: number,
): ListingSettledData | null {
  const sealed = listing.sealed;
  if (
    !sealed ||
    sealed.settled !== null ||
    listing.status === "withdrawn" ||
    listing.status === "superseded" ||
    now < sealed.until
  )
    return null;
  const commits = Object.entries(sealed.commits);
  if (commits.some(([, c]) => c.bid === null) && now < sealed.reveal_until) return null;
  if (commits.length === 0) return { listing: leaf, outcome: "unsold", reason: "no_bids" };
  const revealed = commits
    .filter((c): c is [string, SealedCommitState & { bid: number }] => c[1].bid !== null)
    .sort((a, b) => b[1].bid - a[1].bid || a[1].seq - b[1].seq);
  const [best, second] = revealed;
  if (!best) return { listing: leaf, outcome: "unsold", reason: "no_reveals" };
  if (best[1].bid < sealed.reserve) return { listing: leaf, outcome: "unsold", reason: "below_reserve" };
  const [owner, commit] = best;
  const price = Math.max(second?.[1].bid ?? sealed.reserve, sealed.reserve);
  return {
    listing: leaf,
    outcome: "sold",
    winner: { owner, key: ownerKeyOf(state, owner) ?? "" },
    bid: commit.seq,
    price,
    currency: sealed.currency,
  };
}

/** When an unsettled sealed listing settles without another entry: at `until` when nobody committed, else at `reveal_until`. */
export function sealedSettlesAt(sealed: SealedState): number {
  return Object.keys(sealed.commits).length === 0 ? sealed.until : sealed.reveal_until;
}

/** The earliest time a sealed listing of an open market settles on its own (when to set the alarm), or null for none. */
export function sealedDeadline(state: TableState): number | null {
  if (!state.market || state.closed) return null;
  let earliest: number | null = null;
  for (const leaf of state.market.sealed) {
    const sealed = own(state.market.listings, leaf)?.sealed;
    const at = sealed ? sealedSettlesAt(sealed) : null;
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

/** The drafts the alarm submits at `now`: one settlement per sealed listing due by then, in the order they were listed. */
export function dueListingSettlements(state: TableState, now: number): SystemDraftOf<"listing_settled">[] {
  if (!state.market || state.closed) return [];
  const market = state.market;
  return market.sealed.flatMap((leaf) => {
    const data = listingSettlement(state, leaf, listingOf(market, leaf), now);
    return data ? [listingSettledDraft(state, data)] : [];
  });
}

/** The `listing_settled` entry for `data` (the relay's own, unsigned). */
export function listingSettledDraft(state: TableState, data: ListingSettledData): SystemDraftOf<"listing_settled"> {
  return { table: state.table, seat: null, kind: "system", subkind: "listing_settled", data, author: null };
}

/** Throws unless `draft` is exactly the settlement of its listing due at `now` (a settlement the relay submits on its own). */
export function checkListingSettled(state: TableState, draft: SystemDraftOf<"listing_settled">, now: number): void {
  const market = requireMarket(state, "settling a sealed listing");
  const listing = listingOf(market, draft.data.listing);
  const due = listingSettlement(state, draft.data.listing, listing, now);
  if (due === null) {
    const why = !listing.sealed
      ? "it takes no sealed bids"
      : listing.sealed.settled !== null
        ? `it settled at entry ${listing.sealed.settled}`
        : `it is not due at ${now}`;
    throw new TrestleError("E_NOT_ALLOWED", `listing entry ${listing.seq} does not settle now: ${why}`, {
      listing: draft.data.listing,
    });
  }
  if (canonicalize(due) !== canonicalize(draft.data)) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `listing entry ${listing.seq} settles as ${canonicalize(due)}, not as recorded`,
      { settlement: due },
    );
  }
}

/** The settlement the entry (a reveal, judged on the state after it) causes, if it decides its listing. */
export function settlementCausedBy(state: TableState, entry: UnchainedEntry): SystemDraftOf<"listing_settled"> | null {
  if (entry.kind !== "bid" || entry.op !== "reveal" || !state.market) return null;
  const data = listingSettlement(state, entry.listing, listingOf(state.market, entry.listing), entry.ts);
  return data ? listingSettledDraft(state, data) : null;
}

/** The match a sale causes: the listing (the offer) and the winner's commit (the want), for the quantity left, at the settled price. */
export function saleMatch(state: TableState, data: Sold): SystemDraftOf<"match"> {
  const listing = listingOf(requireMarket(state, "a sale"), data.listing);
  const commit = own(listing.sealed?.commits ?? {}, data.winner.owner);
  if (!commit)
    throw new TrestleError("E_INTERNAL", `no commit by ${data.winner.owner} on listing entry ${listing.seq}`);
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "match",
    data: {
      offer: data.listing,
      want: commit.leaf,
      offer_seq: listing.seq,
      want_seq: commit.seq,
      quantity: quantityLeft(listing),
      words: [],
      offered_by: { owner: listing.owner, key: ownerKeyOf(state, listing.owner) ?? "" },
      wanted_by: data.winner,
      sale: { price: data.price, currency: data.currency },
    },
    author: null,
  };
}

/** Folds a `listing_settled` entry: the listing is settled (with its winner, when sold) and leaves the alarm's index. */
export function applyListingSettled(state: TableState, entry: { seq: number; data: ListingSettledData }): void {
  const market = requireMarket(state, "a sealed listing's settlement");
  const sealed = own(market.listings, entry.data.listing)?.sealed;
  if (!sealed) return;
  sealed.settled = entry.seq;
  sealed.winner = entry.data.outcome === "sold" ? entry.data.winner.owner : null;
  market.sealed = market.sealed.filter((l) => l !== entry.data.listing);
}
