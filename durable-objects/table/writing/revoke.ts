/**
 * A seat's revocation by its owner (docs/SPEC.md §5.13): the owner-signed request goes through the
 * same admit as every other write, counted against the owner's write rate, and a repeated nonce
 * returns the first entry. The table object then closes the seat's open sockets (object/sessions.ts);
 * every other path refuses the key from the folded state.
 */
import { parseOrThrow } from "../../../src/protocol/errors.js";
import { revokeDraft } from "../../../src/protocol/policy/seat-revoke.js";
import { SeatRevokeRequestSchema } from "../../../src/protocol/schemas/revoke.js";
import { checkSignature, countedOwnerWrite, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";

/** Appends an owner-signed revocation of one of that owner's seats. */
export async function writeRevoke(t: TableContext, body: unknown): Promise<WriteOutcome> {
  const request = parseOrThrow(SeatRevokeRequestSchema, body, "revoke request");
  const draft = revokeDraft(requireTable(t), request.revoke, request.sig);
  await checkSignature(draft);
  return countedOwnerWrite(t, draft, request.revoke.owner);
}
