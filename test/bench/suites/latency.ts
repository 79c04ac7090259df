/**
 * Ack latency at a steady rate: one seat writes `rate` entries a second, open loop (each write
 * leaves at its scheduled time whether or not earlier ones were acknowledged), over its socket or
 * over HTTP; latency is from send to ack.
 */
import type { SubmitRequest } from "../../../src/protocol/index.js";
import type { BenchRelay } from "../harness/relay.js";
import { percentile, round } from "../harness/stats.js";
import { headOf, openRoom, post, presign } from "../harness/table.js";
import { WsSeat } from "../harness/ws-seat.js";

/** Latency percentiles of a steady-rate run. */
export interface SteadyRun {
  rate_per_s: number;
  writes: number;
  ack_p50_ms: number;
  ack_p99_ms: number;
  ack_max_ms: number;
}

/** Writes `rate`/s for `seconds` from one seat over `transport` into a fresh table. */
export async function steadyRun(
  relay: BenchRelay,
  id: string,
  o: { transport: "ws" | "http"; rate: number; seconds: number },
): Promise<SteadyRun> {
  const table = await openRoom(relay.url, id, 1);
  const seat = table.seats[0]!;
  const count = o.rate * o.seconds;
  const signed = await presign(table, seat, count);
  const socket = o.transport === "ws" ? await WsSeat.connect(table, seat, (await headOf(table)).seq) : null;
  const send = socket
    ? (r: SubmitRequest) => socket.submit(r)
    : (r: SubmitRequest) => post(`${table.url}/tables/${table.id}/entries`, r);
  const latencies: number[] = [];
  const gap = 1000 / o.rate;
  const t0 = performance.now();
  const writes = signed.map(async (request, i) => {
    const due = t0 + i * gap;
    await sleepUntil(due);
    const sent = performance.now();
    await send(request);
    latencies.push(performance.now() - sent);
  });
  await Promise.all(writes);
  socket?.close();
  return {
    rate_per_s: o.rate,
    writes: latencies.length,
    ack_p50_ms: round(percentile(latencies, 50)),
    ack_p99_ms: round(percentile(latencies, 99)),
    ack_max_ms: round(Math.max(...latencies)),
  };
}

function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}
