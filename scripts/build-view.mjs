/**
 * Builds the principal window's page (src/view: `trestle view`) into dist/view/: the page script
 * (src/view/page/main.ts, bundled for browsers by esbuild into one minified app.js) beside its
 * index.html and app.css, and the icon the relay's pages use (worker/site/static/favicon.svg and
 * favicon.ico, decision 0455). scripts/build-cli.mjs runs it with the CLI bundle, so `npm install`,
 * `npm test` and the `trestle` launcher build it too; users never run a build step. Builds into a
 * fresh folder and swaps it in whole, so a concurrent build never leaves half a page. Types: build-view.d.mts.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the page is built. */
export const VIEW_DIR = join(ROOT, "dist", "view");
const SOURCE = join(ROOT, "src", "view");
const STATIC = ["index.html", "app.css"];
/** The icon, shared with the relay's pages. */
const ICONS = ["favicon.ico", "favicon.svg"].map((file) => join(ROOT, "worker", "site", "static", file));
/** The page script's entry. */
export const VIEW_ENTRY = join(SOURCE, "page", "main.ts");
/** What the page is built from, watched for staleness: src/view, its script, the DOM pieces it shares with the viewer (src/page), what it imports (types alone from elsewhere), its static files and the icon. */
export const VIEW_SOURCES = [SOURCE, join(ROOT, "src", "page"), ...ICONS];

/** Whether the page is missing or older than any of its sources. */
export function viewStale() {
  return outdated(
    ["app.js", ...STATIC, ...ICONS.map((icon) => basename(icon))].map((file) => join(VIEW_DIR, file)),
    VIEW_SOURCES,
    [""],
  );
}

/** Builds the page into dist/view/. */
export async function buildView() {
  const { build } = await import("esbuild");
  const temp = `${VIEW_DIR}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  await build({
    entryPoints: [VIEW_ENTRY],
    outfile: join(temp, "app.js"),
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    logLevel: "warning",
  });
  for (const file of STATIC) cpSync(join(SOURCE, "static", file), join(temp, file));
  for (const icon of ICONS) cpSync(icon, join(temp, basename(icon)));
  rmSync(VIEW_DIR, { recursive: true, force: true });
  try {
    renameSync(temp, VIEW_DIR);
  } catch (error) {
    // Another build swapped its own in between: the same sources, so keep that one.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(join(VIEW_DIR, "app.js"))) throw error;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildView();
