/**
 * What the market's trading cost the relay, from the bench relay's meter (harness/meter.ts), and
 * what that means against the free plan's daily quotas (docs/SELF-HOST.md "The free plan's
 * quotas": 100,000 Durable Object requests, 100,000 rows written and 100,000 Worker requests a day;
 * incoming WebSocket messages billed 20 to 1). Requests are stub calls (RPC methods and `fetch`),
 * alarms run, and incoming socket messages over 20; rows are the storage API's cursor counts.
 */
import type { ObjectMeter } from "../harness/meter.js";
import { round } from "../harness/stats.js";

/** The free plan's daily quotas this bench measures against. */
export const FREE_PLAN = { do_requests: 100_000, rows_written: 100_000, worker_requests: 100_000 };

/** A group of objects' cost over a phase. */
export interface Cost {
  objects: number;
  rows_written: number;
  /** Billed requests: calls and alarms, plus incoming socket messages / 20. */
  requests: number;
  calls: number;
  alarms: number;
  ws_in: number;
  /** Calls by `BINDING.method`, and rows written by `BINDING: statement` (key-value writes as `BINDING: put/delete`). */
  calls_by: Record<string, number>;
  written_by: Record<string, number>;
}

/** Every object's meter, by binding and name, from the relay at `url`. */
export async function readMeter(url: string): Promise<Map<string, ObjectMeter>> {
  const objects = (await (await fetch(`${url}/__bench/objects`)).json()) as ObjectMeter[];
  return new Map(objects.map((m) => [`${m.binding}:${m.name}`, m]));
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** `after` less `before`, key by key, each key named with `prefix`; zero differences left out. */
function less(
  after: Record<string, number>,
  before: Record<string, number> | undefined,
  prefix: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(after)) {
    const d = n - (before?.[key] ?? 0);
    if (d !== 0) out[`${prefix}${key}`] = d;
  }
  return out;
}

/** `a` and `b` added key by key. */
function plus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [key, n] of Object.entries(b)) out[key] = (out[key] ?? 0) + n;
  return out;
}

/** What each object cost between `before` and `after`, by binding and name. */
export function delta(before: Map<string, ObjectMeter>, after: Map<string, ObjectMeter>): Map<string, Cost> {
  const out = new Map<string, Cost>();
  for (const [key, m] of after) {
    const b = before.get(key);
    const calls_by = less(m.calls, b?.calls, `${m.binding}.`);
    const kv = m.kv_writes - (b?.kv_writes ?? 0);
    const written_by = {
      ...less(m.written_by, b?.written_by, `${m.binding}: `),
      ...(kv > 0 ? { [`${m.binding}: key-value put/delete`]: kv } : {}),
    };
    const calls = sum(calls_by);
    const alarms = m.alarms - (b?.alarms ?? 0);
    const ws_in = m.ws_in - (b?.ws_in ?? 0);
    const rows_written = m.rows_written + m.kv_writes - (b ? b.rows_written + b.kv_writes : 0);
    if (calls === 0 && alarms === 0 && ws_in === 0 && rows_written === 0) continue;
    out.set(key, {
      objects: 1,
      rows_written,
      calls,
      alarms,
      ws_in,
      requests: calls + alarms + ws_in / 20,
      calls_by,
      written_by,
    });
  }
  return out;
}

const ZERO: Cost = {
  objects: 0,
  rows_written: 0,
  requests: 0,
  calls: 0,
  alarms: 0,
  ws_in: 0,
  calls_by: {},
  written_by: {},
};

/** The sum of `costs` whose key `pick` takes. */
export function total(costs: Map<string, Cost>, pick: (key: string) => boolean = () => true): Cost {
  let t = ZERO;
  for (const [key, c] of costs) {
    if (!pick(key)) continue;
    t = {
      objects: t.objects + 1,
      rows_written: t.rows_written + c.rows_written,
      requests: t.requests + c.requests,
      calls: t.calls + c.calls,
      alarms: t.alarms + c.alarms,
      ws_in: t.ws_in + c.ws_in,
      calls_by: plus(t.calls_by, c.calls_by),
      written_by: plus(t.written_by, c.written_by),
    };
  }
  return t;
}

/** `c` divided by `n` (per deal), rounded. */
export function per(
  c: Cost,
  n: number,
): { rows_written: number; requests: number; calls: number; alarms: number; ws_in: number } {
  const d = Math.max(1, n);
  return {
    rows_written: round(c.rows_written / d, 1),
    requests: round(c.requests / d, 1),
    calls: round(c.calls / d, 1),
    alarms: round(c.alarms / d, 2),
    ws_in: round(c.ws_in / d, 1),
  };
}

/** The largest parts of `counts` divided by `n` (per deal), largest first, down to `least` each: what the rows or calls are. */
export function largest(counts: Record<string, number>, n: number, least = 0.5): Record<string, number> {
  const d = Math.max(1, n);
  return Object.fromEntries(
    Object.entries(counts)
      .map(([key, v]) => [key, round(v / d, 1)] as const)
      .filter(([, v]) => v >= least)
      .sort((a, b) => b[1] - a[1]),
  );
}

/** Deals a day a free account carries at `rows` rows written, `requests` DO requests and `worker` Worker requests per deal: the tightest of the three quotas. */
export function dealsPerDay(
  rows: number,
  requests: number,
  worker: number,
): { by_rows_written: number; by_do_requests: number; by_worker_requests: number; deals_per_day: number } {
  const by = (quota: number, cost: number) => (cost > 0 ? Math.floor(quota / cost) : Number.MAX_SAFE_INTEGER);
  const r = {
    by_rows_written: by(FREE_PLAN.rows_written, rows),
    by_do_requests: by(FREE_PLAN.do_requests, requests),
    by_worker_requests: by(FREE_PLAN.worker_requests, worker),
  };
  return { ...r, deals_per_day: Math.min(r.by_rows_written, r.by_do_requests, r.by_worker_requests) };
}
