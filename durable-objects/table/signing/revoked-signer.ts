/**
 * Checking a request's signature against the key that speaks for its signer at this table, and
 * telling a revoked seat key apart from a forgery (docs/SPEC.md §5.13): a seat's request whose
 * signature does not verify under the seat's present key is checked once more under the keys its
 * owner revoked for that seat name, so a leaked key of a seat seated again hears E_REVOKED rather
 * than E_BAD_SIGNATURE or E_AUTH. The revoked keys are only ever tried on a refusal.
 */
import { TrestleError, type ErrorCode } from "../../../src/protocol/errors.js";
import { verifyStatement, type SigningPurpose } from "../../../src/protocol/signing/crypto.js";
import { revokedError, revokedKeysOf } from "../../../src/protocol/policy/seat-revoke.js";
import type { TableState } from "../../../src/protocol/policy/state.js";

/** A signed request as the table checks it: the key that speaks for its signer now (undefined when none does), the seat it names (null for an owner), and what was signed. */
export interface SignedRequest {
  key: string | undefined;
  seat: string | null;
  purpose: SigningPurpose;
  statement: unknown;
  sig: string;
}

/** Throws unless `signed` verifies under its key: E_REVOKED when it verifies under a key revoked for its seat, otherwise `refusal` (the caller's code and words). */
export async function requireSigned(
  state: TableState,
  signed: SignedRequest,
  refusal: { code: ErrorCode; message: string },
): Promise<void> {
  if (signed.key !== undefined && (await verifyStatement(signed.key, signed.purpose, signed.statement, signed.sig)))
    return;
  if (signed.seat !== null) await refuseRevokedSigner(state, signed.seat, signed.purpose, signed.statement, signed.sig);
  throw new TrestleError(refusal.code, refusal.message);
}

/** Throws E_REVOKED when `sig` over `statement` verifies under a key revoked for seat `seat`; returns otherwise. */
export async function refuseRevokedSigner(
  state: TableState,
  seat: string,
  purpose: SigningPurpose,
  statement: unknown,
  sig: string,
): Promise<void> {
  for (const revoked of revokedKeysOf(state, seat)) {
    if (await verifyStatement(revoked.key, purpose, statement, sig)) throw revokedError(revoked);
  }
}
