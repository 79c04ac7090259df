/**
 * The table's read paths: a seat's projection (O(tail): prefix from the folded state, tail from
 * SQL after the cursor), pages of entries, and the portable export. Callers authorize first. Every
 * path applies the reader's visibility (docs/SPEC.md §5.3): a projection skips what the seat may
 * not read (its cursor still advances past it); entries and exports show it as `{ seq, leaf }`.
 */
import { exportText } from "../../../src/protocol/ledger/export.js";
import { TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { buildProjection } from "../../../src/protocol/reading/projection.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import type { Projection } from "../../../src/protocol/schemas/projection.js";
import type { EntriesResponse, TasksResponse } from "../../../src/protocol/schemas/responses.js";
import { canRead, canReadTask, viewOf } from "../../../src/protocol/reading/visibility.js";
import type { Ledger } from "../storage/ledger.js";

/** What reads need from the ledger: its length, ranges by seq, and truncated originals. */
export type ReadableLedger = Pick<Ledger, "seq" | "range" | "all" | "originals">;

/** The projection for a seat after `after` (0 = from the start): one page of the ledger, the entries it may read. */
export function readProjection(
  state: TableState,
  ledger: Pick<Ledger, "seq" | "range">,
  principal: Principal,
  after: number,
): Projection {
  if (!("seat" in principal)) throw new TrestleError("E_FORBIDDEN", "a projection is read as a seat");
  const from = Math.max(0, Math.min(after, ledger.seq));
  const page = ledger.range(from + 1, ledger.seq, LIMITS.page);
  const cursor = page.length > 0 ? page[page.length - 1]!.seq : from;
  const entries = page.filter((e) => canRead(state, principal, e));
  return buildProjection(state, principal.seat, { entries, cursor, more: cursor < ledger.seq });
}

/** Entries from..to (inclusive, clamped to the ledger), one page as `principal` reads it, with the head they chain to. */
export function readEntries(
  state: TableState,
  ledger: Pick<Ledger, "seq" | "range">,
  principal: Principal,
  range: { from: number; to: number },
  head: SignedHead,
): EntriesResponse {
  const last = Math.min(range.to, ledger.seq);
  const page = range.from <= last ? ledger.range(range.from, last, LIMITS.page) : [];
  const end = page.length > 0 ? page[page.length - 1]!.seq : range.from - 1;
  return { items: viewOf(state, principal, page), next: end < last ? end + 1 : null, head };
}

/**
 * Tasks opened after entry `after`, in opening order, one page; a proposal's tasks are never split
 * across pages. Only the tasks the reader may read: a seat whose visibility rule hides the task
 * entries, or the entry that opened a task, does not get it (§5.3).
 */
export function readTasks(state: TableState, after: number, principal: Principal): Omit<TasksResponse, "head"> {
  const all = Object.values(state.tasks)
    .filter((t) => t.opened > after && canReadTask(state, principal, t))
    .sort((a, b) => a.opened - b.opened);
  const last = all[LIMITS.page - 1];
  const items = last ? all.filter((t) => t.opened <= last.opened) : all;
  const next = items.length < all.length ? items[items.length - 1]!.opened : null;
  return { items, next };
}

/** The whole ledger as `principal` reads it, as export text with the `earlier` heads and the current `head` (originals only of readable entries). */
export function readExport(
  state: TableState,
  ledger: ReadableLedger,
  principal: Principal,
  head: SignedHead,
  earlier: readonly SignedHead[] = [],
): string {
  const items = viewOf(state, principal, ledger.all());
  return exportText(
    { table: state.table, relay: state.relay },
    items,
    [...earlier, head],
    ledger.originals(1, ledger.seq),
  );
}
