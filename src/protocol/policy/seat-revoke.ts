/**
 * Revoking a seat (docs/SPEC.md §5.13, decision 0305): the seat's owner signs that one of its
 * present seats, held by a named key, leaves the table (the `seat_left` it causes has reason
 * `revoked`). From that entry on the key is refused here on every path (`checkNotRevoked`) and never
 * seats again; the seat's name is free again for the same owner only, so a declared seat can be
 * seated again with a new key. A revocation lands while the table is paused and after it closed:
 * it is a brake. Pure: `checkRevoke` judges, `applyRevoke` folds, `revokeStatement` rebuilds what
 * was signed.
 */
import { TrestleError } from "../errors.js";
import { own } from "../encoding/records.js";
import type { SystemDraftOf, SystemEntryOf } from "../schemas/entry.js";
import type { SeatRevokeStatement } from "../schemas/revoke.js";
import { ownerKeyOf } from "./owners.js";
import type { RevokedKeyState, SeatState, TableState } from "./state.js";

/** A revocation entry before the ledger assigns seq, ts, leaf and link. */
export type RevokeDraft = SystemDraftOf<"seat_revoked">;

/** The statement an owner signed (purpose `owner`) for a revocation entry. */
export function revokeStatement(entry: Pick<RevokeDraft, "table" | "data">): SeatRevokeStatement {
  const { owner, seat, seat_key, nonce } = entry.data;
  return { scope: "seat_revoke", table: entry.table, owner, seat, seat_key, nonce };
}

/** The ledger's nonce index key for a revocation: one nonce per owner per table. */
export function revokeNonceKey(entry: Pick<RevokeDraft, "data">): string {
  return `revoke:${entry.data.owner}:${entry.data.nonce}`;
}

/** The draft for a signed revocation statement; the key it must verify under is the named owner's (E_NOT_OWNER for anyone else). */
export function revokeDraft(state: TableState, statement: SeatRevokeStatement, sig: string): RevokeDraft {
  if (statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the revocation is for table "${statement.table}"`);
  const key = ownerKeyOf(state, statement.owner);
  if (key === undefined) throw new TrestleError("E_NOT_OWNER", `"${statement.owner}" is not an owner of this table`);
  const { owner, seat, seat_key, nonce } = statement;
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "seat_revoked",
    data: { owner, seat, seat_key, nonce },
    author: { key, sig },
  };
}

/** Throws the refusal for a revocation draft, or returns when the policy accepts it (paused or closed alike). */
export function checkRevoke(state: TableState, draft: RevokeDraft): void {
  const { owner, seat: name, seat_key } = draft.data;
  const listed = ownerKeyOf(state, owner);
  if (listed === undefined) throw new TrestleError("E_NOT_OWNER", `"${owner}" is not an owner of this table`);
  if (draft.author.key !== listed)
    throw new TrestleError("E_BAD_SIGNATURE", `the revocation is not signed by ${owner}'s owner key`);
  const seat = own(state.seats, name);
  if (!seat) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${name}" is not at this table`);
  if (seat.owner !== owner)
    throw new TrestleError("E_FORBIDDEN", `seat "${name}" is ${seat.owner}'s: only its own owner revokes it`);
  const earlier = revocationOf(state, seat_key);
  if (earlier)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `that key of seat "${earlier.seat}" was already revoked at entry ${earlier.seq}`,
    );
  if (seat.key !== seat_key) throw new TrestleError("E_NOT_ALLOWED", `that key does not hold seat "${name}"`);
  if (seat.left !== null)
    throw new TrestleError("E_NOT_ALLOWED", `seat "${name}" left the table at entry ${seat.left}`);
}

/** Folds a revocation: the key joins the table's revoked keys, and the seat's votes on open proposals no longer count (the caused seat_left removes the seat). */
export function applyRevoke(state: TableState, entry: Pick<SystemEntryOf<"seat_revoked">, "seq" | "data">): void {
  const { owner, seat, seat_key } = entry.data;
  state.revoked.push({ seat, owner, key: seat_key, seq: entry.seq });
  for (const proposal of state.proposals) proposal.votes = proposal.votes.filter((v) => v.seat !== seat);
}

/** The seat_left a revocation causes. */
export function revokedSeatLeft(state: TableState, seat: string): SystemDraftOf<"seat_left"> {
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "seat_left",
    data: { seat, reason: "revoked" },
    author: null,
  };
}

/** The revocation of `key` at this table, or undefined when it was never revoked. */
export function revocationOf(state: TableState, key: string): RevokedKeyState | undefined {
  return state.revoked.find((r) => r.key === key);
}

/** The keys revoked for seat name `seat`, newest first (a leaked key of a seat seated again is told apart by these). */
export function revokedKeysOf(state: TableState, seat: string): RevokedKeyState[] {
  return state.revoked.filter((r) => r.seat === seat).reverse();
}

/** The E_REVOKED refusal for a revoked key, naming the seat and the revocation entry. */
export function revokedError(revoked: RevokedKeyState): TrestleError {
  return new TrestleError(
    "E_REVOKED",
    `${revoked.owner} revoked this key of seat "${revoked.seat}" at entry ${revoked.seq}`,
    { seat: revoked.seat, revoked_at: revoked.seq },
  );
}

/** Throws E_REVOKED when `key` was revoked at this table. */
export function checkNotRevoked(state: TableState, key: string): void {
  const revoked = revocationOf(state, key);
  if (revoked) throw revokedError(revoked);
}

/** Whether seat `seat`'s name is free again for `owner`: its key was revoked (so it left) and `owner` is its owner. */
export function reseatable(state: TableState, seat: SeatState, owner: string): boolean {
  return seat.owner === owner && seat.left !== null && revocationOf(state, seat.key) !== undefined;
}

/** How many seat keys this table has seated in its life: the seats it holds, and each revoked key whose name was seated again. */
export function keysSeated(state: TableState): number {
  const replaced = state.revoked.filter((r) => own(state.seats, r.seat)?.key !== r.key).length;
  return Object.keys(state.seats).length + replaced;
}
