/**
 * The principal window's owner loop at every table it follows (owner-loop.ts), kept for new pages:
 * each table's latest `loop` event, read again on the window's poll, after new entries and after
 * each of the page's answers, instructions and deal signatures. Reads of one table run one at a
 * time, in order, so an older read never replaces a newer one; an event is emitted only when it
 * differs from the one before.
 */
import { readLoop, type LoopContext } from "./owner-loop.js";
import type { TableWatch } from "./table-watch.js";
import type { LoopEvent } from "./wire.js";

/** Every followed table's owner loop, latest first read. */
export class Loops {
  private readonly last = new Map<string, LoopEvent>();
  private readonly reads = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: LoopContext,
    private readonly emit: (event: LoopEvent) => void,
  ) {}

  /** The latest event of every table read so far. */
  events(): LoopEvent[] {
    return [...this.last.values()];
  }

  /** Reads `watch`'s table again after any read of it under way; resolves when this read is done. */
  read(watch: TableWatch): Promise<void> {
    const next = (this.reads.get(watch.table) ?? Promise.resolve()).then(() => this.readNow(watch)).catch(() => undefined);
    this.reads.set(watch.table, next);
    return next;
  }

  private async readNow(watch: TableWatch): Promise<void> {
    const event = await readLoop(this.ctx, watch);
    if (JSON.stringify(this.last.get(watch.table)) === JSON.stringify(event)) return;
    this.last.set(watch.table, event);
    this.emit(event);
  }
}
