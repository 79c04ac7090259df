/**
 * The operator limits one table enforces itself (docs/SPEC.md §10.1), counted in memory in O(1)
 * per request and never written to SQLite: writes per seat, owner-signed writes per owner, signed
 * reads per reader, frames per socket; and the socket caps, counted from the sockets the runtime
 * holds (which outlive hibernation). Traffic at one table never touches another table's counters.
 * A wake starts every bucket full: an object only sleeps after it went quiet, by when a bucket has
 * mostly refilled anyway (docs/SECURITY.md says what this leaves open).
 */
import type { TrestleError } from "../../src/protocol/errors.js";
import type { OperatorLimits } from "../../src/protocol/limits/operator-limits.js";
import { rateLimited, waitText } from "../../src/protocol/limits/rate-limited.js";
import type { Principal } from "../../src/protocol/schemas/auth.js";
import { rateOf } from "../limits/config.js";
import { Buckets, overdrawn, step } from "../limits/gcra.js";

/** The wait a refusal at a socket cap asks for: caps free up when sockets close, not on a clock. */
export const CAP_RETRY_MS = 30_000;

/** What to do with a socket's frame: handle it, refuse it (an error frame), or close the socket (4429). */
export type FrameVerdict = { verdict: "ok" } | { verdict: "refuse" | "close"; error: TrestleError };

/** The in-memory counters of one table. */
export class TableLimits {
  private readonly buckets = new Buckets();
  private readonly frames = new WeakMap<WebSocket, number>();
  private cached: OperatorLimits | undefined;

  constructor(private readonly limits: () => OperatorLimits) {}

  /** The limits in effect, read once (E_UNAVAILABLE, every time, when the operator's settings are malformed). */
  get values(): OperatorLimits {
    this.cached ??= this.limits();
    return this.cached;
  }

  /** Counts one entry written by `seat`; throws E_RATE_LIMITED when its bucket is empty. */
  seatWrite(seat: string, now: number): void {
    this.spend(`w:${seat}`, "seat_writes_per_min", now, `seat ${seat} writes faster than this relay allows`);
  }

  /** Counts one owner-signed write (approval, pause, resume) by owner `owner` of this table. */
  ownerWrite(owner: string, now: number): void {
    this.spend(`o:${owner}`, "owner_writes_per_min", now, `owner ${owner} signs writes faster than this relay allows`);
  }

  /** Counts one signed read by `reader`. */
  read(reader: Principal, now: number): void {
    const who = "seat" in reader ? `seat ${reader.seat}` : `owner ${reader.owner}`;
    this.spend(
      `r:${"seat" in reader ? `s:${reader.seat}` : `o:${reader.owner}`}`,
      "reads_per_min",
      now,
      `${who} reads faster than this relay allows`,
    );
  }

  /**
   * Counts one frame from `ws`. Every frame costs a token, refused or not; a socket that was told to
   * wait and sends a further period's worth is closed, so a flood costs the table one refusal each
   * for a while, then nothing.
   */
  frame(ws: WebSocket, now: number): FrameVerdict {
    const rate = rateOf(this.values, "socket_frames_per_s");
    const { tat, waitMs } = step(rate, this.frames.get(ws), now, true);
    this.frames.set(ws, tat);
    if (waitMs === 0) return { verdict: "ok" };
    const error = rateLimited(
      "socket_frames_per_s",
      waitMs,
      `this socket sends more than ${rate.count} frames a second; retry in ${waitText(waitMs)}`,
    );
    return { verdict: overdrawn(rate, tat, now) ? "close" : "refuse", error };
  }

  /** The refusal when `open` sockets already reach cap `name`, else null (0: no cap). */
  capped(
    name: "sockets_per_table" | "public_sockets_per_table" | "sockets_per_seat",
    open: number,
    what: string,
  ): TrestleError | null {
    const cap = this.values[name];
    if (cap === 0 || open < cap) return null;
    return rateLimited(
      name,
      CAP_RETRY_MS,
      `${what} already has ${open} open sockets, the most this relay allows (${name}: ${cap})`,
    );
  }

  private spend(
    key: string,
    name: "seat_writes_per_min" | "owner_writes_per_min" | "reads_per_min",
    now: number,
    what: string,
  ): void {
    const rate = rateOf(this.values, name);
    const waitMs = this.buckets.take(key, rate, now);
    if (waitMs > 0) throw rateLimited(name, waitMs, `${what} (${name}: ${rate.count}); retry in ${waitText(waitMs)}`);
  }
}
