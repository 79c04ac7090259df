/**
 * The table's push of appended entries to its sockets: entries are queued as they are appended,
 * and a push runs once the timer queued by the first of them fires (usually after the answers to
 * the writes so far have gone out), sending everything queued meanwhile as one batch, in ledger
 * order, with one head. Under a sustained burst of writes workerd runs that timer late (in one
 * profile 3,000 of 4,000 entries went out in one batch at the end), so a push also starts as soon as
 * PUSH_BATCH_MAX entries wait, and no push carries more: readers follow a burst while it lasts.
 */
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { TableContext } from "../context.js";
import { push } from "./fan-out.js";
import { Frames } from "./frames.js";

/** The most entries one push carries; a push starts once this many wait, whether or not the timer has fired. */
export const PUSH_BATCH_MAX = 64;

/** Entries appended and not pushed yet; at most one push waits to start at a time, and pushes run one after another. */
export class PushQueue {
  private pushes: Promise<void> = Promise.resolve();
  private unpushed: Entry[] = [];
  private timer = false;
  private waiting = false;

  constructor(private readonly table: TableContext) {}

  /** Queues `entries` (consecutive, after those queued before) for the next push. */
  queue(entries: readonly Entry[]): void {
    this.unpushed.push(...entries);
    if (this.unpushed.length >= PUSH_BATCH_MAX) return this.start();
    if (this.timer) return;
    this.timer = true;
    setTimeout(() => {
      this.timer = false;
      this.start();
    }, 0);
  }

  /** Drops what is queued (the table was deleted: nothing of it may go out any more). */
  clear(): void {
    this.unpushed = [];
  }

  /** Chains a push after those before it, unless one is chained and has not taken its batch yet. */
  private start(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.pushes = this.pushes.then(() => {
      this.waiting = false;
      return this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.unpushed.splice(0, PUSH_BATCH_MAX);
    if (this.unpushed.length > 0) this.start();
    if (batch.length === 0 || !this.table.state) return;
    try {
      const head = await this.table.pushHead();
      const state = this.table.state;
      if (!state) return;
      push(this.table.sockets(), new Frames(state, batch, head), this.table);
    } catch (error) {
      console.error("push failed", error);
    }
  }
}
