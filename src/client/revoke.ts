/**
 * Revoking one of the owner's seats (docs/SPEC.md §5.13), as `trestle revoke`, the MCP tool and the
 * principal window do it: the seat's present key is read from the ledger as the owner, chain
 * verified, so the owner signs over the key the table holds now (never one someone named); the
 * policy's own check runs on that state before anything is sent, so a seat that is not there, not
 * this owner's or already gone is refused here with the relay's code. The relay's answer is
 * judged like any write's: its head is observed against the one held.
 */
import {
  checkRevoke,
  fold,
  isEntry,
  own,
  revokeDraft,
  TrestleError,
  type Signer,
  type SignedHead,
} from "../protocol/index.js";
import { signRevoke } from "./owner-requests.js";
import { randomNonce } from "./random.js";
import type { TableClient } from "./table-client.js";

/** What a revocation did: the entry it became, the seat and the key now refused, the head after it. */
export interface Revoked {
  seq: number;
  seat: string;
  seat_key: string;
  head: SignedHead;
}

/** Revokes `owner`'s seat `seat` at `client`'s table, signed with `ownerSigner`; throws the policy's refusal before sending when it would be refused. */
export async function revokeSeat(
  client: TableClient,
  owner: string,
  ownerSigner: Signer,
  seat: string,
): Promise<Revoked> {
  const reader = { signer: ownerSigner, as: { owner } };
  const { items } = await client.history(reader);
  const state = fold(items.filter(isEntry));
  const held = own(state.seats, seat);
  if (!held) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${seat}" is not at table ${client.table}`);
  const request = await signRevoke(ownerSigner, {
    table: client.table,
    owner,
    seat,
    seat_key: held.key,
    nonce: randomNonce(),
  });
  checkRevoke(state, revokeDraft(state, request.revoke, request.sig));
  const since = client.tracker.held;
  const response = await client.http.revoke(client.table, request);
  await client.tracker.observe(response.head, since);
  return { seq: response.seq, seat, seat_key: held.key, head: response.head };
}
