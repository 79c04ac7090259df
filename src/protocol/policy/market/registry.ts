/**
 * The market's part of admit and the fold (docs/SPEC.md §5.15): which market kind judges and folds
 * a draft, the matches a listing causes, the settlement and match sealed bids cause, and the
 * market's system entries. admit.ts and apply.ts
 * call these; everything else about markets stays in this folder.
 */
import { leafOf } from "../../ledger/chain.js";
import { MarketKindSchema, type MarketKind } from "../../schemas/market.js";
import type { AuthoredDraft, SystemDraftOf, SystemEntryOf, UnchainedEntry } from "../../schemas/entry.js";
import type { TableState } from "../state.js";
import { matchRoomId } from "./citation.js";
import { requireMarket } from "./listing-live.js";
import { applyListing, applyUnlist, checkListing, checkUnlist } from "./listings.js";
import { matchesFor } from "./matching.js";
import { applyDealRecorded } from "./recorded-deals.js";
import { applyBid, checkBid } from "./sealed-bids.js";
import { saleMatch, settlementCausedBy } from "./sealed-settlement.js";

const MARKET_KINDS: ReadonlySet<string> = new Set(MarketKindSchema.options);

/** Whether `kind` is a market kind (one of MarketKindSchema's). */
export function isMarketKind(kind: string): kind is MarketKind {
  return MARKET_KINDS.has(kind);
}

/** Throws the refusal for a market kind draft at `now` (E_NOT_ALLOWED outside a market); other kinds pass. */
export function checkMarketKind(state: TableState, draft: AuthoredDraft, now: number): void {
  if (draft.kind === "listing") checkListing(state, draft, now);
  else if (draft.kind === "unlist") checkUnlist(state, draft, now);
  else if (draft.kind === "bid") checkBid(state, draft, now);
}

/** Folds an admitted market kind entry into the market state; other entries are left alone. */
export function applyMarketKind(state: TableState, entry: UnchainedEntry): void {
  if (!state.market) return;
  if (entry.kind === "listing") applyListing(state, state.market, entry, leafOf(entry));
  else if (entry.kind === "unlist") applyUnlist(state.market, entry);
  else if (entry.kind === "bid") applyBid(state, entry, leafOf(entry));
}

/**
 * What an applied entry causes, each applied by the caller before the next is asked for: a
 * listing's matches (a seat's or one posted from a group), judged at its own time; the settlement a deciding reveal causes; and the
 * match of a sale (after that settlement, or after one the alarm submitted). Nothing for any other entry.
 */
export function* marketConsequences(
  state: TableState,
  entry: UnchainedEntry,
): Generator<SystemDraftOf<"match"> | SystemDraftOf<"listing_settled">> {
  if (!state.market) return;
  if (entry.kind === "listing" || (entry.kind === "system" && entry.subkind === "group_listing"))
    return yield* matchesFor(state, state.market, leafOf(entry), entry.ts);
  const settled =
    entry.kind === "system" && entry.subkind === "listing_settled" ? entry : settlementCausedBy(state, entry);
  if (!settled) return;
  if (settled !== entry) yield settled as SystemDraftOf<"listing_settled">;
  if (settled.data.outcome === "sold") yield saleMatch(state, settled.data);
}

/** Folds a match entry: the match is kept by its seq, with its leaf, the id of its room and, for a sale, its price. */
export function applyMatch(
  state: TableState,
  entry: Pick<SystemEntryOf<"match">, "seq" | "data"> & UnchainedEntry,
): void {
  const market = requireMarket(state, "a match");
  const leaf = leafOf(entry);
  const { offer, want, quantity, offered_by, wanted_by, sale } = entry.data;
  market.matches[String(entry.seq)] = {
    leaf,
    offer,
    want,
    quantity,
    offered_by,
    wanted_by,
    room: matchRoomId(leaf),
    deal: null,
    sale: sale ?? null,
  };
}

/** Folds a recorded deal into the market. */
export function applyMarketDeal(
  state: TableState,
  entry: SystemEntryOf<"deal_recorded"> | (SystemDraftOf<"deal_recorded"> & { seq: number }),
): void {
  applyDealRecorded(requireMarket(state, "a deal record"), entry);
}
