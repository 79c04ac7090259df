/**
 * Judging sub-table entries (docs/SPEC.md §5.9): at the parent, `subtable_opened` (a present seat
 * opens a child with a subset of the parent's seats, owners and keys unchanged) and
 * `subtable_result` (the relay reports a registered child's close, once); at the child, the
 * `table_opened` that seats the child's seats with their carried joins.
 */
import { fromBase64url } from "../encoding/bytes.js";
import { isStrongPublicKey } from "../signing/crypto.js";
import { TrestleError } from "../errors.js";
import { canonicalSha256 } from "../encoding/hash.js";
import { LIMITS } from "../limits/limits.js";
import { has, own } from "../encoding/records.js";
import type { TableConfig } from "../schemas/config.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import type { ParentLink } from "../schemas/subtable.js";
import { validateConfig } from "./config-check.js";
import type { SeatState, TableState } from "./state.js";
import { checkNotPaused } from "./pause.js";

/** Throws the refusal for a parent's `subtable_opened` draft, or returns when the policy accepts it. */
export function checkSubtableOpened(state: TableState, draft: SystemDraftOf<"subtable_opened">): void {
  const config = validateConfig(draft.data.config);
  if (config.parent !== state.table) {
    throw new TrestleError(
      "E_WRONG_TABLE",
      `the sub-table config names parent "${config.parent ?? ""}", not "${state.table}"`,
    );
  }
  if (config.id === state.table || has(state.subtables, config.id)) {
    throw new TrestleError("E_TABLE_EXISTS", `table "${config.id}" was already opened here`);
  }
  if (Object.keys(state.subtables).length >= LIMITS.subtables) {
    throw new TrestleError("E_NOT_ALLOWED", `a table opens at most ${LIMITS.subtables} sub-tables`);
  }
  const opener = own(state.seats, draft.data.opener);
  if (!opener || opener.left !== null)
    throw new TrestleError("E_UNKNOWN_SEAT", `seat "${draft.data.opener}" is not at this table`);
  checkNotPaused(state, opener.name);
  if (draft.author.key !== opener.key)
    throw new TrestleError("E_BAD_SIGNATURE", "not signed by the opening seat's key");
  const seats = config.seats ?? {};
  if (!has(seats, opener.name))
    throw new TrestleError("E_FORBIDDEN", "the opening seat must be one of the sub-table's seats");
  for (const [name, declared] of Object.entries(seats)) {
    const seat = own(state.seats, name);
    if (!seat || seat.left !== null)
      throw new TrestleError("E_UNKNOWN_SEAT", `seat "${name}" is not at the parent table`);
    if (seat.owner !== declared.owner || seat.human !== (declared.human ?? false)) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `seat "${name}" must keep its owner (${seat.owner}) and human flag in the sub-table`,
      );
    }
  }
  for (const [name, owner] of Object.entries(config.owners)) {
    if (own(state.config.owners, name)?.public_key !== owner.public_key) {
      throw new TrestleError("E_NOT_OWNER", `"${name}" is not an owner of the parent table with that key`);
    }
  }
}

/** Throws the refusal for a parent's `subtable_result` draft, or returns when the policy accepts it. */
export function checkSubtableResult(state: TableState, draft: SystemDraftOf<"subtable_result">): void {
  if (draft.author.key !== state.relay)
    throw new TrestleError("E_BAD_SIGNATURE", "a sub-table result is signed by this table's relay key");
  const child = own(state.subtables, draft.data.table);
  if (!child) throw new TrestleError("E_NOT_ALLOWED", `"${draft.data.table}" is not a sub-table of this table`);
  if (child.result !== null) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `sub-table "${draft.data.table}" already reported at entry ${child.result}`,
    );
  }
}

/** Throws the refusal for a child's opening entry: every declared seat carried once, by its declared owner, signed by the opener. */
export function checkChildOpening(config: TableConfig, draft: SystemDraftOf<"table_opened">): void {
  const link = draft.data.parent;
  if (!link || config.parent !== link.table) {
    throw new TrestleError("E_SCHEMA", "a sub-table is opened through its parent (POST /tables/:parent/subtables)");
  }
  const seats = config.seats ?? {};
  const carried = link.joins.map((j) => j.join.seat);
  if (carried.length !== Object.keys(seats).length || new Set(carried).size !== carried.length) {
    throw new TrestleError("E_SCHEMA", "a sub-table carries exactly one join for each of its seats");
  }
  const keys = new Set<string>();
  for (const { join, card } of link.joins) {
    const declared = own(seats, join.seat);
    if (!declared)
      throw new TrestleError("E_UNKNOWN_SEAT", `seat "${join.seat}" is not declared in the sub-table's config`);
    if (declared.owner !== join.owner || (declared.human ?? false) !== join.human) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `the carried join of "${join.seat}" does not match its declared owner and human flag`,
      );
    }
    if (!isStrongPublicKey(fromBase64url(join.seat_key)) || keys.has(join.seat_key)) {
      throw new TrestleError("E_SCHEMA", `the seat key of "${join.seat}" is not usable or not distinct`);
    }
    keys.add(join.seat_key);
    if (canonicalSha256(card) !== join.card_sha256)
      throw new TrestleError("E_SCHEMA", `the card of "${join.seat}" does not match card_sha256`);
  }
  const opener = link.joins.find((j) => j.join.seat === link.opener)?.join;
  if (!opener) throw new TrestleError("E_FORBIDDEN", "the opening seat must be one of the sub-table's seats");
  if (draft.author.key !== opener.seat_key)
    throw new TrestleError("E_BAD_SIGNATURE", "not signed by the opening seat's key");
  if (draft.data.creator !== opener.owner)
    throw new TrestleError("E_NOT_OWNER", "a sub-table's creator is its opening seat's owner");
}

/** The seats a child's opening entry seats (all joined at entry 1, in carried order). */
export function carriedSeats(link: ParentLink | undefined): Record<string, SeatState> {
  const seats: Record<string, SeatState> = {};
  for (const { join, card } of link?.joins ?? []) {
    seats[join.seat] = {
      name: join.seat,
      owner: join.owner,
      key: join.seat_key,
      human: join.human,
      card,
      joined: 1,
      left: null,
    };
  }
  return seats;
}
