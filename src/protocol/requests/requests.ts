/**
 * Building signed requests (client side): create, join, submit, HTTP read authorization, the
 * WebSocket challenge answers (seat and owner) and owner approvals. Pure given the key and the nonce/time passed in; the client library
 * supplies randomness and clocks.
 */
import { fromBase64url, fromUtf8, toBase64url, utf8 } from "../encoding/bytes.js";
import { signStatement, type Signer } from "../signing/crypto.js";
import type { z } from "zod";
import { parseOrThrow, schemaError, TrestleError } from "../errors.js";
import { parseInboundJson } from "../encoding/inbound-json.js";
import { leafOf } from "../ledger/chain.js";
import { effectsByOwner, taskIdOf } from "../policy/tasks.js";
import { ApprovalStatementSchema, type ApprovalRequest, type ApprovalStatement } from "../schemas/approval.js";
import type { ApprovalVerdict } from "../schemas/task.js";
import { canonicalize } from "../encoding/canonical.js";
import { canonicalSha256 } from "../encoding/hash.js";
import type { TableConfig } from "../schemas/config.js";
import type { HttpAuthStatement, OwnerSocketAuthStatement, Principal, SocketAuthStatement } from "../schemas/auth.js";
import type { OwnerAuthStatement } from "../schemas/owner.js";
import type { CapabilityCard } from "../schemas/card.js";
import type { CreateRequest } from "../schemas/create.js";
import {
  SubmissionSchema,
  type Entry,
  type HeadRef,
  type SubmissionInput,
  type SubmitRequest,
} from "../schemas/entry.js";
import type { JoinRequest, JoinStatement } from "../schemas/join.js";
import { approvalStatement, createStatement, submissionStatement } from "../signing/statements.js";

/** A create request signed by `owner`, whose key must be the config's key for that owner. */
export async function signCreate(signer: Signer, config: TableConfig, owner: string): Promise<CreateRequest> {
  const sig = await signStatement(signer, "create", createStatement(config, owner));
  return { config: config as unknown as Record<string, unknown>, owner, sig };
}

/** A join request: the owner delegates `seat` to `seatKey`. */
export async function signJoin(
  ownerSigner: Signer,
  fields: Omit<JoinStatement, "card_sha256">,
  card: CapabilityCard,
): Promise<JoinRequest> {
  const join: JoinStatement = { ...fields, card_sha256: canonicalSha256(card) };
  return { join, card, sig: await signStatement(ownerSigner, "join", join) };
}

/** A submit request: the submission (defaults applied, as the relay parses it) signed by the seat key. */
export async function signSubmission(
  seatSigner: Signer,
  input: SubmissionInput,
  knownHead?: HeadRef,
): Promise<SubmitRequest> {
  const submission = parseOrThrow(SubmissionSchema, input, "submission");
  const sig = await signStatement(seatSigner, "entry", submissionStatement(submission));
  return knownHead ? { submission, sig, known_head: knownHead } : { submission, sig };
}

/** The `Authorization: Trestle <token>` header value (§6.2) for `statement` signed by `signer` (purpose `auth`): what readAuthorization reads. */
export async function authorizationHeader(
  signer: Signer,
  statement: HttpAuthStatement | OwnerAuthStatement,
): Promise<string> {
  const sig = await signStatement(signer, "auth", statement);
  return `Trestle ${toBase64url(utf8(canonicalize({ ...statement, sig })))}`;
}

/** The `Authorization` header value for an HTTP read of `path` (with query) at time `now`. */
export function signHttpAuth(
  signer: Signer,
  fields: { table: string; as: Principal; method: "GET" | "POST"; path: string; now: number },
): Promise<string> {
  return authorizationHeader(signer, {
    scope: "http",
    table: fields.table,
    as: fields.as,
    method: fields.method,
    path: fields.path,
    ts: fields.now,
  });
}

// §6.2: the scheme is case-insensitive (RFC 9110 §11.1); the token is unpadded base64url.
const AUTHORIZATION = /^Trestle +([A-Za-z0-9_-]{1,4096})$/i;

/**
 * The payload of an `Authorization: Trestle <token>` header (§6.2), parsed by `schema`; the token
 * is base64url of UTF-8 inbound JSON (§2.1). Anything else is E_AUTH saying what is wrong.
 */
export function readAuthorization<S extends z.ZodType>(header: string | null, schema: S, what: string): z.infer<S> {
  if (!header) throw new TrestleError("E_AUTH", `send Authorization: Trestle <${what}>`);
  const match = AUTHORIZATION.exec(header.trim());
  if (!match)
    throw new TrestleError(
      "E_AUTH",
      "the Authorization header is not `Trestle <token>`, the token 1-4096 base64url characters",
    );
  let payload: unknown;
  try {
    payload = parseInboundJson(fromUtf8(fromBase64url(match[1]!)));
  } catch (error) {
    throw new TrestleError(
      "E_AUTH",
      `the Authorization token is not base64url of UTF-8 JSON: ${(error as Error).message}`,
    );
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const { message, details } = schemaError(parsed.error.issues, what);
    throw new TrestleError("E_AUTH", `the Authorization header is not a ${message}`, details);
  }
  return parsed.data;
}

/** The answer to a WebSocket challenge. */
export async function signSocketAuth(signer: Signer, statement: SocketAuthStatement): Promise<string> {
  return signStatement(signer, "auth", statement);
}

/**
 * The approval statement for `owner`'s task opened by `proposal`, the proposal or decision entry
 * as read from the ledger. The leaf is computed from the entry's content (not its `leaf` field)
 * and the effects hash from the effects it holds, so the owner signs exactly what they read.
 */
export function approvalStatementFor(
  proposal: Entry,
  owner: string,
  fields: { verdict: ApprovalVerdict; nonce: string },
): ApprovalStatement {
  if ((proposal.kind !== "proposal" && proposal.kind !== "decision") || !proposal.effects) {
    throw new TrestleError("E_UNKNOWN_TASK", `entry ${proposal.seq} is not a proposal or decision with effects`);
  }
  const effects = effectsByOwner(proposal.effects).get(owner);
  if (!effects) throw new TrestleError("E_UNKNOWN_TASK", `entry ${proposal.seq} has no effects for ${owner}`);
  return {
    table: proposal.table,
    task: taskIdOf(proposal.seq, owner),
    proposal: leafOf(proposal),
    effects_sha256: canonicalSha256(effects),
    verdict: fields.verdict,
    nonce: fields.nonce,
  };
}

/** An approval request: `statement` signed by `owner`'s key (purpose `approval`). */
export async function signApproval(
  ownerSigner: Signer,
  owner: string,
  statement: ApprovalStatement,
): Promise<ApprovalRequest> {
  const approval = parseOrThrow(ApprovalStatementSchema, statement, "approval");
  return { approval, owner, sig: await signStatement(ownerSigner, "approval", approvalStatement(approval)) };
}

/** The owner's answer to a WebSocket challenge (an owner session). */
export async function signOwnerSocketAuth(signer: Signer, statement: OwnerSocketAuthStatement): Promise<string> {
  return signStatement(signer, "auth", statement);
}
