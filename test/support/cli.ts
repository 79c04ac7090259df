/**
 * Runs the `trestle` CLI with its own home directory and relay URL, capturing exit code, stdout and
 * stderr. `cli` runs a command in this process through `main(argv, io)` (src/cli/main.ts), with the
 * environment, streams and stdin handed in as an `Io` and never read from this process, so runs can
 * overlap; `spawnedCli` runs the same commands as real processes (node bin/trestle.mjs) for the
 * tests whose subject is the process itself (decision 0389). Either one's `start` spawns a process
 * that keeps running (watch, view) and waits for a line it prints.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EXIT } from "../../src/cli/exit.js";
import { main } from "../../src/cli/main.js";
import type { ErrorCode } from "../../src/protocol/index.js";
import type { TextSink } from "../../src/text/styles.js";
import { refused } from "./refused.js";

const BIN = fileURLToPath(new URL("../../bin/trestle.mjs", import.meta.url));

/**
 * Whether `args` is a command that runs only as a process, so `cli` spawns it too: checking an
 * export (`verify` without --task, `import`) starts worker threads from the bundle's
 * dist/verify-worker.mjs (a proof file's check, `--proof`, does not), and `mcp` serves on the process's own stdin and stdout and names the
 * running script in the config it prints.
 */
function processOnly(args: readonly string[]): boolean {
  const [command] = args;
  return (
    command === "mcp" ||
    command === "import" ||
    (command === "verify" && !args.includes("--task") && !args.includes("--proof"))
  );
}

/** What one run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A CLI process still running: what it printed so far, a wait for a pattern on either stream, and its end. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first match of `pattern` in what was printed (stdout, then stderr). */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  done: Promise<CliRun>;
}

/** Options of one run: text on stdin, environment variables added to the home and relay, and the clock the command reads (in this process only; a spawned one reads its own). */
export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  clock?: () => number;
}

/** A CLI bound to one home and relay whose `run` and `json` call `main` in this process (`processOnly` commands still spawn). */
export function cli(home: string, relay: string) {
  return bound(home, relay, false);
}

/** A CLI bound to one home and relay whose every command is a real `node bin/trestle.mjs` process. */
export function spawnedCli(home: string, relay: string) {
  return bound(home, relay, true);
}

function bound(home: string, relay: string, spawned: boolean) {
  const env = (options: RunOptions): Record<string, string> => ({
    PATH: process.env.PATH ?? "",
    TRESTLE_HOME: home,
    TRESTLE_RELAY: relay,
    ...options.env,
  });
  const start = (args: readonly string[], options: RunOptions = {}): CliProcess =>
    startProcess(args, env(options), options.input);
  const run = (args: readonly string[], options: RunOptions = {}): Promise<CliRun> => {
    const inProcess = !spawned && !processOnly(args);
    if (options.clock && !inProcess)
      throw new Error(`trestle ${args.join(" ")} runs as a process, which reads its own clock`);
    return inProcess ? runInProcess(args, env(options), options.input, options.clock) : start(args, options).done;
  };
  /** Runs and parses stdout as JSON (with --json added). */
  const json = async (args: readonly string[], options: RunOptions = {}) => {
    const result = await run([...args, "--json"], options);
    return { ...result, body: result.stdout.trim() ? (JSON.parse(result.stdout) as Record<string, any>) : null };
  };
  return { run, json, start };
}

/** Runs `main` with streams that collect what it prints, `env` as its whole environment, `input` as its stdin and `clock` (default the system's) as its clock. */
async function runInProcess(
  args: readonly string[],
  env: Record<string, string>,
  input = "",
  clock: () => number = () => Date.now(),
): Promise<CliRun> {
  const out = { stdout: "", stderr: "" };
  const sink = (name: keyof typeof out): TextSink => ({ write: (text: string) => ((out[name] += text), true) });
  const code = await main(args, {
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    env,
    stdin: async () => input,
    clock,
  });
  return { code, ...out };
}

/** Spawns `node bin/trestle.mjs args` with `env` as its whole environment and `input` on its stdin. */
function startProcess(args: readonly string[], env: Record<string, string>, input = ""): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  const waiters: { pattern: RegExp; resolve(match: RegExpExecArray): void }[] = [];
  const settle = () => {
    for (const w of [...waiters]) {
      const match = w.pattern.exec(out.stdout + out.stderr);
      if (!match) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(match);
    }
  };
  child.stdout.on("data", (d: Uint8Array) => ((out.stdout += new TextDecoder().decode(d)), settle()));
  child.stderr.on("data", (d: Uint8Array) => ((out.stderr += new TextDecoder().decode(d)), settle()));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, ...out }));
  });
  child.stdin.end(input);
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      waiters.push({ pattern, resolve });
      settle();
      void done.then((run) =>
        reject(new Error(`the CLI exited (${run.code}) before printing ${pattern}:\n${run.stdout}${run.stderr}`)),
      );
    });
  return { child, printed, done };
}

/** Runs `args` with --json through `t`, expecting a refusal with `code` (exit 3, a hint) while `table`'s head stays where it was; returns the error envelope. */
export async function refusedRun(
  t: Pick<ReturnType<typeof cli>, "json">,
  code: ErrorCode,
  args: readonly string[],
  table: { head(): Promise<{ seq: number }> },
): Promise<Record<string, any>> {
  const run = await refused(code, () => t.json(args), {
    exit: EXIT.REFUSED,
    unmoved: async () => (await table.head()).seq,
  });
  return run.body!.error;
}
