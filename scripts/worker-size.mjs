/**
 * The size of the Worker `npm run deploy` uploads: wrangler builds the bundle it would upload
 * (`wrangler deploy --dry-run --outdir`, no account needed), and its gzip size is what the Workers
 * Free plan's 3 MB limit counts. `node scripts/worker-size.mjs` builds the assets first and prints
 * the figure docs/SELF-HOST.md states; test/unit/package/deploy.test.ts measures it the same way.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

/** Runs `wrangler deploy --dry-run` (of wrangler.toml, or of `config`) into a fresh folder; resolves with that folder (its `index.js` is the bundle). */
export async function dryRunDeploy(config = "wrangler.toml") {
  const out = mkdtempSync(join(tmpdir(), "trestle-deploy-"));
  await run(
    process.execPath,
    [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "-c", config, "--outdir", out],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  return out;
}

/** The gzip size in bytes of the bundle a dry run wrote to `out`. */
export function compressedBytes(out) {
  return gzipSync(readFileSync(join(out, "index.js"))).byteLength;
}

/** `bytes` in KiB, rounded to a whole number, as the docs state it. */
export function kib(bytes) {
  return Math.round(bytes / 1024);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT });
  const bytes = compressedBytes(await dryRunDeploy());
  console.log(`Worker bundle: ${bytes} bytes gzip (${kib(bytes)} KiB)`);
}
