/**
 * Builds the client library as the package ships it (package.json "exports"): src/protocol and
 * src/client compiled by the TypeScript compiler (tsconfig.lib.json) to ES modules with type
 * declarations in dist/lib/, one file per source file, the schemas' declarations then rewritten
 * to plain declared types (scripts/declare-types.mjs, decision 0425). Skipped when dist/lib is
 * newer than every source.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { declareTypes } from "./declare-types.mjs";
import { outdated } from "./freshness.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the library is written. */
export const LIB = join(ROOT, "dist", "lib");
const OUTPUTS = [
  "client/index.js",
  "client/index.d.ts",
  "client/node.js",
  "client/node.d.ts",
  "protocol/index.js",
  "protocol/index.d.ts",
  "protocol/wire-types.d.ts",
].map((f) => join(LIB, f));
const SOURCES = ["src/protocol", "src/client", "tsconfig.lib.json", "tsconfig.json", "scripts/declare-types.mjs"].map(
  (p) => join(ROOT, p),
);

/** Whether the library is missing or older than a source. */
export function libStale() {
  return outdated(OUTPUTS, SOURCES, [".ts", ".json", ".mjs"]);
}

/** Compiles the library afresh (removing what an older build left); throws on a type error. */
export function buildLib() {
  rmSync(LIB, { recursive: true, force: true });
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.lib.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
  });
  const errors = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (errors.length > 0) {
    const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" };
    throw new Error(ts.formatDiagnosticsWithColorAndContext(errors, format));
  }
  declareTypes(program, join(ROOT, "src"), LIB);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildLib();
