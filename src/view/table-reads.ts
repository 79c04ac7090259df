/**
 * One kind of event per followed table of the principal window, kept for new pages: each table's
 * latest event of that kind (an owner loop, owner-loop.ts; a market, markets.ts), read again on the
 * window's poll, after new entries and after each of the page's actions. Reads of one table run
 * one at a time, in order, so an older read never replaces a newer one; an event is emitted only
 * when it differs from the one before, and a table that has none (a read answering null) keeps none.
 */
import type { TableWatch } from "./table-watch.js";

/** Every followed table's latest event of one kind. */
export class TableReads<E> {
  private readonly last = new Map<string, E>();
  private readonly reads = new Map<string, Promise<void>>();

  constructor(
    /** The table's event now; null when the table has none of this kind. */
    private readonly readEvent: (watch: TableWatch) => Promise<E | null>,
    private readonly emit: (event: E) => void,
  ) {}

  /** The latest event of every table read so far. */
  events(): E[] {
    return [...this.last.values()];
  }

  /** Reads `watch`'s table again after any read of it under way; resolves when this read is done. */
  read(watch: TableWatch): Promise<void> {
    const next = (this.reads.get(watch.table) ?? Promise.resolve())
      .then(() => this.readNow(watch))
      .catch(() => undefined);
    this.reads.set(watch.table, next);
    return next;
  }

  private async readNow(watch: TableWatch): Promise<void> {
    const event = await this.readEvent(watch);
    if (event === null || JSON.stringify(this.last.get(watch.table)) === JSON.stringify(event)) return;
    this.last.set(watch.table, event);
    this.emit(event);
  }
}
