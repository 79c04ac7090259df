/**
 * Runs a command from the bench without blocking the bench's event loop. A synchronous spawn
 * freezes the bench's HTTP client for the child's whole run: the relay (workerd, as wrangler dev
 * runs it) closes a keep-alive connection after 5 s idle, the frozen client never sees the close,
 * and its next request goes out on the dead connection (undici "other side closed"). With the
 * loop free, the client drops each connection as the relay closes it.
 */
import { spawn } from "node:child_process";

/** A finished child: its exit status (null if a signal ended it), stdout and stderr together, and its time from spawn to exit in ms. */
export interface ChildRun {
  status: number | null;
  output: string;
  ms: number;
}

/** Runs `command` with `args` and `env` to its exit, the event loop free meanwhile; rejects only if it cannot start. */
export function runChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output, ms: performance.now() - t0 }));
  });
}
