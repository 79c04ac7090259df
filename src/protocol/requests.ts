/**
 * Building signed requests (client side): create, join, submit, HTTP read authorization and the
 * WebSocket challenge answer. Pure given the key and the nonce/time passed in; the client library
 * supplies randomness and clocks.
 */
import { fromBase64url, fromUtf8, toBase64url, utf8 } from "./bytes.js";
import { signStatement, type Signer } from "./crypto.js";
import { parseOrThrow } from "./errors.js";
import { canonicalize } from "./canonical.js";
import { canonicalSha256 } from "./hash.js";
import type { TableConfig } from "./schemas/config.js";
import type { HttpAuthStatement, Principal, SocketAuthStatement } from "./schemas/auth.js";
import type { CapabilityCard } from "./schemas/card.js";
import type { CreateRequest } from "./schemas/create.js";
import { SubmissionSchema, type HeadRef, type SubmissionInput, type SubmitRequest } from "./schemas/entry.js";
import type { JoinRequest, JoinStatement } from "./schemas/join.js";
import { createStatement, submissionStatement } from "./statements.js";

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

/** The `Authorization` header value for an HTTP read of `path` (with query) at time `now`. */
export async function signHttpAuth(
  signer: Signer,
  fields: { table: string; as: Principal; method: "GET" | "POST"; path: string; now: number },
): Promise<string> {
  const statement: HttpAuthStatement = {
    scope: "http",
    table: fields.table,
    as: fields.as,
    method: fields.method,
    path: fields.path,
    ts: fields.now,
  };
  const sig = await signStatement(signer, "auth", statement);
  return `Trestle ${toBase64url(utf8(canonicalize({ ...statement, sig })))}`;
}

/** Decodes an `Authorization: Trestle ...` header to its JSON payload (unvalidated), or undefined. */
export function decodeHttpAuth(header: string): unknown {
  const match = /^Trestle ([A-Za-z0-9_-]{1,4096})$/.exec(header.trim());
  if (!match) return undefined;
  try {
    return JSON.parse(fromUtf8(fromBase64url(match[1]!)));
  } catch {
    return undefined;
  }
}

/** The answer to a WebSocket challenge. */
export async function signSocketAuth(signer: Signer, statement: SocketAuthStatement): Promise<string> {
  return signStatement(signer, "auth", statement);
}
