/**
 * Rate limits as the generic cell rate algorithm (GCRA): a bucket of `count` tokens refilling at
 * `count` per `periodMs`, kept as one number per key, the theoretical arrival time `tat` of the next
 * token. One step is O(1) and tells a refused caller exactly how long to wait. Pure: the caller
 * keeps the `tat` (in memory or in SQLite) and passes the time in.
 */

/** `count` per `periodMs`; a count of 0 is no limit. */
export interface Rate {
  count: number;
  periodMs: number;
}

/** The outcome of one step: the `tat` to keep, and the wait before a retry can pass (0: allowed). */
export interface Step {
  tat: number;
  waitMs: number;
}

/**
 * One request at `now` against the bucket whose state is `tat` (undefined: full). Allowed when the
 * bucket holds a token; a refusal leaves the bucket as it was, unless `charge` (a socket's frames:
 * every frame costs, refused or not), which lets `overdrawn` tell a socket that keeps sending.
 */
export function step(rate: Rate, tat: number | undefined, now: number, charge = false): Step {
  if (rate.count <= 0) return { tat: now, waitMs: 0 };
  const interval = rate.periodMs / rate.count;
  const tolerance = rate.periodMs - interval;
  const start = Math.max(tat ?? now, now);
  const late = start - now - tolerance;
  if (late > 0) return { tat: charge ? start + interval : start, waitMs: Math.ceil(late) };
  return { tat: start + interval, waitMs: 0 };
}

/** Whether a bucket charged past empty is a further full period in debt: its sender keeps sending after being told to wait. */
export function overdrawn(rate: Rate, tat: number, now: number): boolean {
  return rate.count > 0 && tat - now > 2 * rate.periodMs;
}

/** Buckets kept in memory by key (a seat, an owner, a reader); lost on a wake, which leaves them full. */
export class Buckets {
  private readonly tats = new Map<string, number>();

  /** Takes a token for `key` at `now`: 0 when allowed, else the wait in ms. */
  take(key: string, rate: Rate, now: number): number {
    const { tat, waitMs } = step(rate, this.tats.get(key), now);
    this.tats.set(key, tat);
    return waitMs;
  }
}
