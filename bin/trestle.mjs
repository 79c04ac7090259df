#!/usr/bin/env node
// The `trestle` launcher (package.json "bin"): runs the esbuild bundle dist/trestle.mjs. In a
// checkout (src/ present) it first rebuilds the bundle if any source file is newer, so a checkout
// never runs stale code; an installed package ships only the bundle.
import { existsSync } from "node:fs";
import module from "node:module";

// Node 22.1 and later keep V8's compiled code for the bundle and its packages between runs (in the
// system's temporary folder), which starts every command about 15% sooner; older Nodes lack it.
module.enableCompileCache?.();

const BUNDLE = new URL("../dist/trestle.mjs", import.meta.url);

if (existsSync(new URL("../src/cli/run.ts", import.meta.url))) {
  const { buildCli, isStale } = await import("../scripts/build-cli.mjs");
  if (isStale()) {
    try {
      await buildCli();
    } catch (error) {
      process.stderr.write(
        `trestle: cannot build the CLI (${error instanceof Error ? error.message : error}); run npm install\n`,
      );
      process.exit(1);
    }
  }
}
await import(BUNDLE.href);
