/**
 * A room's part of the folded state (docs/SPEC.md §5.10): invites the creator issued, owners
 * admitted by invite (parties), offers and grants by the leaf hash of the entry that made them,
 * and the outcome. Liveness is derived, never stored: an offer or grant is live while nothing
 * ended it, its author is still seated and `now` (the ts of the entry being judged) is before its
 * expiry, so a replay judges it exactly as the relay did.
 */
import type { Currency, RoomOutcome, Terms } from "../schemas/room.js";
import type { AuctionK, AuctionSides } from "../schemas/mechanism.js";
import type { DealTerms } from "../schemas/deal.js";

/** An invite: `open` until a party joins with it (`used`) or the creator rotates it (`replaced`), at entry `ended`. */
export interface InviteState {
  seq: number;
  expires: number;
  state: "open" | "used" | "replaced";
  ended: number | null;
  /** The one owner key that may use it (no code needed), when the creator bound it to one (§5.15). */
  owner_key?: string;
}

/** An owner admitted by invite (or, in a match's room, as the match's other side: `invite` null): its key, the invite it used, when it joined and, once ejected, when. */
export interface PartyState {
  public_key: string;
  invite: string | null;
  joined: number;
  ejected: number | null;
}

/** How an offer stopped being open to answers (or `open` while nothing ended it). */
export type OfferStatus = "open" | "withdrawn" | "rejected" | "countered" | "accepted";

/** An offer or counter, by the leaf of its entry. */
export interface OfferState {
  seq: number;
  seat: string;
  owner: string;
  kind: "offer" | "counter";
  terms: Terms;
  expires: number | null;
  /** The offer this counter ended (its leaf), for a counter. */
  counters: string | null;
  status: OfferStatus;
  /** The entry that ended it, and for an accepted offer the seat that accepted. */
  ended: number | null;
  accepted_by: string | null;
}

/** A grant, by the leaf of its entry. */
export interface GrantState {
  seq: number;
  seat: string;
  grantee: string;
  scope: string;
  expires: number;
  revoked: number | null;
}

/** Per side of an auction: the buyer's and the seller's value of something, null until it exists. */
export interface BySide<T> {
  buyer: T | null;
  seller: T | null;
}

/** A sealed-bid auction (§5.11), by the leaf of its open entry: its terms, each side's commitment and revealed bid, and its settlement. */
export interface AuctionState {
  seq: number;
  /** The seat that opened it. */
  seat: string;
  sides: AuctionSides;
  k: AuctionK;
  currency: Currency;
  deadline: number;
  reveal_deadline: number;
  commits: BySide<string>;
  bids: BySide<number>;
  /** The auction_settled entry, and the price when it settled with a deal. */
  settled: number | null;
  price: number | null;
}

/** A deal on an accepted offer (by the offer's leaf): its final terms, their hash, and each party owner's deal_sign by owner name (seq); done when both signed. */
export interface DealState {
  terms: DealTerms;
  terms_sha256: string;
  signed: Record<string, number>;
}

/** Everything a room adds to the table state. */
export interface RoomState {
  invites: Record<string, InviteState>;
  parties: Record<string, PartyState>;
  offers: Record<string, OfferState>;
  grants: Record<string, GrantState>;
  auctions: Record<string, AuctionState>;
  /** Deals on accepted offers, by the offer's leaf (opened by the accept, signed by deal_sign). */
  deals: Record<string, DealState>;
  /** How the room closed; a deal names the accepted offer or the auction it settled in. */
  outcome: { seq: number; outcome: RoomOutcome; offer: string | null; auction: string | null } | null;
}

/** The room state of a room that was just opened. */
export function emptyRoom(): RoomState {
  return { invites: {}, parties: {}, offers: {}, grants: {}, auctions: {}, deals: {}, outcome: null };
}
