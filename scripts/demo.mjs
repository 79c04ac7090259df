#!/usr/bin/env node
// `npm run demo`: runs the esbuild bundle dist/demo.mjs (src/demo), first rebuilding the bundles
// if any source file is newer, as bin/trestle.mjs does for the CLI (which the demo also runs).
import { pathToFileURL } from "node:url";
import { DEMO_BUNDLE, buildCli, isStale } from "./build-cli.mjs";

if (isStale()) {
  try {
    await buildCli();
  } catch (error) {
    process.stderr.write(`demo: cannot build (${error instanceof Error ? error.message : error}); run npm install\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(DEMO_BUNDLE).href);
