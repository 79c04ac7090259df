/**
 * The relay the demo plays on: the one at --relay, or the local one at 127.0.0.1:<port> if it is
 * already running, or else one the demo starts itself (`wrangler dev`, as `npm start` does) and
 * stops when it ends. A relay is up when /.well-known/trestle.json answers with the protocol's shape.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { HttpClient } from "../client/index.js";
import { DemoError } from "./errors.js";

/** The relay in use. */
export interface DemoRelay {
  url: string;
  relayKey: string;
  /** Whether the demo started it (and so stops it). */
  started: boolean;
  stop(): Promise<void>;
}

const POLL_MS = 300;
/** How long one look at a relay may take: a relay that is up but busy (its first request compiles the Worker) took over 2 s beside a type check. Nothing listening answers at once. */
const PROBE_MS = 15_000;
const START_LIMIT_MS = 120_000;

/** The relay to use: `--relay` (which must be up), or the local one on `port`, started if need be. */
export async function ensureRelay(options: {
  relay?: string;
  port: number;
  root: string;
  log(line: string): void;
  /** Called as soon as a relay process is spawned, with what stops it (for Ctrl-C during start-up). */
  onSpawn?(stop: () => Promise<void>): void;
  /** Settings a relay the demo starts runs with (the market demo's chat apps: chat-fakes.ts). */
  vars?: Record<string, string>;
}): Promise<DemoRelay> {
  const url = options.relay ?? `http://127.0.0.1:${options.port}`;
  const key = await relayKeyAt(url);
  if (key) return { url, relayKey: key, started: false, stop: async () => {} };
  if (options.relay !== undefined) throw new DemoError(`no trestle relay answers at ${url} (--relay)`);
  options.log(`no relay at ${url}; starting one (wrangler dev, local storage in .wrangler/) …`);
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const child = spawn(
    join(options.root, "node_modules", ".bin", "wrangler"),
    ["dev", "--ip", "127.0.0.1", "--port", String(options.port), ...vars],
    {
      cwd: options.root,
      // As `npm start`: no metrics, and no fetch of Cloudflare's request.cf data (the relay never reads it).
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d: Uint8Array) => (output = (output + new TextDecoder().decode(d)).slice(-4000)));
  child.stderr?.on("data", (d: Uint8Array) => (output = (output + new TextDecoder().decode(d)).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = () => stopChild(child, exited);
  options.onSpawn?.(stop);
  for (let waited = 0; waited < START_LIMIT_MS; waited += POLL_MS) {
    const ended = await Promise.race([exited, delay(POLL_MS).then(() => undefined)]);
    if (ended !== undefined) throw new DemoError(`wrangler dev exited (${ended}) before the relay came up:\n${output}`);
    const started = await relayKeyAt(url);
    if (started) return { url, relayKey: started, started: true, stop };
  }
  await stop();
  throw new DemoError(`the relay did not come up at ${url} within ${START_LIMIT_MS / 1000} s:\n${output}`);
}

/** The relay key served at `url`, or null when nothing trestle answers there. */
async function relayKeyAt(url: string): Promise<string | null> {
  try {
    return (await new HttpClient({ url, timeoutMs: PROBE_MS }).wellKnown()).relay_key;
  } catch {
    return null;
  }
}

/** Stops wrangler and the workerd it started (its own process group), and waits for it to exit. */
async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  process.kill(-child.pid, "SIGTERM");
  const gone = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
  if (!gone) process.kill(-child.pid, "SIGKILL");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
