/**
 * Reconnect delays: exponential backoff with "equal jitter" (half of each delay fixed, half
 * random), so clients dropped together by one relay restart do not all come back at once.
 */
import type { Random } from "./random.js";

/** Reconnect delays: attempt n waits about min(maxMs, initialMs * 2^n), with half of it random. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** The default backoff: 250 ms doubling up to 30 s. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 30_000 };

/** The delay before reconnect attempt `attempt` (0-based): "equal jitter", in [d/2, d). */
export function backoffDelay(attempt: number, backoff: Backoff, random: Random): number {
  const d = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return d / 2 + random() * (d / 2);
}
