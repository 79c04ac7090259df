/**
 * Telling a revoked seat key apart from a forgery (docs/SPEC.md §5.13): a request for a seat whose
 * signature does not verify under the seat's present key is checked once more under the keys its
 * owner revoked for that seat name, so a leaked key of a seat seated again hears E_REVOKED rather
 * than E_BAD_SIGNATURE or E_AUTH. Only ever run on a refusal, over at most the seat's revoked keys.
 */
import { verifyStatement, type SigningPurpose } from "../../../src/protocol/signing/crypto.js";
import { revokedError, revokedKeysOf } from "../../../src/protocol/policy/seat-revoke.js";
import type { TableState } from "../../../src/protocol/policy/state.js";

/** Throws E_REVOKED when `sig` over `statement` verifies under a key revoked for seat `seat`; returns otherwise. */
export async function refuseRevokedSigner(state: TableState, seat: string, purpose: SigningPurpose, statement: unknown, sig: string): Promise<void> {
  for (const revoked of revokedKeysOf(state, seat)) {
    if (await verifyStatement(revoked.key, purpose, statement, sig)) throw revokedError(revoked);
  }
}
