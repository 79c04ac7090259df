/**
 * What opening a table costs the free plan's daily quota of SQLite rows written (docs/SELF-HOST.md):
 * the rows the table object writes to open a table and seat `seats` seats, schema included, from
 * the storage API's own cursor counts. The per-entry figure is appends.ts's rows_written_per_entry.
 */
import type { BenchRelay } from "../harness/relay.js";
import { openRoom } from "../harness/table.js";
import { meter } from "./appends.js";

/** Rows the table object wrote to open table `id` and seat `seats` seats. */
export async function openingRows(
  relay: BenchRelay,
  id: string,
  seats: number,
): Promise<{ seats: number; entries: number; rows_written: number }> {
  await openRoom(relay.url, id, seats);
  const { rows_written } = await meter(relay, id);
  return { seats, entries: seats + 1, rows_written };
}
