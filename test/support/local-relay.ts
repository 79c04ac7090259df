/**
 * A real relay for Node tests: the Worker and its Durable Objects started in-process with
 * wrangler's `unstable_startWorker` (workerd through miniflare) on a random loopback port, with
 * in-memory storage (or, with `persist`, storage in that directory, which outlives the relay: stop it,
 * copy or restore the directory, start another). `signingKey` fixes the relay key (RELAY_SIGNING_KEY).
 * A file that needs no setting of its own takes the vitest worker's shared relay (`sharedRelay`,
 * decision 0389) and its own table ids; a file that sets limits, keys, storage or chat fakes, or
 * restarts its relay, starts its own. Each relay serves its own copy of the built site: wrangler restarts
 * a relay whenever its static files' folder changes, even with `watch: false`, so a rebuild of
 * dist/site by another process (npm run build, the package tests) would otherwise answer a write in
 * flight with wrangler's 503 "Your worker restarted mid-request" (docs/SELF-HOST.md).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { unstable_startWorker } from "wrangler";
import { limitSettings } from "./limits-env.js";

/** A running relay; `site` is the folder its static files are served from (its own copy of dist/site). */
export interface LocalRelay {
  url: string;
  port: number;
  site: string;
  dispose(): Promise<void>;
}

const CONFIG = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
const SITE = fileURLToPath(new URL("../../dist/site", import.meta.url));

/** Starts the Worker on 127.0.0.1 at a free port; `vars` are extra plain-text settings (chat apps' tokens and API bases). */
export async function startRelay(
  options: { signingKey?: string; vars?: Record<string, string>; persist?: string } = {},
): Promise<LocalRelay> {
  process.env.WRANGLER_SEND_METRICS = "false";
  // No network here: miniflare would try to download the Request.cf object on every start.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const bindings = plainTextBindings({
    ...options.vars,
    ...(options.signingKey ? { RELAY_SIGNING_KEY: options.signingKey } : {}),
  });
  const site = siteCopy();
  const worker = await unstable_startWorker({
    config: CONFIG,
    assets: site,
    ...(Object.keys(bindings).length > 0 ? { bindings } : {}),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: options.persist ?? false,
      logLevel: "error",
      watch: false,
    },
  });
  await worker.ready;
  const url = new URL(await worker.url);
  const dispose = async () => {
    await worker.dispose();
    rmSync(site, { recursive: true, force: true });
  };
  return { url: url.origin, port: Number(url.port), site, dispose };
}

/** A fresh folder holding a copy of dist/site as it is now (empty when the site is not built). */
function siteCopy(): string {
  const site = mkdtempSync(join(tmpdir(), "trestle-site-"));
  if (existsSync(SITE)) cpSync(SITE, site, { recursive: true });
  else mkdirSync(site, { recursive: true });
  return site;
}

/** Settings as wrangler's plain-text bindings, for `unstable_startWorker`. */
export function plainTextBindings(
  settings: Record<string, string>,
): Record<string, { type: "plain_text"; value: string }> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [name, { type: "plain_text" as const, value }]),
  );
}

/** Starts one relay for the calling test file (before its tests, disposed after them); call at the file's top level and read the relay through the returned function. */
export function relayPerFile(options: Parameters<typeof startRelay>[0] = {}): () => LocalRelay {
  let relay: LocalRelay | undefined;
  beforeAll(async () => {
    relay = await startRelay(options);
  }, 60_000);
  afterAll(async () => {
    await relay?.dispose();
  });
  return () => {
    if (!relay) throw new Error("the relay is not started yet");
    return relay;
  };
}

/**
 * The settings of the shared relay: the defaults, but the limits counted per client address or per
 * owner key off, as every file reaches it from one address and several use the same fixed test
 * keys (so those counts would add up across files); the limits per seat and per table, which each
 * file's own tables keep apart, stay at their defaults.
 */
const SHARED_SETTINGS = limitSettings({
  client_tables_per_hour: 0,
  client_joins_per_min: 0,
  client_connects_per_min: 0,
  client_pages_per_hour: 0,
  edge_reads_per_min: 0,
  owner_tables_per_hour: 0,
  owner_tables: 0,
});

let shared: Promise<LocalRelay> | undefined;

/**
 * This vitest worker's shared relay (the node project runs files with `isolate: false`, so one
 * module state per worker): started by the first file that asks, reused by the next ones, and
 * stopped with the worker process (miniflare stops workerd when its process exits). Its `dispose`
 * does nothing, so a file may dispose whatever relay it holds. Tests on it use unique table ids.
 */
export function sharedRelay(): Promise<LocalRelay> {
  shared ??= startRelay({ vars: SHARED_SETTINGS }).then(
    (relay) => {
      process.once("exit", () => rmSync(relay.site, { recursive: true, force: true }));
      return { ...relay, dispose: async () => {} };
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}
