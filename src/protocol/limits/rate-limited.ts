/**
 * What a rate-limit refusal says (docs/SPEC.md §9, §10.1): E_RATE_LIMITED with
 * `details: { limit, retry_after_ms }`, the same over HTTP (429 with `Retry-After` in whole
 * seconds) and over a socket (an `error` frame, then close 4429 when the socket itself is refused).
 * Pure: the relay builds every refusal with `rateLimited`, which cannot build one without a wait
 * nor for a limit it does not name; clients read them with `retryAfterOf`.
 */
import * as z from "zod";
import { TrestleError } from "../errors.js";
import type { RateLimitName } from "./registry.js";

/** Every limit a relay refuses with E_RATE_LIMITED: the operator's rates and socket caps (§10.1) and the fixed windows (§10), as registry.ts names them. */
export type { RateLimitName } from "./registry.js";

/** The `details` of an E_RATE_LIMITED refusal: which published limit, and how long to wait before a retry can pass. */
export const RateLimitDetailsSchema = z.looseObject({
  limit: z.string().min(1).max(64),
  retry_after_ms: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type RateLimitDetails = z.infer<typeof RateLimitDetailsSchema>;

/** The refusal for `limit` with a wait of `retryAfterMs`: the time until the limit would admit the request, rounded up to a whole ms, at least 1. */
export function rateLimited(limit: RateLimitName, retryAfterMs: number, message: string): TrestleError {
  const details: RateLimitDetails = { limit, retry_after_ms: Math.max(1, Math.ceil(retryAfterMs)) };
  return new TrestleError("E_RATE_LIMITED", message, details);
}

/** The wait at `now` until the fixed window of `windowMs` that holds it ends (windows start at multiples of `windowMs`), when its count starts again. */
export function untilWindowEnds(now: number, windowMs: number): number {
  return windowMs - (now % windowMs);
}

/** How long an E_RATE_LIMITED refusal asks to wait, in ms; null for any other error or one without a usable wait. */
export function retryAfterOf(error: TrestleError): number | null {
  if (error.code !== "E_RATE_LIMITED") return null;
  const parsed = RateLimitDetailsSchema.safeParse(error.details);
  return parsed.success ? parsed.data.retry_after_ms : null;
}

/** `Retry-After` for a wait in ms: whole seconds, rounded up, at least 1 (RFC 9110 §10.2.3). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** A wait in words for people: "12 s", "3 min", "2 h". */
export function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.ceil(s / 60)} min`;
  return `${Math.ceil(s / 3600)} h`;
}
