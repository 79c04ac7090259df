/**
 * Runs the real `trestle` CLI as a child process (node bin/trestle.mjs) with its own home
 * directory and relay URL, capturing exit code, stdout and stderr.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/trestle.mjs", import.meta.url));

/** What one run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A CLI bound to one home and relay. */
export function cli(home: string, relay: string) {
  const run = (args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { PATH: process.env.PATH ?? "", TRESTLE_HOME: home, TRESTLE_RELAY: relay, ...options.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
      child.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(options.input ?? "");
    });
  /** Runs and parses stdout as JSON (with --json added). */
  const json = async (args: readonly string[], options: { input?: string } = {}) => {
    const result = await run([...args, "--json"], options);
    return { ...result, body: result.stdout.trim() ? (JSON.parse(result.stdout) as Record<string, any>) : null };
  };
  return { run, json };
}
