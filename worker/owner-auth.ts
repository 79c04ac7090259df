/**
 * Checking owner-key requests (docs/SPEC.md §11.1): a `bind` statement in a body (bind code,
 * unbind) or an `owner_http` read authorization in the Authorization header. Each must name the
 * owner key in the path, be within LIMITS.auth_window_ms of the relay's clock, and verify.
 */
import { verifyStatement } from "../src/protocol/signing/crypto.js";
import { parseOrThrow, TrestleError } from "../src/protocol/errors.js";
import { LIMITS } from "../src/protocol/limits/limits.js";
import { readAuthorization } from "../src/protocol/requests/requests.js";
import { PublicKeySchema } from "../src/protocol/schemas/primitives.js";
import { BindRequestSchema, OwnerAuthSchema, type BindStatement } from "../src/protocol/schemas/owner.js";

/** The owner key from a path parameter; anything else is E_SCHEMA before any object is touched. */
export function ownerKeyParam(key: string): string {
  if (!PublicKeySchema.safeParse(key).success)
    throw new TrestleError("E_SCHEMA", "the path must name an owner public key (43 base64url chars)");
  return key;
}

/** The verified `bind` statement of `body` with the expected action, for owner `key`. */
export async function verifiedBindStatement<A extends BindStatement["action"]>(
  body: unknown,
  key: string,
  action: A,
  now: number,
): Promise<Extract<BindStatement, { action: A }>> {
  const { statement, sig } = parseOrThrow(BindRequestSchema, body, "bind request");
  if (statement.action !== action) throw new TrestleError("E_SCHEMA", `this route takes a "${action}" statement`);
  if (statement.owner_key !== key) throw new TrestleError("E_FORBIDDEN", "the statement names another owner key");
  if (Math.abs(now - statement.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the statement's time is outside the window; check your clock");
  if (!(await verifyStatement(key, "bind", statement, sig)))
    throw new TrestleError("E_BAD_SIGNATURE", "the bind signature does not verify for this owner key");
  return statement as Extract<BindStatement, { action: A }>;
}

/** Throws E_AUTH unless `header` authorizes `method path` for owner `key` now. */
export async function authorizeOwnerRead(
  header: string | null,
  key: string,
  method: "GET" | "POST",
  path: string,
  now: number,
): Promise<void> {
  const { sig, ...statement } = readAuthorization(header, OwnerAuthSchema, "signed owner read statement");
  if (statement.owner_key !== key) throw new TrestleError("E_AUTH", "the authorization is for another owner key");
  if (statement.method !== method || statement.path !== path) {
    throw new TrestleError(
      "E_AUTH",
      `the authorization is for ${statement.method} ${statement.path}, not ${method} ${path}`,
    );
  }
  if (Math.abs(now - statement.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_AUTH", "the authorization's time is outside the window; check your clock");
  if (!(await verifyStatement(key, "auth", statement, sig)))
    throw new TrestleError("E_AUTH", "the authorization's signature does not verify for that owner key");
}
