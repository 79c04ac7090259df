/**
 * Authorizing reads: an `Authorization: Trestle ...` header carries a statement signed by a seat
 * key (reads as that seat) or an owner key (reads as that owner), bound to this table, method and
 * path, within LIMITS.auth_window_ms of the relay's clock. Replaying it inside the window repeats
 * the same read and nothing else. A seat key its owner revoked is refused with E_REVOKED (§5.13).
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { readAuthorization } from "../../../src/protocol/requests/requests.js";
import { HttpAuthSchema, type Principal } from "../../../src/protocol/schemas/auth.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { requireSigned } from "./revoked-signer.js";

/** The principal a read is authorized as; throws E_AUTH otherwise. */
export async function authorizeRead(
  state: TableState,
  header: string | null,
  method: "GET" | "POST",
  path: string,
  now: number,
): Promise<Principal> {
  const { sig, ...statement } = readAuthorization(header, HttpAuthSchema, "signed read statement");
  if (statement.table !== state.table) throw new TrestleError("E_AUTH", "the authorization is for another table");
  if (statement.method !== method || statement.path !== path) {
    throw new TrestleError(
      "E_AUTH",
      `the authorization is for ${statement.method} ${statement.path}, not ${method} ${path}`,
    );
  }
  if (Math.abs(now - statement.ts) > LIMITS.auth_window_ms) {
    throw new TrestleError("E_AUTH", "the authorization's time is outside the window; check your clock");
  }
  const signed = {
    key: principalKey(state, statement.as),
    seat: "seat" in statement.as ? statement.as.seat : null,
    purpose: "auth",
    statement,
    sig,
  } as const;
  await requireSigned(state, signed, {
    code: "E_AUTH",
    message: "the authorization's signature does not verify for that seat or owner",
  });
  return statement.as;
}

/** The key that speaks for `principal`: a present seat's key, or a listed owner's (or a room party's) key; undefined for anyone else. */
export function principalKey(state: TableState, principal: Principal): string | undefined {
  if ("seat" in principal) {
    const seat = own(state.seats, principal.seat);
    return seat && seat.left === null ? seat.key : undefined;
  }
  return ownerKeyOf(state, principal.owner);
}
