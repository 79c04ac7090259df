/** Runs the real `trestle` command (bin/trestle.mjs) as a child process, as a person would type it, with the demo's home and relay. */
import { spawn } from "node:child_process";
import { join } from "node:path";

/** What one run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A `trestle` bound to the repository at `root`, the trestle home `home` and the relay `relay`. */
export function trestleCli(root: string, home: string, relay: string): (args: readonly string[]) => Promise<CliRun> {
  const bin = join(root, "bin", "trestle.mjs");
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        env: { ...process.env, TRESTLE_HOME: home, TRESTLE_RELAY: relay, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Uint8Array) => (stdout += new TextDecoder().decode(d)));
      child.stderr.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
}
