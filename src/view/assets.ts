/**
 * The principal window's page: index.html, app.css and app.js (the page script bundled by
 * scripts/build-view.mjs into dist/view/, which `npm install`, `npm test` and the `trestle`
 * launcher build as they build the CLI), and the icon the relay's pages use too (favicon.svg and
 * the favicon.ico made from it, decision 0455), which browsers may keep a day. Read once at start
 * from beside the CLI bundle (dist/trestle.mjs: dist/view/) or, running from source, from the
 * checkout's dist/view/.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TrestleError } from "../protocol/index.js";

/** One static file, its content type and how long a browser may keep it (a Cache-Control value). */
export interface Asset {
  type: string;
  cache: string;
  body: Uint8Array;
}

/** The page's own files change with each build and are never kept; the icon is the same for a release. */
const NO_STORE = "no-store";
const A_DAY = "public, max-age=86400";

/** The files the page is made of, by URL path. */
export const ASSET_FILES: Readonly<Record<string, { file: string; type: string; cache: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8", cache: NO_STORE },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8", cache: NO_STORE },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8", cache: NO_STORE },
  "/favicon.ico": { file: "favicon.ico", type: "image/vnd.microsoft.icon", cache: A_DAY },
  "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml", cache: A_DAY },
};

/** The folder holding the built page: `dir` if given, else the first place the build puts it. */
export function assetDir(dir?: string): string {
  const candidates = dir
    ? [dir]
    : [new URL("./view/", import.meta.url), new URL("../../dist/view/", import.meta.url)].map((url) =>
        fileURLToPath(url),
      );
  const found = candidates.find((candidate) => existsSync(join(candidate, "index.html")));
  if (!found)
    throw new TrestleError(
      "E_INTERNAL",
      `the principal window's page is not built (looked in ${candidates.join(", ")}): run npm run build`,
    );
  return found;
}

/** Reads every asset from `dir` (see assetDir). */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, { file, type, cache }] of Object.entries(ASSET_FILES))
    assets.set(path, { type, cache, body: new Uint8Array(readFileSync(join(dir, file))) });
  return assets;
}
