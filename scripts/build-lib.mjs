/**
 * Builds the client library as the package ships it (package.json "exports"): src/protocol and
 * src/client compiled by tsc (tsconfig.lib.json) to ES modules with type declarations in
 * dist/lib/, one file per source file. Skipped when dist/lib is newer than every source.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the library is written. */
export const LIB = join(ROOT, "dist", "lib");
const OUTPUTS = ["client/index.js", "client/index.d.ts", "client/node.js", "client/node.d.ts", "protocol/index.js", "protocol/index.d.ts"].map((f) => join(LIB, f));
const SOURCES = ["src/protocol", "src/client", "tsconfig.lib.json", "tsconfig.json"].map((p) => join(ROOT, p));

/** Whether the library is missing or older than a source. */
export function libStale() {
  return outdated(OUTPUTS, SOURCES, [".ts", ".json"]);
}

/** Compiles the library afresh (removing what an older build left). */
export function buildLib() {
  rmSync(LIB, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.lib.json")], { cwd: ROOT, stdio: "inherit" });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildLib();
