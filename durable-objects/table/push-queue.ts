/**
 * The table's push of appended entries to its sockets: entries are queued as they are appended,
 * and one push runs after the answers to the writes so far have gone out (a writer's ack before
 * the fan-out), sending everything queued meanwhile as one batch, in ledger order, with one head.
 */
import type { TableState } from "../../src/protocol/policy/state.js";
import type { Entry } from "../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import { Frames } from "./frames.js";

/** What a push needs from the table object. */
export interface PushHost {
  /** The folded state now (null once the table is gone). */
  readonly state: TableState | null;
  /** A signed head at or after every entry appended so far. */
  head(): Promise<SignedHead>;
  /** Sends one batch's frames to the table's sockets. */
  send(frames: Frames): void;
}

/** Entries appended and not pushed yet; at most one push is queued at a time, and pushes run one after another. */
export class PushQueue {
  private pushes: Promise<void> = Promise.resolve();
  private unpushed: Entry[] = [];
  private queued = false;

  constructor(private readonly host: PushHost) {}

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
    if (batch.length === 0 || !this.host.state) return;
    try {
      const head = await this.host.head();
      const state = this.host.state;
      if (!state) return;
      this.host.send(new Frames(state, batch, head));
    } catch (error) {
      console.error("push failed", error);
    }
  }
}
