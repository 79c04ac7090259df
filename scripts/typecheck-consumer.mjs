/**
 * `node scripts/typecheck-consumer.mjs`: how long a consumer of the packed package takes to
 * typecheck (docs/BENCHMARKS.md). Packs this checkout as the relay serves it (build-pack.mjs, the library built first),
 * installs the tarball into an empty temp project, writes the twenty-line bot of docs/CLIENT.md
 * importing "trestle", and runs `tsc --noEmit --extendedDiagnostics` on it with this checkout's
 * TypeScript, with `skipLibCheck` and without, each beside a baseline file that imports nothing
 * (the cost of the standard library and @types/node alone); prints the total time, memory and the
 * size of the shipped declarations.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packInto } from "./build-pack.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

/** Total size in bytes of the files under `dir` whose names end with `suffix`. */
function sizeOf(dir, suffix) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => String(f).endsWith(suffix))
    .reduce((sum, f) => sum + statSync(join(dir, String(f))).size, 0);
}

execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
const out = mkdtempSync(join(tmpdir(), "trestle-typecheck-"));
try {
  const packed = packInto(out);
  const project = join(out, "consumer");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(out, packed.filename)],
    { cwd: project, stdio: "ignore" },
  );
  const bot = readFileSync(join(ROOT, "examples/seat-bot.ts"), "utf8").replace('"../src/client/node.js"', '"trestle"');
  writeFileSync(join(project, "bot.ts"), bot);
  const declarations = sizeOf(join(project, "node_modules/trestle/dist/lib"), ".d.ts");
  console.log(
    `consumer: examples/seat-bot.ts (${bot.split("\n").length} lines) importing "trestle"; shipped .d.ts: ${(declarations / 1e6).toFixed(2)} MB`,
  );
  // The baseline: the same compiler on a file importing nothing, which pays only for the standard library and @types/node.
  writeFileSync(join(project, "none.ts"), "console.log(process.env.TRESTLE_SEAT);\n");
  for (const [file, skipLibCheck] of [
    ["none.ts", true],
    ["bot.ts", true],
    ["none.ts", false],
    ["bot.ts", false],
  ]) {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules/@types")],
      skipLibCheck,
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [file] }));
    const started = performance.now();
    let report;
    try {
      report = execFileSync(process.execPath, [TSC, "-p", project, "--extendedDiagnostics"], { encoding: "utf8" });
    } catch (error) {
      console.error(error.stdout);
      process.exitCode = 1;
      continue;
    }
    const wall = ((performance.now() - started) / 1000).toFixed(1);
    const pick = (name) => report.match(new RegExp(`^${name}:\\s+(.+)$`, "m"))?.[1]?.trim();
    console.log(
      `${file}, skipLibCheck ${skipLibCheck}: wall ${wall} s, tsc total ${pick("Total time")}, check ${pick("Check time")}, memory ${pick("Memory used")}, types ${pick("Types")}`,
    );
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
