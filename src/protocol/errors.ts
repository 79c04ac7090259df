/**
 * The closed list of trestle error codes, the one error class, the wire envelope, and the single
 * table mapping each code to an HTTP status and a WebSocket close code (docs/SPEC.md §9).
 */
import * as z from "zod";

/** Every code the relay or a client library can report; nothing else ever appears on the wire. */
export const ERROR_CODES = {
  E_SCHEMA: { http: 400, message: "the input does not match the schema" },
  E_NOT_CANONICAL: {
    http: 400,
    message:
      "the value is outside the canonical JSON profile (repeated key, number not a safe integer, lone surrogate)",
  },
  E_TOO_LARGE: { http: 413, message: "the input exceeds a published limit" },
  E_NO_TERMINATION: { http: 400, message: "the table config has no termination condition that can fire" },
  E_BAD_SIGNATURE: { http: 401, message: "a signature does not verify" },
  E_AUTH: { http: 401, message: "this request needs a valid signed authorization" },
  E_FORBIDDEN: { http: 403, message: "the signer may not do this" },
  E_WRONG_TABLE: { http: 400, message: "the statement names another table" },
  E_EXPIRED: { http: 400, message: "the statement is expired or its time is out of range" },
  E_NONCE_REUSED: { http: 409, message: "this nonce was already used for a different statement" },
  E_NOT_OWNER: { http: 403, message: "the signer is not an owner of this table" },
  E_UNKNOWN_SEAT: { http: 403, message: "no such seat at this table" },
  E_SEAT_TAKEN: { http: 409, message: "that seat is already taken" },
  E_SEAT_LIMIT: { http: 409, message: "the table has no free seat" },
  E_NOT_FLOOR: { http: 409, message: "this seat does not hold the floor" },
  E_NOT_ALLOWED: { http: 409, message: "the table's policy does not allow this entry now" },
  E_CLOSED: { http: 409, message: "the table is closed" },
  E_PAUSED: { http: 409, message: "the table is paused" },
  // Revocation (docs/SPEC.md §5.13): the seat's owner revoked this seat key at this table.
  E_REVOKED: { http: 403, message: "this seat key was revoked by its owner at this table" },
  E_FORK: { http: 409, message: "the head you hold is not on this relay's chain" },
  // Commit gateway (docs/SPEC.md §5.6, §5.7).
  E_NO_APPROVER: {
    http: 409,
    message: "nobody can answer this approval now: no owner session, human seat or proven channel",
  },
  E_UNKNOWN_TASK: { http: 404, message: "no such task at this table" },
  E_TASK_STATE: { http: 409, message: "the task's state does not allow this" },
  E_NOT_EXECUTOR: { http: 403, message: "only the task's executor, a seat of its owner, may do this" },
  E_SELF_VERIFY: { http: 403, message: "the executor cannot verify its own task" },
  E_APPROVAL_MISMATCH: { http: 409, message: "the approval is bound to another proposal or other effects" },
  // Chat approvals and pauses (docs/SPEC.md §5.6, §5.5): a relay-attested chat action does not count here.
  E_NEEDS_SIGNATURE: {
    http: 403,
    message: "this needs the owner's own signature; a chat command or tap does not count here",
  },
  E_UNKNOWN_REQUEST: { http: 404, message: "no request with this request_id" },
  E_WRONG_RESPONSE_TYPE: { http: 409, message: "the response's type differs from the request's" },
  E_ALREADY_RESOLVED: { http: 409, message: "the request was already answered" },
  // Rooms (docs/SPEC.md §5.10).
  E_UNKNOWN_OFFER: { http: 404, message: "no offer with this entry hash in this room" },
  E_UNKNOWN_GRANT: { http: 404, message: "no grant with this entry hash in this room" },
  E_NOT_LIVE: { http: 409, message: "the offer, grant or listing is no longer live" },
  E_TERMS_MISMATCH: { http: 409, message: "an accept restates terms other than the offer's" },
  E_INVITE: { http: 403, message: "no live invite matches this code or statement" },
  // A seat and its own owner (docs/SPEC.md §5.14).
  E_NO_ANSWERER: {
    http: 409,
    message: "nobody can answer this question now: no owner session, window or proven chat channel",
  },
  E_UNKNOWN_QUESTION: { http: 404, message: "no question with this id at this table" },
  // Sealed-bid auctions and end-to-end encrypted rooms (docs/SPEC.md §5.11, §5.12).
  E_UNKNOWN_AUCTION: { http: 404, message: "no auction with this entry hash in this room" },
  E_REVEAL_MISMATCH: {
    http: 409,
    message: "the revealed bid and salt do not hash to the commitment (the side's, or the bidding owner's)",
  },
  E_PLAINTEXT: { http: 400, message: "an end-to-end encrypted room admits only sealed text" },
  E_TABLE_EXISTS: { http: 409, message: "a table with this id already exists" },
  // Markets (docs/SPEC.md §5.15).
  E_UNKNOWN_LISTING: { http: 404, message: "no listing with this entry hash in this market" },
  E_UNKNOWN_MATCH: { http: 404, message: "no match at this seq in this market" },
  // Custody and mirrors (docs/SPEC.md §8.4).
  E_REFUTED: { http: 422, message: "the ledger or page does not verify" },
  E_MIRROR: { http: 409, message: "this relay holds the table as a read-only mirror" },
  // Witnesses (docs/SPEC.md §12, C2SP tlog-witness): an add-checkpoint refused.
  E_UNKNOWN_LOG: { http: 404, message: "this witness does not witness a log with this origin" },
  E_OLD_SIZE: { http: 409, message: "the old size is not the size this witness last cosigned" },
  E_INCONSISTENT: { http: 422, message: "the checkpoint is not consistent with the one this witness cosigned" },
  E_TABLE_NOT_FOUND: { http: 404, message: "no table with this id" },
  // Table lifetime (docs/SPEC.md §6.6): a deleted table's id is never used again.
  E_TABLE_DELETED: { http: 410, message: "this table was deleted; its id is never used again" },
  E_NOT_FOUND: { http: 404, message: "no such route" },
  E_RATE_LIMITED: { http: 429, message: "too many requests; slow down" },
  E_QUOTA: { http: 403, message: "an owner quota of this relay is used up" },
  E_UNAVAILABLE: { http: 503, message: "the relay cannot serve this right now" },
  E_INTERNAL: { http: 500, message: "the relay failed unexpectedly" },
  // Client-side codes (src/client): raised by the client library, never sent by a relay. The
  // status is what a client reports them as.
  E_NETWORK: { http: 503, message: "the relay could not be reached" },
  E_BAD_RESPONSE: { http: 502, message: "the relay's answer does not follow the protocol" },
  E_RELAY_KEY: { http: 502, message: "the relay's key is not the one pinned for it" },
  E_KEY_FILE: { http: 400, message: "a key file is missing, malformed or readable by others" },
  // MCP server (src/mcp): an owner signature it will not make without its human.
  E_NOT_CONFIRMED: { http: 403, message: "the owner did not confirm this in person" },
  // Owner-side guards (src/owner, docs/ROOMS.md): refused or held on the owner's machine before signing.
  E_MANDATE: { http: 403, message: "the owner's mandate for this seat does not allow this" },
  E_HELD: { http: 403, message: "held until the owner approves this exact message" },
  E_GATE: { http: 403, message: "the commitment gate refuses to send this" },
  // Seat drivers (src/owner/seat-driver.ts, docs/AGENTS.md): the agent behind a seat failed its turn.
  E_AGENT: {
    http: 502,
    message: "the seat's agent (a command or an A2A agent) failed its turn or answered outside the protocol",
  },
} as const satisfies Record<string, { http: number; message: string }>;

/** A code from the closed list. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Zod enum of every error code (for parsing error envelopes on clients). */
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** The one wire envelope for an error; `details` never holds a stack trace. */
export const ErrorEnvelopeSchema = z.strictObject({
  error: z.strictObject({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** The single error class; its `code` is always from the closed list. */
export class TrestleError extends Error {
  override readonly name = "TrestleError";
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? ERROR_CODES[code].message);
  }

  /** The wire envelope for this error. */
  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope["error"] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** HTTP status for a code; always 4xx/5xx. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].http;
}

/** WebSocket close code for a code: 4000 + HTTP status (4400, 4401, ...), inside the app range. */
export function wsCloseCodeOf(code: ErrorCode): number {
  return 4000 + ERROR_CODES[code].http;
}

/**
 * Turns zod issues into one error naming the first failing path, with one code per cause
 * (docs/SPEC.md §9, decision 0340): E_NOT_CANONICAL for a number outside the §2 profile (a
 * fraction, or an integer past 2^53 − 1, where a schema wants an integer) or a value without a
 * canonical form (an issue with `params.code`); E_TOO_LARGE past a stated maximum (a length, a
 * count, a size, a bound); else E_SCHEMA, patterns included (their lengths are part of the pattern).
 */
export function schemaError(issues: readonly z.core.$ZodIssue[], what = "input"): TrestleError {
  const first = issues[0];
  const path = first ? pathString(first.path) : "";
  const message = first ? `${what}${path ? ` at ${path}` : ""}: ${first.message}` : `${what} is invalid`;
  return new TrestleError(first ? issueCode(first) : "E_SCHEMA", message, {
    issues: issues.slice(0, 8).map((i) => ({ path: pathString(i.path), message: i.message })),
  });
}

/** The one code for a zod issue (schemaError). */
function issueCode(issue: z.core.$ZodIssue): ErrorCode {
  // zod's safe-integer checks: `format: "safeint"` for a fraction, origin "int" for a magnitude past 2^53 − 1.
  if (issue.code === "invalid_type" && issue.expected === "int" && "format" in issue && issue.format === "safeint")
    return "E_NOT_CANONICAL";
  if ((issue.code === "too_big" || issue.code === "too_small") && issue.origin === "int") return "E_NOT_CANONICAL";
  if (issue.code === "custom" && issue.params?.code === "E_NOT_CANONICAL") return "E_NOT_CANONICAL";
  return issue.code === "too_big" ? "E_TOO_LARGE" : "E_SCHEMA";
}

function pathString(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** Parses `value` with `schema`, throwing E_SCHEMA with the failing path on mismatch. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw schemaError(result.error.issues, what);
  return result.data;
}
