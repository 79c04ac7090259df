/**
 * `npm run bench`: bundles the benchmark suite (test/bench/main.ts and what it imports) with
 * esbuild into dist/bench.mjs, npm packages left as imports, and runs it with the arguments given
 * (`npm run bench -- --quick`). Results go to bench/results.json (docs/BENCHMARKS.md). With
 * `--profile` it runs test/bench/profile.ts instead: a CPU profile of the relay under load; with
 * `--leaks`, test/bench/leaks.ts: the leak gate's catch and false-positive rates on its corpus; with
 * `--verify`, test/bench/verify.ts: `trestle verify` of a 10,000-entry export, end to end; with
 * `--market`, main.ts runs the market bench alone (test/bench/market/).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(ROOT, "dist", "bench.mjs");
const modes = { "--profile": "profile.ts", "--leaks": "leaks.ts", "--verify": "verify.ts" };
const entry = Object.entries(modes).find(([flag]) => process.argv.includes(flag))?.[1] ?? "main.ts";
mkdirSync(dirname(out), { recursive: true });
const bundle = (from, outfile) =>
  build({
    entryPoints: [from],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
await bundle(join(ROOT, "test/bench", entry), out);
// The market bench's checking threads (test/bench/market/verifying.ts) run the client's verify worker, bundled beside the bench.
await bundle(join(ROOT, "src/client/verify-worker.ts"), join(ROOT, "dist", "bench-verify-worker.mjs"));
const run = spawnSync(process.execPath, [out, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TRESTLE_ROOT: ROOT },
});
process.exit(run.status ?? 1);
