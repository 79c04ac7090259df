/**
 * What is live in a room at a time (docs/SPEC.md §5.10): offers and grants whose authors are still
 * seated and that have not ended or expired, derived from the folded state, never stored.
 */
import { TrestleError } from "../errors.js";
import { own } from "../encoding/records.js";
import type { GrantState, OfferState, RoomState } from "./room-state.js";
import type { TableState } from "./state.js";

/** The room state; E_NOT_ALLOWED when the table is not a room (its config has no `room`: a market's members are not a room). */
export function requireRoom(state: TableState, what: string): RoomState {
  if (!state.room || !state.config.room)
    throw new TrestleError("E_NOT_ALLOWED", `${what} only happens in a room (a table whose config has "room")`);
  return state.room;
}

/** The state of the owners a room or a market admits by invite; E_NOT_ALLOWED at any other table. */
export function requireGuests(state: TableState, what: string): RoomState {
  if (!state.room) throw new TrestleError("E_NOT_ALLOWED", `${what} only happens in a room or a market`);
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
