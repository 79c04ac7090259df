/**
 * A market's part of the folded state (docs/SPEC.md §5.15, decision 0460): every listing by the
 * leaf of the entry that wrote it, the matches by seq, per category the listings still open on
 * each side, in the order they were written (the index matching reads; sealed listings are not in
 * it), and the sealed listings not settled yet (the index the alarm reads). Liveness is derived, never
 * stored: a listing is live while it is open, before its expiry at the time judged, its author
 * still seated, and with quantity left, so a replay judges it exactly as the relay did.
 */
import type { ChatPlatform } from "../../schemas/control.js";
import type { ListingSide, PriceRange } from "../../schemas/market.js";
import type { Lang } from "../../schemas/owner.js";
import type { MatchParty, Sale } from "../../schemas/match.js";
import type { Currency } from "../../schemas/money.js";
import type { Terms } from "../../schemas/room.js";

/** How a listing stopped being open (`open` while nothing ended it; `filled` once deals closed its whole quantity). */
export type ListingStatus = "open" | "withdrawn" | "superseded" | "filled";

/** One owner's sealed bid on a listing: its commit entry (seq, leaf, the seat that wrote it), the commitment, and the bid once revealed. */
export interface SealedCommitState {
  seq: number;
  leaf: string;
  seat: string;
  commitment: string;
  bid: number | null;
}

/** A listing's sealed bids: the deadlines, the reserve and currency (its price's min and currency), each owner's commit by owner name, the settlement's entry and, when sold, the winning owner. */
export interface SealedState {
  until: number;
  reveal_until: number;
  reserve: number;
  currency: Currency;
  commits: Record<string, SealedCommitState>;
  settled: number | null;
  winner: string | null;
}

/** A listing, by the leaf of its entry. */
export interface ListingState {
  seq: number;
  /** The seat that signed it; null for a listing a member posted from a group, which the relay attests. */
  seat: string | null;
  /** The platform a group listing came from (its `via`); null for a seat's signed listing. */
  via: ChatPlatform | null;
  owner: string;
  side: ListingSide;
  title: string;
  category: string;
  quantity: number;
  /** Quantity closed by recorded deals. */
  closed: number;
  price: PriceRange | null;
  expires: number;
  /** The title's words as matching compares them (listing-words.ts). */
  words: string[];
  /** The listing this one superseded (its leaf). */
  supersedes: string | null;
  status: ListingStatus;
  /** The entry that ended it. */
  ended: number | null;
  /** Its sealed bids; null for a listing that takes none. */
  sealed: SealedState | null;
}

/** A match, by the seq of its entry (decimal): the two listings, the quantity, both owners, its room's id and, once recorded, its deal's entry. */
export interface MatchState {
  leaf: string;
  offer: string;
  want: string;
  quantity: number;
  offered_by: MatchParty;
  wanted_by: MatchParty;
  room: string;
  deal: number | null;
  /** The settled price of a sale by sealed bids (whose `want` is the winner's commit, not a listing); null for a match by words. */
  sale: Sale | null;
  /** The recorded deal's terms, present only when both owners let the market show them (decision 0529). */
  price?: Terms;
}

/** The open listings of one category, by side, as leaves in the order they were written. */
export interface CategoryIndex {
  offer: string[];
  want: string[];
}

/** A chat group bound to the market (docs/SPEC.md §5.15 "Groups"): its platform and id, its language, and its group_bound entry. */
export interface GroupState {
  platform: ChatPlatform;
  group: string;
  lang: Lang;
  seq: number;
}

/** Everything a market adds to the table state. */
export interface MarketState {
  listings: Record<string, ListingState>;
  matches: Record<string, MatchState>;
  open: Record<string, CategoryIndex>;
  /** The sealed listings not settled yet, as leaves in the order they were written (the alarm reads them). */
  sealed: string[];
  /** How many deals the market recorded. */
  deals: number;
  /** The chat groups bound now, by `<platform>:<group>`. */
  groups: Record<string, GroupState>;
}

/** The market state of a market that was just opened. */
export function emptyMarket(categories: readonly string[]): MarketState {
  const open: Record<string, CategoryIndex> = {};
  for (const category of categories) open[category] = { offer: [], want: [] };
  return { listings: {}, matches: {}, open, sealed: [], deals: 0, groups: {} };
}
