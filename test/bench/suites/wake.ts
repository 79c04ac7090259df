/**
 * The first read after a restart: the relay stopped and started again on the same storage, the
 * Worker warmed with one request to another table, then the first projection read of a table
 * (its object wakes and rebuilds its state) timed, for a long and a short table alike.
 */
import type { BenchRelay } from "../harness/relay.js";
import { round } from "../harness/stats.js";
import { headOf, type BenchTable } from "../harness/table.js";
import { signedGet } from "./reads.js";

/** The first read's time after a restart, for each table. */
export interface WakeRun {
  [table: string]: { entries: number; first_read_ms: number };
}

/** Restarts the relay (`restart` returns the new one), warms it on `warm`, then times the first projection read of each table in `tables`. */
export async function wakeRun(
  restart: () => Promise<BenchRelay>,
  warm: BenchTable,
  tables: readonly BenchTable[],
): Promise<{ relay: BenchRelay; run: WakeRun }> {
  const relay = await restart();
  const at = (t: BenchTable): BenchTable => ({ ...t, url: relay.url });
  await signedGet(at(warm), `/tables/${warm.id}/projection?after=0`, warm.seats[0]!.signer, {
    seat: warm.seats[0]!.name,
  });
  const run: WakeRun = {};
  for (const table of tables) {
    const seat = table.seats[1]!;
    const t = at(table);
    const read = await signedGet(t, `/tables/${table.id}/projection?after=${1_000_000}`, seat.signer, {
      seat: seat.name,
    });
    if (read.status !== 200) throw new Error(`wake read: ${read.status} ${read.text}`);
    run[table.id] = { entries: (await headOf(t)).seq, first_read_ms: round(read.ms) };
  }
  return { relay, run };
}
