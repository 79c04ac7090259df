/**
 * Fan-out: one seat writes, `readers` other sockets (spread over the other seats, several per
 * seat) each receive the pushed entry; the figure is the time from the write leaving the writer
 * until the last reader has it, per write, over `writes` writes one after another. Also the
 * relay's resident memory with all those sockets open.
 */
import type { BenchRelay } from "../harness/relay.js";
import { percentile, round } from "../harness/stats.js";
import { headOf, openRoom, presign } from "../harness/table.js";
import { WsSeat } from "../harness/ws-seat.js";

/** Fan-out figures for one reader count. */
export interface FanoutRun {
  readers: number;
  writes: number;
  all_received_p50_ms: number;
  all_received_p99_ms: number;
  relay_rss_mb_with_sockets: number;
  relay_rss_mb_before: number;
}

const SOCKETS_PER_SEAT = 4;

/** `writes` writes from one seat to a table with `readers` reader sockets. */
export async function fanoutRun(
  relay: BenchRelay,
  id: string,
  o: { readers: number; writes: number },
): Promise<FanoutRun> {
  const readerSeats = Math.ceil(o.readers / SOCKETS_PER_SEAT);
  const table = await openRoom(relay.url, id, readerSeats + 1);
  const [writerSeat, ...others] = table.seats;
  const signed = await presign(table, writerSeat!, o.writes);
  const start = (await headOf(table)).seq;
  const rssBefore = relay.rssBytes();
  const writer = await WsSeat.connect(table, writerSeat!, start);
  const readers: WsSeat[] = [];
  for (let i = 0; i < o.readers; i += 1) readers.push(await WsSeat.connect(table, others[i % others.length]!, start));
  const rss = relay.rssBytes();
  const times: number[] = [];
  // The writer is the table's only writer and a say in an open room is one entry: write i lands at start + i + 1.
  for (const [i, request] of signed.entries()) {
    const expected = start + i + 1;
    let pending = readers.length;
    const allReceived = new Promise<number>((resolve) => {
      for (const reader of readers) {
        let got = false;
        reader.onPush = (push) => {
          if (got || !push.seqs.includes(expected)) return;
          got = true;
          pending -= 1;
          if (pending === 0) resolve(push.at);
        };
      }
    });
    const sent = performance.now();
    const seq = await writer.submit(request);
    if (seq !== expected) throw new Error(`fan-out: write ${i} landed at ${seq}, not ${expected}`);
    times.push((await allReceived) - sent);
  }
  writer.close();
  for (const reader of readers) reader.close();
  return {
    readers: o.readers,
    writes: times.length,
    all_received_p50_ms: round(percentile(times, 50)),
    all_received_p99_ms: round(percentile(times, 99)),
    relay_rss_mb_with_sockets: round(rss / 2 ** 20, 1),
    relay_rss_mb_before: round(rssBefore / 2 ** 20, 1),
  };
}
