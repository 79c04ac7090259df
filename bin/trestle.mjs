#!/usr/bin/env node
// The `trestle` launcher (package.json "bin"): runs the esbuild bundle dist/trestle.mjs, first
// rebuilding it if any source file is newer (so a checkout never runs stale code).
import { pathToFileURL } from "node:url";
import { BUNDLE, buildCli, isStale } from "../scripts/build-cli.mjs";

if (isStale()) {
  try {
    await buildCli();
  } catch (error) {
    process.stderr.write(`trestle: cannot build the CLI (${error instanceof Error ? error.message : error}); run npm install\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(BUNDLE).href);
