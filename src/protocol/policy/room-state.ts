/**
 * A room's part of the folded state (docs/SPEC.md §5.10): invites the creator issued, owners
 * admitted by invite (parties), offers and grants by the leaf hash of the entry that made them,
 * and the outcome. Liveness is derived, never stored: an offer or grant is live while nothing
 * ended it, its author is still seated and `now` (the ts of the entry being judged) is before its
 * expiry, so a replay judges it exactly as the relay did.
 */
import { TrestleError } from "../errors.js";
import { own } from "../records.js";
import type { Currency, RoomOutcome, Terms } from "../schemas/room.js";
import type { AuctionK, AuctionSides } from "../schemas/mechanism.js";
import type { TableState } from "./state.js";

/** An invite: `open` until a party joins with it (`used`) or the creator rotates it (`replaced`), at entry `ended`. */
export interface InviteState {
  seq: number;
  expires: number;
  state: "open" | "used" | "replaced";
  ended: number | null;
}

/** An owner admitted by invite: its key, the invite it used, when it joined and, once ejected, when. */
export interface PartyState {
  public_key: string;
  invite: string;
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

/** Everything a room adds to the table state. */
export interface RoomState {
  invites: Record<string, InviteState>;
  parties: Record<string, PartyState>;
  offers: Record<string, OfferState>;
  grants: Record<string, GrantState>;
  auctions: Record<string, AuctionState>;
  /** How the room closed; a deal names the accepted offer or the auction it settled in. */
  outcome: { seq: number; outcome: RoomOutcome; offer: string | null; auction: string | null } | null;
}

/** The room state of a room that was just opened. */
export function emptyRoom(): RoomState {
  return { invites: {}, parties: {}, offers: {}, grants: {}, auctions: {}, outcome: null };
}

/** The room state; E_NOT_ALLOWED when the table is not a room (its config has no `room`). */
export function requireRoom(state: TableState, what: string): RoomState {
  if (!state.room) throw new TrestleError("E_NOT_ALLOWED", `${what} only happens in a room (a table whose config has "room")`);
  return state.room;
}

/** Whether seat `seat` has joined, not left, and held its name when entry `since` was written (a name seated again after a revocation, §5.13, does not revive what the revoked key wrote). */
function seated(state: TableState, seat: string, since: number): boolean {
  const held = own(state.seats, seat);
  return held !== undefined && held.left === null && held.joined < since;
}

/** Why `offer` is not live at `now`, or null when it is. */
export function offerNotLive(state: TableState, offer: OfferState, now: number): string | null {
  if (offer.status !== "open") return `it was ${offer.status} at entry ${offer.ended}`;
  if (offer.expires !== null && now >= offer.expires) return `it expired at ${offer.expires}`;
  if (!seated(state, offer.seat, offer.seq)) return `its author ${offer.seat} left the room`;
  return null;
}

/** Why `grant` is not live at `now`, or null when it is. */
export function grantNotLive(state: TableState, grant: GrantState, now: number): string | null {
  if (grant.revoked !== null) return `it was revoked at entry ${grant.revoked}`;
  if (now >= grant.expires) return `it expired at ${grant.expires}`;
  if (!seated(state, grant.seat, grant.seq)) return `its grantor ${grant.seat} left the room`;
  return null;
}

/** The live offers and counters at `now`, by leaf, oldest first. */
export function liveOffers(state: TableState, now: number): [string, OfferState][] {
  const offers = Object.entries(state.room?.offers ?? {});
  return offers.filter(([, o]) => offerNotLive(state, o, now) === null).sort((a, b) => a[1].seq - b[1].seq);
}

/** The live grants at `now`, by leaf, oldest first: derived from the ledger, never stored. */
export function liveGrants(state: TableState, now: number): [string, GrantState][] {
  const grants = Object.entries(state.room?.grants ?? {});
  return grants.filter(([, g]) => grantNotLive(state, g, now) === null).sort((a, b) => a[1].seq - b[1].seq);
}
