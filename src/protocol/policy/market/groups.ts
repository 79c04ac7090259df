/**
 * A market's chat groups (docs/SPEC.md §5.15 "Groups", decision 0500). The creator binds a group
 * with a one-time code it signed (`group_bound`: the code request is the creator's statement, the
 * group where it was redeemed the relay's word) and unbinds it with a signed statement
 * (`group_unbound`). From a bound group a member posts listings the relay attests
 * (`group_listing`: `via` the platform, no seat, no signature), judged by the same rules as a seat's
 * listing, folded and matched like one, and withdraws them (`group_unlist`: only a listing posted
 * from a group, never a seat's signed one). Nothing here commits anybody: a match is not a deal.
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { LIMITS } from "../../limits/limits.js";
import type { SystemDraftOf, UnchainedEntry } from "../../schemas/entry.js";
import { ownerKeyOf } from "../owners.js";
import type { TableState } from "../state.js";
import { listingWords } from "./listing-words.js";
import { endListing, listingOf, liveListing, memberGone, requireMarket } from "./listing-live.js";
import { checkListingOwner, checkListingTerms } from "./listings.js";
import type { GroupState, MarketState } from "./market-state.js";

/** How long after the creator signed a code request a group may still be bound with its code: the code's 10 minutes and the 5-minute clock window. */
export const GROUP_CODE_TTL_MS = 10 * 60 * 1000 + LIMITS.auth_window_ms;

/** The key a bound group is kept under: its platform and id. */
export function groupKey(platform: string, group: string): string {
  return `${platform}:${group}`;
}

/** The group bound as `platform`/`group`; E_FORBIDDEN when the market has no such group. */
export function boundGroup(market: MarketState, platform: string, group: string): GroupState {
  const bound = own(market.groups, groupKey(platform, group));
  if (!bound)
    throw new TrestleError("E_FORBIDDEN", `no ${platform} group ${group} is bound to this market`, {
      reason: "group_not_bound",
    });
  return bound;
}

function checkCreator(state: TableState, author: { key: string }, by: string): void {
  if (by !== state.creator || author.key !== ownerKeyOf(state, state.creator))
    throw new TrestleError("E_NOT_OWNER", `only the market's creator ${state.creator} binds and unbinds its groups`);
}

/** Throws the refusal for a group binding at `now`: the creator's code request, not too old, a group not bound yet, room for one more. */
export function checkGroupBound(state: TableState, draft: SystemDraftOf<"group_bound">, now: number): void {
  const market = requireMarket(state, "binding a chat group");
  const { platform, group, ts } = draft.data;
  checkCreator(state, draft.author, draft.data.by);
  if (ts > now + LIMITS.auth_window_ms || now - ts > GROUP_CODE_TTL_MS)
    throw new TrestleError("E_EXPIRED", "the code request that binds this group is too old (or from the future)");
  if (own(market.groups, groupKey(platform, group)))
    throw new TrestleError("E_NOT_ALLOWED", `${platform} group ${group} is already bound to this market`, {
      reason: "group_bound",
    });
  if (Object.keys(market.groups).length >= LIMITS.market_groups)
    throw new TrestleError("E_NOT_ALLOWED", `a market has at most ${LIMITS.market_groups} groups bound at once`, {
      reason: "market_groups",
      limit: LIMITS.market_groups,
    });
}

/** Folds a group binding: the group is bound. */
export function applyGroupBound(state: TableState, entry: Extract<UnchainedEntry, { subkind: "group_bound" }>): void {
  const { platform, group, lang } = entry.data;
  requireMarket(state, "binding a chat group").groups[groupKey(platform, group)] = {
    platform,
    group,
    lang,
    seq: entry.seq,
  };
}

/** Throws the refusal for an unbinding at `now`: the creator's, signed within the clock window, of a bound group. */
export function checkGroupUnbound(state: TableState, draft: SystemDraftOf<"group_unbound">, now: number): void {
  const market = requireMarket(state, "unbinding a chat group");
  checkCreator(state, draft.author, draft.data.by);
  if (Math.abs(now - draft.data.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the unbinding's ts is outside the 5-minute window");
  boundGroup(market, draft.data.platform, draft.data.group);
}

/** Folds an unbinding: the group is no longer bound (listings already posted from it stay). */
export function applyGroupUnbound(
  state: TableState,
  entry: Extract<UnchainedEntry, { subkind: "group_unbound" }>,
): void {
  delete requireMarket(state, "unbinding a chat group").groups[groupKey(entry.data.platform, entry.data.group)];
}

/** Throws the refusal for a listing posted from a group at `now`: a bound group on its platform, an owner who is a member, and every rule a seat's listing meets. */
export function checkGroupListing(state: TableState, draft: SystemDraftOf<"group_listing">, now: number): void {
  const market = requireMarket(state, "a listing from a group");
  const { owner, via, group } = draft.data;
  boundGroup(market, via, group);
  const gone = memberGone(state, owner);
  if (gone !== null) throw new TrestleError("E_FORBIDDEN", gone);
  checkListingTerms(state, draft.data, now);
  checkListingOwner(state, market, owner, draft.data, now);
}

/** Folds a listing posted from a group (whose leaf is `leaf`): open and indexed like a seat's, with no seat and its `via`. */
export function applyGroupListing(
  state: TableState,
  entry: Extract<UnchainedEntry, { subkind: "group_listing" }>,
  leaf: string,
): void {
  const market = requireMarket(state, "a listing from a group");
  const d = entry.data;
  market.listings[leaf] = {
    seq: entry.seq,
    seat: null,
    via: d.via,
    owner: d.owner,
    side: d.side,
    title: d.title,
    category: d.category,
    quantity: d.quantity,
    closed: 0,
    price: d.price ?? null,
    expires: d.expires,
    words: listingWords(d.title),
    supersedes: null,
    status: "open",
    ended: null,
    sealed: null,
  };
  market.open[d.category]?.[d.side].push(leaf);
}

/** Throws the refusal for a withdrawal from a group at `now`: a bound group, the owner's own listing, posted from a group, live. */
export function checkGroupUnlist(state: TableState, draft: SystemDraftOf<"group_unlist">, now: number): void {
  const market = requireMarket(state, "withdrawing from a group");
  const { owner, via, group, listing } = draft.data;
  boundGroup(market, via, group);
  const found = listingOf(market, listing);
  if (found.owner !== owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `listing ${listing.slice(0, 16)}… is ${found.owner}'s: only its owner withdraws it`,
    );
  if (found.seat !== null)
    throw new TrestleError(
      "E_FORBIDDEN",
      `listing ${listing.slice(0, 16)}… was signed by seat ${found.seat}: only a seat of its owner withdraws it`,
      { reason: "signed" },
    );
  liveListing(state, market, listing, now);
}

/** Folds a withdrawal from a group: the listing is withdrawn. */
export function applyGroupUnlist(state: TableState, entry: Extract<UnchainedEntry, { subkind: "group_unlist" }>): void {
  const market = requireMarket(state, "withdrawing from a group");
  endListing(market, entry.data.listing, listingOf(market, entry.data.listing), "withdrawn", entry.seq);
}
