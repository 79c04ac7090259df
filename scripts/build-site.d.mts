/** Types of build-site.mjs, for the test that checks its staleness watches every file the viewer's script is built from. */

import type { BuildOptions } from "esbuild";

/** Where the assets are built (dist/site). */
export const SITE: string;
/** The public viewer's script, built. */
export const VIEWER: string;
/** esbuild's options for the public viewer's script. */
export const VIEWER_BUILD: BuildOptions;
/** What the assets are built from, watched for staleness. */
export const SITE_SOURCES: string[];
/** Whether the assets are missing or older than a source. */
export function siteStale(): boolean;
/** Builds every asset into a fresh folder, then swaps it in whole. */
export function buildSite(): Promise<void>;
