/**
 * Who gets into a room or a market (docs/SPEC.md §5.10, §5.15, decisions 0220, 0355, 0460): the
 * creator issues invites (each maybe bound to one owner key) and ejects seats with its own
 * signature; an owner new to the table joins with a live invite and its own key, and becomes a
 * party (a market's member); in a match's room the match's other side joins with its own key and
 * no invite; ejecting a party's seat ejects the party, all its seats. Pure: `check*` judge a draft
 * at time `now`, `apply*` fold an entry.
 */
import { fromBase64url } from "../encoding/bytes.js";
import { isStrongPublicKey } from "../signing/crypto.js";
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";
import { own } from "../encoding/records.js";
import type { JoinStatement } from "../schemas/join.js";
import type { SystemDraftOf, SystemEntryOf } from "../schemas/entry.js";
import { ownerEntries, ownerKeyOf } from "./owners.js";
import { requireGuests } from "./room-live.js";
import { otherSide } from "./market/citation.js";
import type { PartyState, RoomState } from "./room-state.js";
import { presentSeats, type TableState } from "./state.js";

/** Throws unless `author` is the room creator's own signature on an entry `by` names. */
function checkCreator(state: TableState, by: string, authorKey: string, what: string): void {
  if (by !== state.creator) throw new TrestleError("E_FORBIDDEN", `only the room's creator (${state.creator}) ${what}`);
  if (authorKey !== ownerKeyOf(state, state.creator))
    throw new TrestleError("E_BAD_SIGNATURE", `not signed by ${state.creator}'s owner key`);
}

/** Throws the refusal for the creator's invite (a new one, or a rotation of `replaces`) at `now`. */
export function checkInvite(state: TableState, draft: SystemDraftOf<"invite_issued">, now: number): void {
  const room = requireGuests(state, "an invite");
  const { invite, expires, replaces, owner_key } = draft.data;
  checkCreator(state, draft.data.by, draft.author.key, "issues invites");
  if (expires <= now) throw new TrestleError("E_EXPIRED", "the invite expires before it is issued");
  if (expires > now + LIMITS.invite_ttl_max_ms)
    throw new TrestleError("E_EXPIRED", `an invite may be valid for at most ${LIMITS.invite_ttl_max_ms} ms`);
  if (own(room.invites, invite)) throw new TrestleError("E_INVITE", `invite ${invite} was already issued here`);
  const most = state.market ? LIMITS.market_members : LIMITS.invites;
  if (Object.keys(room.invites).length >= most)
    throw new TrestleError("E_TOO_LARGE", `a ${state.market ? "market" : "room"} issues at most ${most} invites`);
  if (owner_key !== undefined && !isStrongPublicKey(fromBase64url(owner_key))) {
    throw new TrestleError("E_SCHEMA", "owner_key is not a usable Ed25519 public key (small-order or non-canonical)");
  }
  if (replaces !== undefined) {
    const old = own(room.invites, replaces);
    if (!old || old.state !== "open") {
      throw new TrestleError(
        "E_INVITE",
        `invite ${replaces} cannot be rotated: it is ${old ? old.state : "not one of this room's"}`,
      );
    }
  }
}

/** Folds an issued invite; a rotation ends the invite it replaces. */
export function applyInvite(
  room: RoomState,
  entry: SystemEntryOf<"invite_issued"> | (SystemDraftOf<"invite_issued"> & { seq: number }),
): void {
  const { invite, expires, replaces, owner_key } = entry.data;
  room.invites[invite] = {
    seq: entry.seq,
    expires,
    state: "open",
    ended: null,
    ...(owner_key === undefined ? {} : { owner_key }),
  };
  const old = replaces === undefined ? undefined : own(room.invites, replaces);
  if (old) Object.assign(old, { state: "replaced", ended: entry.seq });
}

/** Whether a join names an invite (or a key of its own): the joining owner is new to the table. */
export function joinsByInvite(join: JoinStatement): boolean {
  return join.invite !== undefined || join.owner_key !== undefined;
}

/** The key a join must be signed with: its own `owner_key` for a join by invite, else the owner's known key. */
export function joinSignerKey(state: TableState, join: JoinStatement): string | undefined {
  return joinsByInvite(join) ? join.owner_key : ownerKeyOf(state, join.owner);
}

/** Whether a join may come by the plain join route without a code: its invite is bound to a key (admit then checks it is the join's own), or it names no invite (a match's other side). */
export function joinsWithoutCode(state: TableState | null, join: JoinStatement): boolean {
  if (join.invite === undefined) return true;
  const invite = state?.room ? own(state.room.invites, join.invite) : undefined;
  return invite?.owner_key !== undefined;
}

/** The most owners a room or market admits by invite (or a match's other side), ejected ones included. */
function partyLimit(state: TableState): number {
  if (state.market) return state.config.market?.max_members ?? LIMITS.market_members;
  return Math.min(
    state.config.room?.max_parties ?? LIMITS.owners,
    LIMITS.owners - Object.keys(state.config.owners).length,
  );
}

/** Throws the refusal for a join by invite at `now` (the rest of the join is checked as for any join). */
export function checkInviteJoin(state: TableState, draft: SystemDraftOf<"seat_joined">, now: number): void {
  const room = requireGuests(state, "joining by invite");
  const { join } = draft.data;
  if (join.owner_key === undefined)
    throw new TrestleError("E_SCHEMA", "a join by invite names both invite and owner_key");
  if (join.invite === undefined) checkMatchJoin(state, join.owner, join.owner_key);
  else checkInviteUse(room, join.invite, join.owner_key, now);
  if (ownerKeyOf(state, join.owner) !== undefined)
    throw new TrestleError(
      "E_FORBIDDEN",
      `owner name "${join.owner}" is already taken in this room (an owner already here seats another bot with a plain join, without an invite)`,
    );
  if (!isStrongPublicKey(fromBase64url(join.owner_key))) {
    throw new TrestleError("E_SCHEMA", "owner_key is not a usable Ed25519 public key (small-order or non-canonical)");
  }
  if (ownerEntries(state).some(([, key]) => key === join.owner_key))
    throw new TrestleError(
      "E_FORBIDDEN",
      "that owner key is already an owner here (it seats another bot with a plain join, without an invite)",
    );
  if (draft.author.key !== join.owner_key)
    throw new TrestleError("E_BAD_SIGNATURE", "a join by invite is signed with its own owner_key");
  const parties = Object.keys(room.parties).length;
  const max = partyLimit(state);
  if (parties >= max)
    throw new TrestleError(
      "E_SEAT_LIMIT",
      `this ${state.market ? "market" : "room"} admits at most ${max} invited owners`,
    );
}

/** Throws unless `invite` of `room` is open at `now` and, when bound to a key, bound to `key`. */
function checkInviteUse(room: RoomState, id: string, key: string, now: number): void {
  const invite = own(room.invites, id);
  if (!invite) throw new TrestleError("E_INVITE", `invite ${id} was not issued in this room`, { reason: "unknown" });
  if (invite.state !== "open")
    throw new TrestleError("E_INVITE", `invite ${id} was ${invite.state} at entry ${invite.ended}`, {
      reason: invite.state,
    });
  if (now >= invite.expires)
    throw new TrestleError("E_INVITE", `invite ${id} expired at ${invite.expires}`, { reason: "expired" });
  if (invite.owner_key !== undefined && invite.owner_key !== key)
    throw new TrestleError("E_INVITE", `invite ${id} is for another owner key`, { reason: "other_key" });
}

/** Throws unless a join without an invite is, in the room of a match, the match's other side: its owner name and key as the match names them. */
function checkMatchJoin(state: TableState, owner: string, key: string): void {
  const citation = state.config.room?.match;
  if (!citation)
    throw new TrestleError(
      "E_INVITE",
      `${owner} is new to this table: an owner new to a room or market joins with an invite`,
      { reason: "no_invite" },
    );
  const creatorKey = ownerKeyOf(state, state.creator) ?? "";
  const other = otherSide(citation, creatorKey);
  if (!other || other.key !== key || other.owner !== owner) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `only the match's other side (${other?.owner ?? "unknown"}, with its key) joins this room without an invite`,
    );
  }
}

/** Throws unless the owner of a join that names no invite may still join: a party that was not ejected. */
export function checkPartyRejoin(state: TableState, owner: string): void {
  const party = state.room ? own(state.room.parties, owner) : undefined;
  if (party && party.ejected !== null)
    throw new TrestleError("E_FORBIDDEN", `${owner} was ejected from this room at entry ${party.ejected}`);
}

/** Folds a join by invite (or a match's other side): the invite is used, the owner becomes a party. */
export function applyPartyJoin(room: RoomState, join: JoinStatement, seq: number): void {
  if (join.owner_key === undefined) return;
  const invite = join.invite === undefined ? undefined : own(room.invites, join.invite);
  if (invite) Object.assign(invite, { state: "used", ended: seq });
  room.parties[join.owner] = { public_key: join.owner_key, invite: join.invite ?? null, joined: seq, ejected: null };
}

/** Throws the refusal for the creator's ejection of a seat. */
export function checkEject(state: TableState, draft: SystemDraftOf<"seat_ejected">): void {
  requireGuests(state, "ejecting a seat");
  checkCreator(state, draft.data.by, draft.author.key, "ejects seats");
  const seat = own(state.seats, draft.data.seat);
  if (!seat || seat.left !== null)
    throw new TrestleError("E_UNKNOWN_SEAT", `seat "${draft.data.seat}" is not in this room`);
  if (seat.owner === state.creator) throw new TrestleError("E_NOT_ALLOWED", "the creator does not eject its own seats");
}

/** The invited party that holds `seat`, if its owner came by invite (an owner the config lists is never one). */
function partyOf(state: TableState, seat: string): PartyState | undefined {
  const owner = own(state.seats, seat)?.owner;
  return owner === undefined || !state.room ? undefined : own(state.room.parties, owner);
}

/** Folds an ejection: the seat's owner, if a party, is ejected and can no longer join (the caused seat_lefts remove its seats). */
export function applyEject(state: TableState, entry: Pick<SystemEntryOf<"seat_ejected">, "seq" | "data">): void {
  const party = partyOf(state, entry.data.seat);
  if (party) party.ejected = entry.seq;
}

/**
 * The seat_lefts an ejection of `seat` causes, in seat-join order: an invited party's ejection
 * ejects the party, so every present seat of its owner leaves; an owner the config lists loses
 * that seat alone (the signed config keeps it an owner, and it may seat again).
 */
export function ejectedSeatsLeft(state: TableState, seat: string): SystemDraftOf<"seat_left">[] {
  const owner = own(state.seats, seat)?.owner;
  const seats = partyOf(state, seat)
    ? presentSeats(state)
        .filter((s) => s.owner === owner)
        .map((s) => s.name)
    : [seat];
  return seats.map((name) => ({
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "seat_left",
    data: { seat: name, reason: "ejected" },
    author: null,
  }));
}
