/**
 * A bench relay: the production Worker and Durable Objects in workerd, started the way
 * `wrangler dev` starts them (`unstable_startWorker`: a second workerd in front proxies every
 * request and socket frame), or with `direct` in one workerd through Miniflare with the bindings
 * wrangler.toml gives (as a deployed Worker has no dev proxy; static assets left out, as Cloudflare
 * serves them without the Worker), on a loopback port, with the metered entry (worker.ts) or the
 * noble baseline (worker-noble.ts), storage in a directory (so it survives a restart), and the
 * workerd processes found for their CPU time and memory. The operator limits are set out of the
 * bench's reach but on (BENCH_LIMITS), so every write still pays for being counted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_startWorker } from "wrangler";
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

/** How to start a bench relay: storage under `persist` (a directory), `crypto` signatures, the user worker's inspector on `inspectorPort` if given, in one workerd with `direct`. */
export interface BenchRelayOptions {
  persist: string;
  crypto?: keyof typeof ENTRY;
  signingKey?: string;
  inspectorPort?: number;
  direct?: boolean;
}

/** Starts a bench relay (see BenchRelayOptions); it is up and signing with the asked Ed25519 when this resolves. */
export async function startBenchRelay(options: BenchRelayOptions): Promise<BenchRelay> {
  process.env.WRANGLER_SEND_METRICS = "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const before = new Set(workerdPids());
  const settings = { ...BENCH_LIMITS, ...(options.signingKey ? { RELAY_SIGNING_KEY: options.signingKey } : {}) };
  const entry = join(ROOT, "test/bench/harness", ENTRY[options.crypto ?? "webcrypto"]);
  const { url, dispose } = options.direct
    ? await startDirect(entry, settings, options)
    : await startDev(entry, settings, options);
  const used = ((await (await fetch(`${url}/__bench/crypto`)).json()) as { ed25519: string }).ed25519;
  if (used !== (options.crypto ?? "webcrypto"))
    throw new Error(`the bench relay signs with ${used}, not ${options.crypto ?? "webcrypto"}`);
  // wrangler starts more than one workerd, some only once traffic arrives: look them up each time.
  const pids = () => workerdPids().filter((pid) => !before.has(pid));
  return {
    url,
    cpuSeconds: () => pids().reduce((sum, pid) => sum + cpuTicks(pid), 0) / TICKS_PER_SECOND,
    rssBytes: () => pids().reduce((sum, pid) => sum + rss(pid), 0),
    dispose,
  };
}

/** The relay as `wrangler dev` runs it. */
async function startDev(
  entrypoint: string,
  settings: Record<string, string>,
  options: BenchRelayOptions,
): Promise<{ url: string; dispose(): Promise<void> }> {
  const worker = await unstable_startWorker({
    config: CONFIG,
    entrypoint,
    bindings: plainTextBindings(settings),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: options.inspectorPort ? { hostname: "127.0.0.1", port: options.inspectorPort } : false,
      persist: options.persist,
      logLevel: "error",
      watch: false,
    },
  });
  await worker.ready;
  return { url: new URL(await worker.url).origin, dispose: () => worker.dispose() };
}

/** The relay in one workerd: `entrypoint` bundled for workerd, with wrangler.toml's bindings, migrations and dates. */
async function startDirect(
  entrypoint: string,
  settings: Record<string, string>,
  options: BenchRelayOptions,
): Promise<{ url: string; dispose(): Promise<void> }> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(CONFIG);
  const { assets: _assets, ...bound } = workerOptions;
  const bundle = await build({
    entryPoints: [entrypoint],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    target: "es2024",
    external: ["cloudflare:*"],
    logLevel: "warning",
  });
  const mf = new Miniflare({
    ...bound,
    modules: [{ type: "ESModule", path: "worker.mjs", contents: bundle.outputFiles[0]!.text }],
    bindings: { ...bound.bindings, ...settings },
    host: "127.0.0.1",
    port: 0,
    ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
    durableObjectsPersist: join(options.persist, "do"),
    defaultPersistRoot: options.persist,
  });
  return { url: (await mf.ready).origin, dispose: () => mf.dispose() };
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
