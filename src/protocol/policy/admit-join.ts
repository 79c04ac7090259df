/**
 * Judging a join (docs/SPEC.md §4.2): the owner is listed and signed with its own key, the seat
 * is free (and declared for that owner when the config declares seats), the card matches its
 * hash, and the statement is inside its validity window. A seat whose key its owner revoked is
 * free again for that owner only, and a revoked key never seats again (§5.13).
 */
import { fromBase64url } from "../encoding/bytes.js";
import { isStrongPublicKey } from "../signing/crypto.js";
import { TrestleError } from "../errors.js";
import { canonicalSha256 } from "../encoding/hash.js";
import { LIMITS } from "../limits/limits.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import type { TableState } from "./state.js";
import { own } from "../encoding/records.js";
import { checkInviteJoin, checkPartyRejoin, joinsByInvite } from "./invites.js";
import { ownerKeyOf } from "./owners.js";
import { checkNotRevoked, keysSeated, reseatable } from "./seat-revoke.js";

/** Throws the refusal for a join draft at time `now`, or returns when the policy accepts it. */
export function checkJoin(state: TableState, draft: SystemDraftOf<"seat_joined">, now: number): void {
  const { join, card } = draft.data;
  if (join.table !== state.table || draft.table !== state.table) {
    throw new TrestleError("E_WRONG_TABLE", `join is for table "${join.table}", not "${state.table}"`);
  }
  if (joinsByInvite(join)) {
    checkInviteJoin(state, draft, now);
  } else {
    const ownerKey = ownerKeyOf(state, join.owner);
    if (ownerKey === undefined) throw new TrestleError("E_NOT_OWNER", `"${join.owner}" is not an owner of this table`);
    if (draft.author.key !== ownerKey) throw new TrestleError("E_BAD_SIGNATURE", "join not signed by the owner's key");
    checkPartyRejoin(state, join.owner);
  }
  if (join.expires < now) throw new TrestleError("E_EXPIRED", "the join statement has expired");
  if (join.expires > now + LIMITS.join_ttl_max_ms) {
    throw new TrestleError("E_EXPIRED", `a join may be valid for at most ${LIMITS.join_ttl_max_ms} ms`);
  }
  if (!isStrongPublicKey(fromBase64url(join.seat_key))) {
    throw new TrestleError("E_SCHEMA", "seat_key is not a usable Ed25519 public key (small-order or non-canonical)");
  }
  checkNotRevoked(state, join.seat_key);
  if (canonicalSha256(card) !== join.card_sha256) {
    throw new TrestleError("E_SCHEMA", "the capability card does not match card_sha256");
  }
  const declared = state.config.seats;
  if (declared) {
    const seat = own(declared, join.seat);
    if (!seat) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${join.seat}" is not declared in this table's config`);
    if (seat.owner !== join.owner)
      throw new TrestleError("E_FORBIDDEN", `seat "${join.seat}" belongs to ${seat.owner}`);
    if ((seat.human ?? false) !== join.human) {
      throw new TrestleError("E_FORBIDDEN", `seat "${join.seat}" is declared ${seat.human ? "human" : "bot"}`);
    }
  }
  const taken = own(state.seats, join.seat);
  if (taken && !reseatable(state, taken, join.owner)) {
    const freed = reseatable(state, taken, taken.owner);
    throw new TrestleError(
      "E_SEAT_TAKEN",
      freed
        ? `seat "${join.seat}" was revoked by ${taken.owner}: only ${taken.owner} seats it again`
        : `seat "${join.seat}" is already taken`,
    );
  }
  const sameKey = Object.values(state.seats).find((s) => s.key === join.seat_key);
  if (sameKey) throw new TrestleError("E_FORBIDDEN", `that seat key already holds seat "${sameKey.name}"`);
  const most = state.market ? LIMITS.market_seats : LIMITS.seats;
  if (keysSeated(state) >= most)
    throw new TrestleError(
      "E_SEAT_LIMIT",
      `a ${state.market ? "market" : "table"} seats at most ${most} keys in its life, revoked ones included`,
    );
}
