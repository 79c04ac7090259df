/**
 * Runs the real `trestle` CLI as a child process (node bin/trestle.mjs) with its own home
 * directory and relay URL, capturing exit code, stdout and stderr; or starts one that keeps
 * running (watch) and waits for a line it prints.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/trestle.mjs", import.meta.url));

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

/** A CLI bound to one home and relay. */
export function cli(home: string, relay: string) {
  const start = (args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): CliProcess => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", TRESTLE_HOME: home, TRESTLE_RELAY: relay, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
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
    child.stdin.end(options.input ?? "");
    const printed = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        settle();
        void done.then((run) => reject(new Error(`the CLI exited (${run.code}) before printing ${pattern}:\n${run.stdout}${run.stderr}`)));
      });
    return { child, printed, done };
  };
  const run = (args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> => start(args, options).done;
  /** Runs and parses stdout as JSON (with --json added). */
  const json = async (args: readonly string[], options: { input?: string } = {}) => {
    const result = await run([...args, "--json"], options);
    return { ...result, body: result.stdout.trim() ? (JSON.parse(result.stdout) as Record<string, any>) : null };
  };
  return { run, json, start };
}
