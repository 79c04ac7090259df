/**
 * Builds the relay's static assets into dist/site/ (wrangler.toml `[assets]`; Cloudflare serves
 * them without running the Worker): the public viewer (worker/site/browser/viewer.ts with the
 * protocol code it verifies with, bundled for browsers by esbuild), the pages' stylesheet, the icon
 * (/favicon.svg and /favicon.ico, made from it by scripts/favicon.mjs; their cache headers in
 * `_headers`) and the documentation (docs/, served under /docs/). Skipped when dist/site is newer than every source.
 */
import { cpSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The assets folder wrangler serves. */
export const SITE = join(ROOT, "dist", "site");
/** The viewer's bundle. */
export const VIEWER = join(SITE, "assets", "viewer.js");
/** esbuild's options for the viewer's bundle (scripts/viewer-size.mjs measures the same). */
export const VIEWER_BUILD = {
  entryPoints: [join(ROOT, "worker/site/browser/viewer.ts")],
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2022",
  minify: true,
  // The client's socket adapter falls back to the `ws` package only where no WebSocket exists; browsers have one.
  external: ["ws"],
  logLevel: "warning",
};
/** What the assets are built from, watched for staleness: the viewer's script and static files, all of src/ (what the viewer imports of it), the docs. */
export const SITE_SOURCES = ["worker/site/browser", "worker/site/static", "src", "docs"].map((p) => join(ROOT, p));

/** Whether the assets are missing or older than a source. */
export function siteStale() {
  return outdated(
    [
      VIEWER,
      join(SITE, "assets", "site.css"),
      join(SITE, "favicon.svg"),
      join(SITE, "favicon.ico"),
      join(SITE, "_headers"),
      join(SITE, "docs", "SPEC.md"),
    ],
    SITE_SOURCES,
    [".ts", ".css", ".svg", ".ico", "_headers", ".md"],
  );
}

/** Builds every asset into a fresh folder, then swaps it in whole. */
export async function buildSite() {
  const { build } = await import("esbuild");
  const temp = `${SITE}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(join(temp, "assets"), { recursive: true });
  await build({ ...VIEWER_BUILD, outfile: join(temp, "assets", "viewer.js") });
  cpSync(join(ROOT, "worker/site/static/site.css"), join(temp, "assets", "site.css"));
  for (const file of ["favicon.svg", "favicon.ico", "_headers"])
    cpSync(join(ROOT, "worker/site/static", file), join(temp, file));
  cpSync(join(ROOT, "docs"), join(temp, "docs"), { recursive: true });
  rmSync(SITE, { recursive: true, force: true });
  renameSync(temp, SITE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildSite();
