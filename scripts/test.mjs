/**
 * `npm test`: the type check (`tsc --noEmit` of TypeScript 7, the native compiler, decision 0433),
 * the format check (Prettier, decision 0540) and the build then every test (`vitest run`, with any
 * arguments given) at once rather than one after the other, so the checks run while the tests wait
 * on relays, browsers and processes. Fails when any fails; the checks' output is printed after the
 * tests', whole.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(ROOT, "node_modules", ".bin", name);
/** TypeScript 7's compiler, by path: `typescript` (5.x, whose API the build and a test use) has a `tsc` bin too. */
const TSC = join(ROOT, "node_modules", "typescript-7", "bin", "tsc");
/** Prettier's command line, by path, as `npm run format` runs it. */
const PRETTIER = join(ROOT, "node_modules", "prettier", "bin", "prettier.cjs");

/** Runs `command` in the checkout; resolves with its exit code (1 if a signal ended it) and, when `capture`, what it printed. */
function run(command, args, capture = false) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (capture)
      for (const stream of [child.stdout, child.stderr])
        stream.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const typecheck = run(process.execPath, [TSC, "--noEmit"], true);
// `--list-different` names each file Prettier would change (exit 1), or the file it cannot parse (exit 2).
const formatCheck = existsSync(PRETTIER)
  ? run(process.execPath, [PRETTIER, "--list-different", "."], true)
  : Promise.resolve({ code: 1, output: "" });
const build = await run(process.execPath, [join(ROOT, "scripts/build.mjs")]);
const tests = build.code === 0 ? await run(bin("vitest"), ["run", ...process.argv.slice(2)]) : build;
const types = await typecheck;
process.stdout.write(types.code === 0 ? "tsc --noEmit: no type errors\n" : `tsc --noEmit failed:\n${types.output}`);
const format = await formatCheck;
process.stdout.write(
  format.code === 0
    ? "prettier: every file formatted\n"
    : existsSync(PRETTIER)
      ? `prettier: not formatted (\`npm run format\` formats them):\n${format.output}`
      : "prettier is not installed (`npm ci` installs it)\n",
);
process.exit(build.code || tests.code || types.code || format.code);
