/**
 * A bench relay: the production Worker and Durable Objects in workerd, started the way
 * `wrangler dev` starts them (`unstable_startWorker`), on a loopback port, with the metered entry
 * (worker.ts) or the noble baseline (worker-noble.ts), storage in a directory (so it survives a
 * restart), and the workerd process found for its CPU time and memory. The operator limits are set
 * out of the bench's reach but on (BENCH_LIMITS), so every write still pays for being counted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { ROOT } from "./root.js";
import { limitSettings } from "../../support/limits-env.js";
import { plainTextBindings } from "../../support/local-relay.js";
import { OPERATOR_LIMITS, type OperatorLimitName } from "../../../src/protocol/limits/operator-limits.js";

const CONFIG = join(ROOT, "wrangler.toml");
const ENTRY = { webcrypto: "worker.ts", noble: "worker-noble.ts" } as const;
const TICKS_PER_SECOND = 100;

/**
 * Every rate, cap and quota at 10^9 (counted, never reached: the bench drives one address, a few
 * owner keys and seats far past the defaults); lifetimes off; unsigned reads not sent to the edge
 * binding, whose limit wrangler.toml fixes.
 */
const BENCH_LIMITS = limitSettings({
  ...Object.fromEntries(Object.keys(OPERATOR_LIMITS).map((name) => [name as OperatorLimitName, 1e9])),
  socket_auth_ms: OPERATOR_LIMITS.socket_auth_ms,
  edge_reads_per_min: 0,
  table_ttl_ms: 0,
  closed_table_ttl_ms: 0,
});

/** A running bench relay. */
export interface BenchRelay {
  url: string;
  /** CPU seconds (user + system) the relay's workerd processes used so far. */
  cpuSeconds(): number;
  /** Resident memory of the relay's workerd processes, in bytes. */
  rssBytes(): number;
  dispose(): Promise<void>;
}

/** Starts a bench relay with `crypto` signatures, storage under `persist` (a directory), the user worker's inspector on `inspectorPort` if given. */
export async function startBenchRelay(options: { persist: string; crypto?: keyof typeof ENTRY; signingKey?: string; inspectorPort?: number }): Promise<BenchRelay> {
  process.env.WRANGLER_SEND_METRICS = "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const before = new Set(workerdPids());
  const worker = await unstable_startWorker({
    config: CONFIG,
    entrypoint: join(ROOT, "test/bench/harness", ENTRY[options.crypto ?? "webcrypto"]),
    bindings: plainTextBindings({ ...BENCH_LIMITS, ...(options.signingKey ? { RELAY_SIGNING_KEY: options.signingKey } : {}) }),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: options.inspectorPort ? { hostname: "127.0.0.1", port: options.inspectorPort } : false, persist: options.persist, logLevel: "error", watch: false },
  });
  await worker.ready;
  const url = new URL(await worker.url).origin;
  const used = ((await (await fetch(`${url}/__bench/crypto`)).json()) as { ed25519: string }).ed25519;
  if (used !== (options.crypto ?? "webcrypto")) throw new Error(`the bench relay signs with ${used}, not ${options.crypto ?? "webcrypto"}`);
  // wrangler starts more than one workerd, some only once traffic arrives: look them up each time.
  const pids = () => workerdPids().filter((pid) => !before.has(pid));
  return {
    url,
    cpuSeconds: () => pids().reduce((sum, pid) => sum + cpuTicks(pid), 0) / TICKS_PER_SECOND,
    rssBytes: () => pids().reduce((sum, pid) => sum + rss(pid), 0),
    dispose: () => worker.dispose(),
  };
}

/** Pids of workerd processes descended from this process. */
function workerdPids(): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    const close = stat.lastIndexOf(")");
    if (close < 0) continue;
    names.set(Number(name), stat.slice(stat.indexOf("(") + 1, close));
    parents.set(Number(name), Number(stat.slice(close + 2).split(" ")[1]));
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, comm]) => comm.startsWith("workerd") && descends(pid)).map(([pid]) => pid);
}

function cpuTicks(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

function rss(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`));
  return match ? Number(match[1]) * 1024 : 0;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
