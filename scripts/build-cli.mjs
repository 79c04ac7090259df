/**
 * Bundles the CLI (src/cli/run.ts and what it imports from src/, the MCP server included) into dist/trestle.mjs with
 * esbuild: one ESM file for Node 20, npm packages left as imports. `npm install` / `npm ci` run it
 * (the `prepare` script), `npm test` runs it, and bin/trestle.mjs runs it again whenever a source
 * file is newer than the bundle. Writes to a temporary file and renames, so concurrent builds
 * never leave half a bundle.
 */
import { mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE = join(ROOT, "dist", "trestle.mjs");
const SOURCES = ["src/protocol", "src/client", "src/cli", "src/mcp"].map((d) => join(ROOT, d));

/** Newest modification time (ms) of any .ts file the CLI is built from. */
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

/** Whether dist/trestle.mjs is missing or older than a source file. */
export function isStale() {
  try {
    return statSync(BUNDLE).mtimeMs < newestSource();
  } catch {
    return true;
  }
}

/** Builds the bundle. */
export async function buildCli() {
  const { build } = await import("esbuild");
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const temp = `${BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(ROOT, "src/cli/run.ts")],
    outfile: temp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  renameSync(temp, BUNDLE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
