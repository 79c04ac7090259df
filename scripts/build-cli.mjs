/**
 * Bundles the CLI (src/cli/run.ts, the MCP server included), its verify worker (src/client/verify-worker.ts) and the demo
 * (src/demo/run.ts), with what they import from src/, into dist/trestle.mjs, dist/verify-worker.mjs and dist/demo.mjs
 * with esbuild: one ESM file each for Node 20, npm
 * packages left as imports. `npm install` / `npm ci` run it (the `prepare` script), `npm test` runs
 * it, and bin/trestle.mjs and scripts/demo.mjs run it again whenever a source file is newer than a
 * bundle. Writes to temporary files and renames, so concurrent builds never leave half a bundle.
 * The principal window's page (build-view.mjs) is built and checked for staleness with them.
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";
import { buildView, viewStale } from "./build-view.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The CLI's bundle. */
export const BUNDLE = join(ROOT, "dist", "trestle.mjs");
/** The demo's bundle. */
export const DEMO_BUNDLE = join(ROOT, "dist", "demo.mjs");
/** Where the CLI bundle's split-off parts go (what only some commands import, loaded when they run: the MCP server). */
const CHUNKS = join(ROOT, "dist", "chunks");
/** The CLI's, the demo's and the verify worker's entries, each into its bundle. */
export const ENTRIES = [
  { entry: join(ROOT, "src/cli/run.ts"), out: BUNDLE, split: true },
  { entry: join(ROOT, "src/demo/run.ts"), out: DEMO_BUNDLE },
  // The worker threads `trestle verify` checks signatures on (src/client/verify-pool.ts), beside the CLI's bundle.
  { entry: join(ROOT, "src/client/verify-worker.ts"), out: join(ROOT, "dist", "verify-worker.mjs") },
];
/** What the bundles are built from, watched for staleness: all of src/ (what they import of it changes as they grow) and package.json. */
export const CLI_SOURCES = ["src", "package.json"].map((d) => join(ROOT, d));

/** Whether a bundle (or the window's page) is missing or older than a source file. */
export function isStale() {
  if (viewStale()) return true;
  return outdated(
    ENTRIES.map(({ out }) => out),
    CLI_SOURCES,
    [".ts", "package.json"],
  );
}

/** Builds the bundles and the window's page. */
export async function buildCli() {
  const { build } = await import("esbuild");
  mkdirSync(dirname(BUNDLE), { recursive: true });
  await Promise.all([
    buildView(),
    ...ENTRIES.map(async ({ entry, out, split }) => {
      const options = {
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages: "external",
        logLevel: "warning",
      };
      if (split) return buildSplit(options, out);
      const temp = `${out}.${process.pid}.tmp`;
      await build({ ...options, outfile: temp });
      renameSync(temp, out);
    }),
  ]);
}

/**
 * Builds `out` with its dynamic imports split into dist/chunks/ (content-hashed names): into a
 * folder of its own, then the chunks are moved in before the entry, so a concurrent run never finds
 * an entry without its chunks; chunks no longer used are removed.
 */
async function buildSplit(options, out) {
  const { build } = await import("esbuild");
  const temp = join(dirname(out), `.build-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  await build({
    ...options,
    splitting: true,
    outdir: temp,
    entryNames: basename(out, ".mjs"),
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
  });
  mkdirSync(CHUNKS, { recursive: true });
  const made = readdirSync(join(temp, "chunks"));
  for (const name of made) renameSync(join(temp, "chunks", name), join(CHUNKS, name));
  renameSync(join(temp, basename(out)), out);
  rmSync(temp, { recursive: true, force: true });
  for (const name of readdirSync(CHUNKS)) if (!made.includes(name)) rmSync(join(CHUNKS, name), { force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
