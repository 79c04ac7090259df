/**
 * Handing a table to a relay that mirrors it (docs/SPEC.md §8.4): an import once its pages are in,
 * or a mirror promoted when the origin is gone. The owner's side checks what it signs: the relay
 * holds the table as a mirror, its head verifies under the key of the relay holding the table, and
 * it is not behind the head this home holds from that relay (promoting a stale mirror would drop
 * entries the owner saw). Then each owner signs the custody statement over exactly that chain, and
 * the relay appends the custody entry once more than half of them did.
 */
import {
  canonicalize,
  custodyStatementFor,
  signCustody,
  TrestleError,
  verifyHeadSignature,
  type CustodyRequest,
  type CustodySignature,
  type CustodyStatement,
  type ReplicaStatus,
  type SignedHead,
  type Signer,
} from "../protocol/index.js";
import type { HttpClient } from "./http.js";

/**
 * The custody statement handing `table`, mirrored at `http`'s relay (key `relayKey`, pinned), to
 * that relay, once the mirror is checked; `held` is this home's head from the relay holding the
 * table, if any. Throws E_NOT_ALLOWED (not a mirror there), E_BAD_RESPONSE, or E_FORK naming both
 * heads when the mirror is behind `held` or on another chain.
 */
export async function custodyStatementAt(
  http: HttpClient,
  table: string,
  relayKey: string,
  held: (relay: string) => SignedHead | null,
): Promise<{ statement: CustodyStatement; status: ReplicaStatus }> {
  const status = await http.replicaStatus(table);
  if (!status.mirror)
    throw new TrestleError("E_NOT_ALLOWED", `relay ${http.url} holds ${table} itself: there is no custody to take`, {
      relay: status.relay,
    });
  const { head } = status;
  if (
    head.table !== table ||
    head.relay !== status.relay ||
    head.seq !== status.seq ||
    head.link !== status.link ||
    !(await verifyHeadSignature(head))
  ) {
    throw new TrestleError(
      "E_BAD_RESPONSE",
      `the mirror's head of ${table} is not a head of relay ${status.relay} over its last entry`,
    );
  }
  const mine = held(status.relay);
  if (mine && (mine.seq > head.seq || (mine.seq === head.seq && mine.link !== head.link))) {
    throw new TrestleError(
      "E_FORK",
      `this home holds relay ${status.relay}'s head of ${table} at entry ${mine.seq}; the mirror holds ${head.seq} (${mine.seq > head.seq ? "behind it: feed it first" : "another chain"})`,
      {
        held: mine,
        mirror: head,
      },
    );
  }
  return { statement: custodyStatementFor(head, relayKey), status };
}

/** The custody request: `signer`'s own signature as `owner`, plus those `others` gave over the very same statement (E_SCHEMA naming one over another). */
export async function custodyRequest(
  statement: CustodyStatement,
  signer: Signer,
  owner: string,
  others: readonly CustodySignature[],
): Promise<CustodyRequest> {
  const mine = await signCustody(signer, owner, statement);
  const wanted = canonicalize(statement);
  for (const other of others) {
    if (canonicalize(other.statement) !== wanted) {
      throw new TrestleError(
        "E_SCHEMA",
        `owner ${other.owner}'s signature is over another custody statement (entry ${other.statement.seq}, relay ${other.statement.to}); ask them to sign again`,
      );
    }
  }
  const byOwner = new Map([mine, ...others].map((s) => [s.owner, { owner: s.owner, sig: s.sig }]));
  return { statement, owners: [...byOwner.values()] };
}
