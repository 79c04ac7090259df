/**
 * The ledger limit is exact (docs/SPEC.md §5.4, decision 0191): a submission, with every system
 * entry it causes, never takes the ledger past the relay's published entry limit. An open table
 * keeps room for one more turn (the entry, the floor move it causes, and this close); a batch that
 * leaves less closes the table as `ledger_full` at its end, and a batch that would not fit, close
 * included, is refused with E_TOO_LARGE before anything is written.
 */
import { TrestleError } from "../errors.js";
import type { UnchainedEntry } from "../schemas/entry.js";
import { applyEntry } from "./apply.js";
import type { TableState } from "./state.js";

/** Entries an open table keeps free after every batch: a turn, the floor move it causes, and the ledger_full close. */
const TURN_ROOM = 3;

/**
 * `entries` (already applied to `state`, which was at seq `from`) with the ledger_full close an
 * open table needs when fewer than TURN_ROOM entries would be left; throws E_TOO_LARGE when they
 * would pass `maxEntries`. Mutates `state` when it appends the close.
 */
export function fitLedger(
  state: TableState,
  entries: UnchainedEntry[],
  from: number,
  maxEntries: number,
  now: number,
): UnchainedEntry[] {
  const closes = state.closed === null && maxEntries - state.seq < TURN_ROOM;
  const needed = state.seq - from + (closes ? 1 : 0);
  if (from + needed > maxEntries) {
    throw new TrestleError(
      "E_TOO_LARGE",
      `this entry and the entries it causes (${needed}) would pass the ledger's limit of ${maxEntries} entries (${maxEntries - from} left)`,
      { limit: maxEntries, seq: from, entries: needed },
    );
  }
  if (!closes) return entries;
  const close = {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "table_closed",
    data: { reason: "ledger_full" },
    author: null,
    seq: state.seq + 1,
    ts: now,
  } as const;
  applyEntry(state, close);
  return [...entries, close];
}
