/**
 * Entries frames for one push, built once per visibility class (docs/SPEC.md §5.3) from the
 * entries already in memory: every socket whose readers see the same view of the batch (owner
 * sessions, public viewers and seats without a visibility rule see it all; a seat with a rule sees
 * its own view) is sent the same text. A batch whose frame would pass the frame budget yields
 * null, and its sockets are sent their entries page by page instead.
 */
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import { ruleOf, viewOf } from "../../../src/protocol/reading/visibility.js";

/** Keep each pushed frame well under the 1 MiB WebSocket message limit. */
export const FRAME_BUDGET_CHARS = 512 * 1024;

/** The frames of one push of `batch` (consecutive entries) with `head`. */
export class Frames {
  private readonly built = new Map<string, string | null>();

  constructor(
    private readonly state: TableState,
    /** Consecutive entries, oldest first; never empty. */
    readonly batch: readonly Entry[],
    /** A head at or after the batch's last entry. */
    readonly head: SignedHead,
  ) {}

  /** Seq of the entry before the batch: a socket sent everything up to it takes the batch as is. */
  get before(): number {
    return this.batch[0]!.seq - 1;
  }

  /** Seq of the batch's last entry. */
  get last(): number {
    return this.batch[this.batch.length - 1]!.seq;
  }

  /** The frame text for `reader` (null: the whole view; a principal: its view), or null when over the budget. */
  for(reader: Principal | null): string | null {
    const key = reader === null || "owner" in reader || !ruleOf(this.state.config, reader.seat) ? "" : reader.seat;
    if (!this.built.has(key)) {
      const items = key === "" ? this.batch : viewOf(this.state, { seat: key }, this.batch);
      const text = JSON.stringify({ type: "entries", items, head: this.head });
      this.built.set(key, text.length > FRAME_BUDGET_CHARS ? null : text);
    }
    return this.built.get(key)!;
  }
}
