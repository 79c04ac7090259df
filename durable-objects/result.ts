/**
 * Results across Durable Object RPC. A thrown error loses its code on the way back to the Worker,
 * so every DO method returns `{ ok, value }` or `{ ok: false, error }` and the Worker rethrows.
 */
import { httpStatusOf, TrestleError, type ErrorEnvelope } from "../src/protocol/errors.js";
import { retryAfterOf, retryAfterSeconds } from "../src/protocol/limits/rate-limited.js";

/** A DO method's outcome; `error` is a wire error, never a stack trace. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorEnvelope["error"] };

/** Runs `fn`, turning a TrestleError into an error result and anything else into E_INTERNAL (logged). */
export async function asResult<T>(fn: () => T | Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error: toTrestleError(error).toEnvelope().error };
  }
}

/**
 * Any thrown value as a TrestleError: a failure the Durable Object runtime marks as its own
 * (`retryable` or `overloaded`, and not `remote`: an object that could not be reached or run, a
 * quota of the host's used up) is E_UNAVAILABLE; anything else unexpected is logged and becomes
 * E_INTERNAL. Every error the relay answers passes here (DO results, HTTP responses, socket
 * frames and closes), so an E_RATE_LIMITED without a wait in its details, which `rateLimited`
 * cannot build, is a relay bug: logged and answered E_INTERNAL, never sent as a 429 (SPEC §9).
 */
export function toTrestleError(error: unknown): TrestleError {
  if (error instanceof TrestleError && error.code === "E_RATE_LIMITED" && retryAfterOf(error) === null) {
    console.error("a rate-limit refusal without a wait", error);
    return new TrestleError("E_INTERNAL");
  }
  if (error instanceof TrestleError) return error;
  console.error("unexpected error", error);
  if (isInfrastructureFailure(error)) {
    return new TrestleError(
      "E_UNAVAILABLE",
      "the relay's storage could not run this request now (its host may be busy or out of a daily quota); try again later",
    );
  }
  return new TrestleError("E_INTERNAL");
}

/** Whether `error` is one the Durable Object runtime raised itself (https://developers.cloudflare.com/durable-objects/best-practices/error-handling/). */
function isInfrastructureFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const flags = error as Error & { retryable?: unknown; overloaded?: unknown; remote?: unknown };
  return flags.remote !== true && (flags.retryable === true || flags.overloaded === true);
}

/** The value of a result, or its error thrown as a TrestleError. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new TrestleError(result.error.code, result.error.message, result.error.details);
}

/** The HTTP response for an error: the wire envelope with the code's status, and for every 429 `Retry-After`, its details' wait in whole seconds. */
export function errorResponse(error: unknown): Response {
  const err = toTrestleError(error);
  const wait = retryAfterOf(err);
  const headers: Record<string, string> = wait === null ? {} : { "retry-after": String(retryAfterSeconds(wait)) };
  return Response.json(err.toEnvelope(), { status: httpStatusOf(err.code), headers });
}
