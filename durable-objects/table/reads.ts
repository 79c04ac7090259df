/**
 * The table's read paths: a seat's projection (O(tail): prefix from the folded state, tail from
 * SQL after the cursor), pages of entries, and the portable export. Callers authorize first.
 */
import { exportText } from "../../src/protocol/export.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { LIMITS } from "../../src/protocol/limits.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import { buildProjection } from "../../src/protocol/projection.js";
import type { Principal } from "../../src/protocol/schemas/auth.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import type { Projection } from "../../src/protocol/schemas/projection.js";
import type { EntriesResponse, TasksResponse } from "../../src/protocol/schemas/responses.js";
import type { Ledger } from "./ledger.js";

/** The projection for a seat after `after` (0 = from the start), one page of tail. */
export function readProjection(state: TableState, ledger: Ledger, principal: Principal, after: number): Projection {
  if (!("seat" in principal)) throw new TrestleError("E_FORBIDDEN", "a projection is read as a seat");
  const from = Math.max(0, Math.min(after, ledger.seq));
  const entries = ledger.range(from + 1, ledger.seq, LIMITS.page);
  const cursor = entries.length > 0 ? entries[entries.length - 1]!.seq : from;
  return buildProjection(state, principal.seat, { entries, cursor, more: cursor < ledger.seq });
}

/** Entries from..to (inclusive, clamped to the ledger), one page, with the head they chain to. */
export function readEntries(ledger: Ledger, from: number, to: number, head: SignedHead): EntriesResponse {
  const last = Math.min(to, ledger.seq);
  const items = from <= last ? ledger.range(from, last, LIMITS.page) : [];
  const end = items.length > 0 ? items[items.length - 1]!.seq : from - 1;
  return { items, next: end < last ? end + 1 : null, head };
}

/** Tasks opened after entry `after`, in opening order, one page; a proposal's tasks are never split across pages. */
export function readTasks(state: TableState, after: number): TasksResponse {
  const all = Object.values(state.tasks)
    .filter((t) => t.opened > after)
    .sort((a, b) => a.opened - b.opened);
  const last = all[LIMITS.page - 1];
  const items = last ? all.filter((t) => t.opened <= last.opened) : all;
  const next = items.length < all.length ? items[items.length - 1]!.opened : null;
  return { items, next };
}

/** The whole ledger as export text with the current head. */
export function readExport(state: TableState, ledger: Ledger, head: SignedHead): string {
  return exportText({ table: state.table, relay: state.relay }, ledger.all(), [head], ledger.originals(1, ledger.seq));
}
