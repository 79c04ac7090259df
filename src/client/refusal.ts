/**
 * Which socket close codes end a session for good (docs/SPEC.md §6.3, §9). The relay closes with
 * 4000 + the HTTP status of its error: 4401 when the challenge answer does not verify (E_AUTH),
 * 4403 when the seat has left the table (E_UNKNOWN_SEAT), 4410 when the table was deleted
 * (E_TABLE_DELETED). A close whose reason starts with an error code of that status (4403
 * `E_REVOKED: …` when the seat's owner revoked its key, §5.13) stands for that code. A 4xx status says "you may not": the
 * same connection would be refused again, so reconnecting is pointless and the socket stops with
 * the relay's code. Timeouts (4408) and rate limiting (4429) are 4xx but pass with time, so they
 * are retried like every other close (after 4429, no sooner than the wait its error frame named): network drops (1006), restarts (1001, 1012), the client's own
 * keepalive timeout (4000) and relay faults (45xx).
 */
import { ErrorCodeSchema, TrestleError, wsCloseCodeOf, type ErrorCode } from "../protocol/index.js";

/** The error each refusing close code stands for: the ones the relay sends (§6.3) and the statuses §9 gives one meaning. */
const REFUSALS: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [4400, "E_SCHEMA"],
  [4401, "E_AUTH"],
  [4403, "E_UNKNOWN_SEAT"],
  [4404, "E_TABLE_NOT_FOUND"],
  [4410, "E_TABLE_DELETED"],
  [4413, "E_TOO_LARGE"],
]);

/** 4xx statuses that pass with time: a close with these is retried. */
const TRANSIENT = new Set([4408, 4429]);

/** Whether a close with `code` is a permanent refusal (4400–4499 but 4408 and 4429). */
function isRefusal(code: number): boolean {
  return code >= 4400 && code <= 4499 && !TRANSIENT.has(code);
}

/** The error code a close reason starts with, when it is one whose status is the close's (`E_REVOKED: …` on 4403). */
function namedCode(code: number, reason: string): ErrorCode | undefined {
  const named = ErrorCodeSchema.safeParse(/^E_[A-Z_]+/.exec(reason)?.[0]);
  return named.success && wsCloseCodeOf(named.data) === code ? named.data : undefined;
}

/**
 * The error a refusing close stands for (`details.close_code`, `details.reason`), or null when the
 * close is transient and the socket should reconnect. Statuses without one meaning are E_FORBIDDEN.
 */
export function refusalOf(code: number, reason: string, who: string): TrestleError | null {
  if (!isRefusal(code)) return null;
  const errorCode = namedCode(code, reason) ?? REFUSALS.get(code) ?? "E_FORBIDDEN";
  const message = `the relay refused ${who} for good (close ${code}, ${errorCode}): ${reason || "no reason given"}`;
  return new TrestleError(errorCode, message, { close_code: code, reason });
}
