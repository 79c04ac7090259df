/**
 * Appends per second into one table: `seats` seats each with `inFlight` pre-signed writes
 * outstanding, over their WebSockets or over HTTP; the relay's CPU time and SQLite rows written
 * per appended entry over the same run (rows from the storage API's cursor counts).
 */
import type { SubmitRequest } from "../../../src/protocol/index.js";
import type { BenchRelay } from "../harness/relay.js";
import { percentile, round } from "../harness/stats.js";
import { headOf, openRoom, post, presign } from "../harness/table.js";
import { pipeline, WsSeat, type Push } from "../harness/ws-seat.js";

/** One run's figures. */
export interface AppendRun {
  appends_per_s: number;
  ack_p50_ms: number;
  ack_p99_ms: number;
  entries: number;
  relay_cpu_ms_per_append: number;
  rows_written_per_entry: number;
  /** Over WebSocket: the share of the run's entries pushed to the first seat's socket before the run's last ack (readers follow a burst while it lasts). */
  pushed_during_run?: number;
  /** Over WebSocket: the most entries one push to the first seat's socket carried. */
  largest_push?: number;
}

/** Writes `perSeat` entries from each of `seats` seats with `inFlight` in flight each, over `transport`, into a fresh table. */
export async function appendRun(
  relay: BenchRelay,
  id: string,
  o: { transport: "ws" | "http"; seats: number; inFlight: number; perSeat: number },
): Promise<AppendRun> {
  const table = await openRoom(relay.url, id, o.seats);
  const signed = await Promise.all(table.seats.map((seat) => presign(table, seat, o.perSeat)));
  const start = (await headOf(table)).seq;
  const sockets =
    o.transport === "ws" ? await Promise.all(table.seats.map((seat) => WsSeat.connect(table, seat, start))) : [];
  const senders = table.seats.map((_, i) =>
    o.transport === "ws"
      ? sockets[i]!
      : (request: SubmitRequest) => post(`${table.url}/tables/${table.id}/entries`, request),
  );
  const pushes: Push[] = [];
  if (sockets[0]) sockets[0].onPush = (push) => pushes.push(push);
  await meter(relay, id);
  const cpu = relay.cpuSeconds();
  const t0 = performance.now();
  const latencies = (await Promise.all(senders.map((send, i) => pipeline(send, signed[i]!, o.inFlight)))).flat();
  const t1 = performance.now();
  const elapsed = (t1 - t0) / 1000;
  const cpuUsed = relay.cpuSeconds() - cpu;
  const end = (await headOf(table)).seq;
  const rows = await meter(relay, id);
  for (const socket of sockets) socket.close();
  const appended = end - start;
  return {
    appends_per_s: round(latencies.length / elapsed, 0),
    ack_p50_ms: round(percentile(latencies, 50)),
    ack_p99_ms: round(percentile(latencies, 99)),
    entries: appended,
    relay_cpu_ms_per_append: round((cpuUsed * 1000) / latencies.length, 3),
    rows_written_per_entry: round(rows.rows_written / appended, 3),
    ...(o.transport === "ws"
      ? {
          pushed_during_run: round(
            pushes.filter((p) => p.at <= t1).reduce((sum, p) => sum + p.seqs.length, 0) / appended,
            3,
          ),
          largest_push: Math.max(0, ...pushes.map((p) => p.seqs.length)),
        }
      : {}),
  };
}

/** The table object's SQLite meter since its last read (worker.ts). */
export async function meter(
  relay: BenchRelay,
  id: string,
): Promise<{ rows_written: number; rows_read: number; statements: number }> {
  return (await fetch(`${relay.url}/__bench/meter/${id}`)).json() as Promise<{
    rows_written: number;
    rows_read: number;
    statements: number;
  }>;
}
