/**
 * Bundles the CLI (src/cli/run.ts, the MCP server included) and the demo (src/demo/run.ts), with what they import from
 * src/, into dist/trestle.mjs and dist/demo.mjs with esbuild: one ESM file each for Node 20, npm
 * packages left as imports. `npm install` / `npm ci` run it (the `prepare` script), `npm test` runs
 * it, and bin/trestle.mjs and scripts/demo.mjs run it again whenever a source file is newer than a
 * bundle. Writes to temporary files and renames, so concurrent builds never leave half a bundle.
 */
import { mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The CLI's bundle. */
export const BUNDLE = join(ROOT, "dist", "trestle.mjs");
/** The demo's bundle. */
export const DEMO_BUNDLE = join(ROOT, "dist", "demo.mjs");
const ENTRIES = [
  { entry: join(ROOT, "src/cli/run.ts"), out: BUNDLE },
  { entry: join(ROOT, "src/demo/run.ts"), out: DEMO_BUNDLE },
];
const SOURCES = ["src/protocol", "src/client", "src/owner", "src/cli", "src/mcp", "src/demo"].map((d) => join(ROOT, d));

/** Newest modification time (ms) of any .ts file the bundles are built from. */
export function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  SOURCES.forEach(walk);
  return newest;
}

/** Whether a bundle is missing or older than a source file. */
export function isStale() {
  const newest = newestSource();
  try {
    return ENTRIES.some(({ out }) => statSync(out).mtimeMs < newest);
  } catch {
    return true;
  }
}

/** Builds both bundles. */
export async function buildCli() {
  const { build } = await import("esbuild");
  mkdirSync(dirname(BUNDLE), { recursive: true });
  await Promise.all(
    ENTRIES.map(async ({ entry, out }) => {
      const temp = `${out}.${process.pid}.tmp`;
      await build({
        entryPoints: [entry],
        outfile: temp,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages: "external",
        logLevel: "warning",
      });
      renameSync(temp, out);
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
