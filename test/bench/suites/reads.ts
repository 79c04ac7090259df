/**
 * Reads: a seat's projection (tail of two) as the ledger grows (must stay flat: O(tail)), the
 * SQLite rows each read touches, and the bytes a seat reads per turn through its projection
 * against re-reading the whole transcript.
 */
import { signHttpAuth, type Principal, type Signer } from "../../../src/protocol/index.js";
import type { BenchRelay } from "../harness/relay.js";
import { median, percentile, round } from "../harness/stats.js";
import { headOf, presign, type BenchTable } from "../harness/table.js";
import { pipeline, WsSeat } from "../harness/ws-seat.js";
import { meter } from "./appends.js";

/** A signed GET of `path` at `table` as `as`; the response text and its time in ms. */
export async function signedGet(
  table: BenchTable,
  path: string,
  signer: Signer,
  as: Principal,
): Promise<{ text: string; ms: number; status: number }> {
  const authorization = await signHttpAuth(signer, { table: table.id, as, method: "GET", path, now: Date.now() });
  const t0 = performance.now();
  const response = await fetch(`${table.url}${path}`, { headers: { authorization } });
  const text = await response.text();
  return { text, ms: performance.now() - t0, status: response.status };
}

/** Grows `table` to `size` entries with pipelined socket writes from its first two seats. */
export async function growTo(table: BenchTable, size: number): Promise<void> {
  const head = (await headOf(table)).seq;
  if (head >= size) return;
  const seats = table.seats.slice(0, 2);
  const perSeat = Math.ceil((size - head) / seats.length);
  const sockets = await Promise.all(seats.map((seat) => WsSeat.connect(table, seat, head)));
  const signed = await Promise.all(
    seats.map((seat, i) => presign(table, seat, i === 0 ? perSeat : size - head - perSeat)),
  );
  await Promise.all(sockets.map((socket, i) => pipeline(socket, signed[i]!, 8)));
  for (const socket of sockets) socket.close();
}

/** Projection read latency and rows read at one ledger size. */
export interface ProjectionAt {
  entries: number;
  read_p50_ms: number;
  read_p99_ms: number;
  rows_read_per_read: number;
}

/** `reads` projection reads (tail of two) by seat s1 at the table's current size. */
export async function projectionAt(relay: BenchRelay, table: BenchTable, reads: number): Promise<ProjectionAt> {
  const head = (await headOf(table)).seq;
  const seat = table.seats[1]!;
  await meter(relay, table.id);
  const times: number[] = [];
  for (let i = 0; i < reads; i += 1) {
    const read = await signedGet(table, `/tables/${table.id}/projection?after=${head - 2}`, seat.signer, {
      seat: seat.name,
    });
    if (read.status !== 200) throw new Error(`projection read: ${read.status} ${read.text}`);
    times.push(read.ms);
  }
  const rows = await meter(relay, table.id);
  return {
    entries: head,
    read_p50_ms: round(median(times)),
    read_p99_ms: round(percentile(times, 99)),
    rows_read_per_read: round(rows.rows_read / reads, 1),
  };
}

/** Bytes per turn: one new turn read through the projection, against the whole transcript. */
export interface BytesPerTurn {
  turns: number;
  projection_bytes_per_turn: number;
  transcript_bytes_per_turn: number;
  ratio: number;
}

/** After the table's turns so far: the projection of one new turn vs the full export, as seat s1 and the owner. */
export async function bytesPerTurn(table: BenchTable): Promise<BytesPerTurn> {
  const head = (await headOf(table)).seq;
  const seat = table.seats[1]!;
  const projection = await signedGet(table, `/tables/${table.id}/projection?after=${head - 1}`, seat.signer, {
    seat: seat.name,
  });
  const transcript = await signedGet(table, `/tables/${table.id}/export`, table.owner, { owner: "ops" });
  const p = new TextEncoder().encode(projection.text).byteLength;
  const t = new TextEncoder().encode(transcript.text).byteLength;
  return { turns: head, projection_bytes_per_turn: p, transcript_bytes_per_turn: t, ratio: round(t / p, 1) };
}
