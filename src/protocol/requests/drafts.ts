/**
 * Turning parsed, not-yet-verified requests into entry drafts (relay side). The draft is what the
 * policy judges and what `statementOf` rebuilds the signed statement from, so the relay verifies a
 * signature over exactly the bytes an offline verifier will check later.
 */
import { TrestleError } from "../errors.js";
import { textSha256 } from "../encoding/hash.js";
import { validateConfig } from "../policy/config-check.js";
import { maxChars } from "../policy/admit-authored.js";
import type { TableState } from "../policy/state.js";
import type { CreateRequest } from "../schemas/create.js";
import type { ApprovalDraft, AuthoredDraft, SystemDraftOf } from "../schemas/entry.js";
import type { ApprovalRequest } from "../schemas/approval.js";
import type { JoinRequest } from "../schemas/join.js";
import { cutText } from "../encoding/text.js";
import type { SubmitRequest } from "../schemas/entry.js";
import { own } from "../encoding/records.js";
import { joinSignerKey } from "../policy/invites.js";
import { ownerKeyOf } from "../policy/owners.js";
import type { EjectRequest, InviteRequest } from "../schemas/room.js";

/** The draft for a seat's submission signed by `seatKey`, cut to the floor's `max_chars`. */
export function submissionDraft(state: TableState, request: SubmitRequest, seatKey: string): AuthoredDraft {
  const { submission, sig } = request;
  const max = maxChars(state.config);
  const author = { key: seatKey, sig };
  if (submission.body.length <= max) return { ...submission, author };
  const truncated = { chars: submission.body.length, body_sha256: textSha256(submission.body) };
  return { ...submission, body: cutText(submission.body, max), truncated, author };
}

/** The draft for an owner-signed join; the owner's key comes from the table config (or the room's parties), or for a join by invite from the statement itself. */
export function joinDraft(state: TableState, request: JoinRequest): SystemDraftOf<"seat_joined"> {
  const key = joinSignerKey(state, request.join);
  if (key === undefined) throw new TrestleError("E_NOT_OWNER", `"${request.join.owner}" is not an owner of this table`);
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "seat_joined",
    data: { join: request.join, card: request.card },
    author: { key, sig: request.sig },
  };
}

/** The draft for the room creator's signed invite (docs/SPEC.md §5.10); its key is the creator's. */
export function inviteDraft(state: TableState, request: InviteRequest): SystemDraftOf<"invite_issued"> {
  const { scope: _scope, table: _table, ...fields } = request.statement;
  return { ...creatorSigned(state, request.sig), subkind: "invite_issued", data: { ...fields, by: state.creator } };
}

/** The draft for the room creator's signed ejection of a seat (docs/SPEC.md §5.10). */
export function ejectDraft(state: TableState, request: EjectRequest): SystemDraftOf<"seat_ejected"> {
  const { seat, nonce } = request.statement;
  return { ...creatorSigned(state, request.sig), subkind: "seat_ejected", data: { seat, by: state.creator, nonce } };
}

/** The fields of a system draft signed by the table's creator (its key from the config); E_NOT_OWNER when the creator is no owner. */
export function creatorSigned(state: TableState, sig: string) {
  const key = ownerKeyOf(state, state.creator);
  if (key === undefined)
    throw new TrestleError("E_NOT_OWNER", `the creator "${state.creator}" is not an owner of this table`);
  return { table: state.table, seat: null, kind: "system" as const, author: { key, sig } };
}

/** The draft for an owner's signed approval; the owner's key comes from the table config (§5.6). */
export function approvalDraft(state: TableState, request: ApprovalRequest): ApprovalDraft {
  const owner = own(state.config.owners, request.owner);
  if (!owner) throw new TrestleError("E_NOT_OWNER", `"${request.owner}" is not an owner of this table`);
  return {
    ...request.approval,
    seat: null,
    kind: "approval",
    owner: request.owner,
    author: { key: owner.public_key, sig: request.sig },
  };
}

/** The draft for a create request; validates the config (E_NO_TERMINATION, E_SCHEMA, E_NOT_OWNER). */
export function createDraft(request: CreateRequest, relayKey: string): SystemDraftOf<"table_opened"> {
  const config = validateConfig(request.config);
  const owner = own(config.owners, request.owner);
  if (!owner) throw new TrestleError("E_NOT_OWNER", `"${request.owner}" is not an owner in the config`);
  return {
    table: config.id,
    seat: null,
    kind: "system",
    subkind: "table_opened",
    data: { config, relay: relayKey, creator: request.owner },
    author: { key: owner.public_key, sig: request.sig },
  };
}
