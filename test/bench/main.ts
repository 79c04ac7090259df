/**
 * `npm run bench`: the benchmark suite (docs/BENCHMARKS.md). It starts its own relays (the
 * production Worker and Durable Objects in workerd, as `wrangler dev` runs them, with a meter on
 * each table's SQLite), drives them with pipelined signing clients over loopback, and writes every
 * figure to bench/results.json with the machine and date. `--quick` runs smaller and once, to
 * check the suite itself; the recorded figures come from a full run. `--market` runs the market
 * bench alone (market/run.ts) and writes its `market` section; each mode keeps the other's.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { runChild } from "./harness/child.js";
import { startBenchRelay, type BenchRelay } from "./harness/relay.js";
import { ROOT } from "./harness/root.js";
import { median, medianRun, round } from "./harness/stats.js";
import { openRoom, presign, headOf } from "./harness/table.js";
import { pipeline, WsSeat } from "./harness/ws-seat.js";
import { appendRun } from "./suites/appends.js";
import { openingRows } from "./suites/budget.js";
import { fanoutRun } from "./suites/fanout.js";
import { steadyRun } from "./suites/latency.js";
import { cryptoFigures, ledgerFigures } from "./suites/micro.js";
import { bytesPerTurn, growTo, projectionAt, signedGet } from "./suites/reads.js";
import { wakeRun } from "./suites/wake.js";
import { FULL, marketRun, QUICK } from "./market/run.js";

const quick = process.argv.includes("--quick");
const RUNS = quick ? 1 : 3;
const work = mkdtempSync(join(tmpdir(), "trestle-bench-"));
let serial = 0;
const fresh = (prefix: string) => `b-${prefix}-${Date.now().toString(36)}-${(serial += 1)}`;
const figures: Record<string, unknown> = {};

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The median append run over `transport` at `relay` (4 seats, 8 in flight each), with its runs and load. */
async function appendFigures(relay: BenchRelay, transport: "ws" | "http", prefix: string) {
  const load = { seats: 4, inFlight: 8 };
  const perSeat = transport === "ws" ? (quick ? 200 : 1500) : quick ? 50 : 500;
  const run = await medianRun(
    RUNS,
    () => appendRun(relay, fresh(prefix), { transport, ...load, perSeat }),
    (r) => r.appends_per_s,
  );
  log(`appends/s over ${transport} (${prefix}): ${run.median.appends_per_s} (runs ${run.runs.join(", ")})`);
  return { ...run.median, runs: run.runs, seats: load.seats, in_flight_per_seat: load.inFlight };
}

async function relayFigures(relay: BenchRelay): Promise<void> {
  const ws = await appendFigures(relay, "ws", "ws");
  figures.appends_ws = ws;
  figures.rows_written_per_entry = ws.rows_written_per_entry;
  figures.rows_written_to_open = await openingRows(relay, fresh("open"), 3);
  log(`rows written to open a table and seat 3: ${JSON.stringify(figures.rows_written_to_open)}`);
  figures.appends_http = await appendFigures(relay, "http", "http");

  const seconds = quick ? 1 : 5;
  figures.steady_ws = await steadyRun(relay, fresh("steady-ws"), { transport: "ws", rate: 200, seconds });
  figures.steady_http = await steadyRun(relay, fresh("steady-http"), { transport: "http", rate: 200, seconds });
  log(`ack at 200/s: ws ${JSON.stringify(figures.steady_ws)} http ${JSON.stringify(figures.steady_http)}`);

  figures.fanout = [];
  for (const readers of [50, 200]) {
    const run = await fanoutRun(relay, fresh(`fan${readers}`), { readers, writes: quick ? 20 : 200 });
    (figures.fanout as unknown[]).push(run);
    log(`fan-out to ${readers}: ${JSON.stringify(run)}`);
  }

  figures.tables_at_once = [];
  for (const count of [1, 4, 16]) {
    const perTable = quick ? 100 : Math.max(600, Math.round(4800 / count));
    const tables = await Promise.all(Array.from({ length: count }, () => openRoom(relay.url, fresh(`par${count}`), 2)));
    const signed = await Promise.all(tables.map((t) => Promise.all(t.seats.map((s) => presign(t, s, perTable / 2)))));
    const sockets = await Promise.all(
      tables.map(async (t) => Promise.all(t.seats.map(async (s) => WsSeat.connect(t, s, (await headOf(t)).seq)))),
    );
    const t0 = performance.now();
    await Promise.all(sockets.flatMap((pair, i) => pair.map((socket, j) => pipeline(socket, signed[i]![j]!, 8))));
    const rate = round((count * perTable) / ((performance.now() - t0) / 1000), 0);
    for (const socket of sockets.flat()) socket.close();
    (figures.tables_at_once as unknown[]).push({
      tables: count,
      appends_per_s_total: rate,
      per_table: round(rate / count, 0),
    });
    log(`${count} tables at once: ${rate} appends/s in all`);
  }
}

async function readFigures(
  relay: BenchRelay,
): Promise<{ big: Awaited<ReturnType<typeof openRoom>>; small: Awaited<ReturnType<typeof openRoom>> }> {
  const big = await openRoom(relay.url, fresh("reads"), 2);
  figures.projection_read = [];
  for (const size of quick ? [100, 1000] : [100, 1000, 10_000]) {
    await growTo(big, size);
    const at = await projectionAt(relay, big, quick ? 10 : 50);
    (figures.projection_read as unknown[]).push(at);
    log(`projection read at ${at.entries} entries: ${JSON.stringify(at)}`);
    if (size === 1000) figures.bytes_per_turn = await bytesPerTurn(big);
  }
  const exported = await signedGet(big, `/tables/${big.id}/export`, big.owner, { owner: "ops" });
  const file = join(work, "export.jsonl");
  writeFileSync(file, exported.text);
  const relayKey = JSON.parse(await (await fetch(`${relay.url}/.well-known/trestle.json`)).text()).relay_key as string;
  const times: number[] = [];
  // Asynchronously (child.ts): three synchronous runs froze the bench past the relay's 5 s keep-alive, and the next request failed.
  for (let i = 0; i < RUNS; i += 1) {
    const run = await runChild(
      process.execPath,
      [join(ROOT, "bin/trestle.mjs"), "verify", file, "--relay-key", relayKey],
      { ...process.env, TRESTLE_HOME: join(work, "home") },
    );
    times.push(run.ms);
    if (run.status !== 0) throw new Error(`trestle verify exited ${run.status}: ${run.output}`);
  }
  figures.verify_export_cli = {
    entries: (await headOf(big)).seq,
    end_to_end_ms: round(median(times), 0),
    runs_ms: times.map((t) => round(t, 0)),
  };
  log(`trestle verify of ${(await headOf(big)).seq} entries: ${JSON.stringify(figures.verify_export_cli)}`);
  await growTo(big, quick ? 2000 : 19_000);
  const small = await openRoom(relay.url, fresh("small"), 2);
  await growTo(small, 5);
  return { big, small };
}

async function main(): Promise<void> {
  const started = new Date();
  figures.crypto = await cryptoFigures();
  figures.ledger = await ledgerFigures(quick ? 200 : 1000);
  log(`micro: ${JSON.stringify(figures.crypto)} ${JSON.stringify(figures.ledger)}`);

  const storage = join(work, "relay");
  mkdirSync(storage);
  let relay = await startBenchRelay({ persist: storage });
  try {
    await relayFigures(relay);
    const { big, small } = await readFigures(relay);
    const warm = await openRoom(relay.url, fresh("warm"), 2);
    const wakes: Record<string, number>[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const restart = async () => {
        await relay.dispose();
        relay = await startBenchRelay({ persist: storage });
        return relay;
      };
      const { run } = await wakeRun(restart, warm, i % 2 === 0 ? [big, small] : [small, big]);
      wakes.push({
        big: run[big.id]!.first_read_ms,
        small: run[small.id]!.first_read_ms,
        big_entries: run[big.id]!.entries,
        small_entries: run[small.id]!.entries,
      });
    }
    figures.first_read_after_restart = {
      big_entries: wakes[0]!.big_entries,
      small_entries: wakes[0]!.small_entries,
      big_ms: median(wakes.map((w) => w.big!)),
      small_ms: median(wakes.map((w) => w.small!)),
      runs: wakes,
    };
    log(`first read after restart: ${JSON.stringify(figures.first_read_after_restart)}`);
  } finally {
    await relay.dispose();
  }

  const nobleRelay = await startBenchRelay({ persist: join(work, "noble"), crypto: "noble" });
  try {
    const load = { seats: 4, inFlight: 8 };
    const noble = await medianRun(
      RUNS,
      () => appendRun(nobleRelay, fresh("noble"), { transport: "ws", ...load, perSeat: quick ? 50 : 300 }),
      (r) => r.appends_per_s,
    );
    const webRate = (figures.appends_ws as { appends_per_s: number }).appends_per_s;
    figures.noble_baseline = {
      ...noble.median,
      runs: noble.runs,
      webcrypto_over_noble: round(webRate / noble.median.appends_per_s, 1),
    };
    log(`noble baseline: ${JSON.stringify(figures.noble_baseline)}`);
  } finally {
    await nobleRelay.dispose();
  }

  // The same appends in one workerd: a deployed Worker has no wrangler dev proxy in front (harness/relay.ts).
  const directRelay = await startBenchRelay({ persist: join(work, "direct"), direct: true });
  try {
    figures.appends_ws_direct = await appendFigures(directRelay, "ws", "ws-direct");
    figures.appends_http_direct = await appendFigures(directRelay, "http", "http-direct");
  } finally {
    await directRelay.dispose();
  }

  log(
    `wrote ${writeResults({ command: `npm run bench${quick ? " -- --quick" : ""}`, date: started.toISOString(), commit: git(["rev-parse", "--short", "HEAD"]), machine: machine(), quick, figures })}`,
  );
}

/** This machine, as the results name it. */
function machine() {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? "unknown",
    memory_gb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Writes `sections` into the results file (the quick one with `--quick`), keeping the sections another mode wrote; returns its path. */
function writeResults(sections: Record<string, unknown>): string {
  const out = join(ROOT, "bench", quick ? "results-quick.json" : "results.json");
  const kept = existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>) : {};
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  writeFileSync(out, JSON.stringify({ ...kept, ...sections }, null, 2) + "\n");
  return out;
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** The market bench alone: its figures go to the results file's `market` section; false when an invariant failed. */
async function market(): Promise<boolean> {
  const started = new Date();
  // In one workerd, as a deployed Worker runs (no dev proxy in front, whose restarts answer a write in flight with a 503).
  const relay = await startBenchRelay({ persist: join(work, "market"), direct: true });
  let run;
  try {
    run = await marketRun(relay, {
      sizes: quick ? QUICK : FULL,
      width: quick ? 6 : 24,
      biddingMs: quick ? 4_000 : 60_000,
      log,
    });
  } finally {
    await relay.dispose();
  }
  log(`market: ${JSON.stringify(run.figures)}`);
  const section = {
    command: `npm run bench -- --market${quick ? " --quick" : ""}`,
    date: started.toISOString(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    machine: machine(),
    ...run.figures,
  };
  log(`wrote ${writeResults({ market: section })}${run.ok ? "" : ": AN INVARIANT FAILED"}`);
  return run.ok;
}

try {
  if (process.argv.includes("--market")) process.exitCode = (await market()) ? 0 : 1;
  else await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
