/**
 * The table's push of appended entries to its sockets: entries are queued as they are appended,
 * and one push runs after the answers to the writes so far have gone out (a writer's ack before
 * the fan-out), sending everything queued meanwhile as one batch, in ledger order, with one head.
 */
import type { Entry } from "../../../src/protocol/schemas/entry.js";
import type { TableContext } from "../context.js";
import { push } from "./fan-out.js";
import { Frames } from "./frames.js";

/** Entries appended and not pushed yet; at most one push is queued at a time, and pushes run one after another. */
export class PushQueue {
  private pushes: Promise<void> = Promise.resolve();
  private unpushed: Entry[] = [];
  private queued = false;

  constructor(private readonly table: TableContext) {}

  /** Queues `entries` (consecutive, after those queued before) for the next push. */
  queue(entries: readonly Entry[]): void {
    this.unpushed.push(...entries);
    if (this.queued) return;
    this.queued = true;
    setTimeout(() => {
      this.queued = false;
      this.pushes = this.pushes.then(() => this.flush());
    }, 0);
  }

  /** Drops what is queued (the table was deleted: nothing of it may go out any more). */
  clear(): void {
    this.unpushed = [];
  }

  private async flush(): Promise<void> {
    const batch = this.unpushed.splice(0);
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
