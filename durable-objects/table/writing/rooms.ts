/**
 * A room's writes on its table object (docs/SPEC.md §5.10): the creator's signed invites and
 * ejections, and joins by invite, which only POST /invites/join may bring (after the invite
 * directory checked the code), never POST /tables/:id/join. Each goes through the same signature
 * check and admit as every other write; a retried statement returns its first entry.
 */
import { ejectDraft, inviteDraft, joinDraft } from "../../../src/protocol/requests/drafts.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { joinsByInvite, joinsWithoutCode } from "../../../src/protocol/policy/invites.js";
import { JoinRequestSchema } from "../../../src/protocol/schemas/join.js";
import {
  EjectRequestSchema,
  InviteRequestSchema,
  type EjectRequest,
  type InviteRequest,
} from "../../../src/protocol/schemas/room.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { EntryDraft } from "../../../src/protocol/schemas/entry.js";
import { checkSignature, admitAndAppend, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";

/** Appends the creator's signed invite (or rotation). */
export function writeInvite(t: TableContext, body: unknown): Promise<WriteOutcome> {
  return writeCreatorStatement(t, parseOrThrow(InviteRequestSchema, body, "invite request"), inviteDraft, "invite");
}

/** Appends the creator's signed ejection of a seat (and the seat_left it causes). */
export function writeEject(t: TableContext, body: unknown): Promise<WriteOutcome> {
  return writeCreatorStatement(t, parseOrThrow(EjectRequestSchema, body, "eject request"), ejectDraft, "ejection");
}

/** Checks a creator-signed room statement's table and signature, then admits and appends its draft. */
async function writeCreatorStatement<R extends InviteRequest | EjectRequest>(
  t: TableContext,
  request: R,
  draftOf: (state: TableState, request: R) => EntryDraft,
  what: string,
): Promise<WriteOutcome> {
  const state = requireTable(t);
  if (request.statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the ${what} is for table "${request.statement.table}"`);
  const draft = draftOf(state, request);
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Appends a join by invite whose code the directory resolved to `invite` of this table. */
export async function writeInvitedJoin(t: TableContext, body: unknown, invite: string): Promise<WriteOutcome> {
  const request = parseOrThrow(JoinRequestSchema, body, "join request");
  const state = requireTable(t);
  if (request.join.table !== state.table || request.join.invite !== invite) {
    throw new TrestleError("E_INVITE", "the code opens another invite than the join names");
  }
  const draft = joinDraft(state, request);
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Refuses a join by invite on the plain join route: only the code says an invite may be used, unless the invite is bound to the joining key (or, in a match's room, the join names none). */
export function refuseInviteJoin(state: TableState | null, body: unknown): void {
  const parsed = JoinRequestSchema.safeParse(body);
  if (parsed.success && joinsByInvite(parsed.data.join) && !joinsWithoutCode(state, parsed.data.join)) {
    throw new TrestleError("E_INVITE", "a join by invite goes through POST /invites/join with the invite's code");
  }
}
