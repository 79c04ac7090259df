/** The CLI's last resort for process failures: a closed pipe ends quietly; anything uncaught is one E_BUG line, exit 1, no stack unless TRESTLE_DEBUG. */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { catchProcessFailures, type CliProcess } from "../../../src/cli/process-failures.js";

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A fake process: streams that record writes and can emit errors, and exit() that throws. */
function fakeProcess(env: NodeJS.ProcessEnv = {}) {
  const stream = () =>
    Object.assign(new EventEmitter(), {
      text: "",
      write(this: { text: string }, t: string) {
        this.text += t;
        return true;
      },
    });
  const events = new EventEmitter();
  const proc = {
    stdout: stream(),
    stderr: stream(),
    env,
    exitCode: undefined as number | undefined,
    on: (event: string, listener: (error: unknown) => void) => events.on(event, listener),
    exit: (code: number): never => {
      throw new Exit(code);
    },
  };
  catchProcessFailures(proc as unknown as CliProcess, false);
  return { proc, events };
}

const epipe = () => Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
const exitOf = (fn: () => void): number => {
  try {
    fn();
  } catch (error) {
    if (error instanceof Exit) return error.code;
    throw error;
  }
  throw new Error("did not exit");
};

describe("catchProcessFailures", () => {
  it("ends quietly with the exit code set so far when the reader of stdout goes away", () => {
    const { proc } = fakeProcess();
    expect(exitOf(() => proc.stdout.emit("error", epipe()))).toBe(0);
    proc.exitCode = 4;
    expect(exitOf(() => proc.stdout.emit("error", epipe()))).toBe(4);
    expect(proc.stderr.text).toBe("");
  });

  it("reports an uncaught failure as one E_BUG line and exit 1, with no stack trace", () => {
    const { proc, events } = fakeProcess();
    expect(exitOf(() => events.emit("unhandledRejection", new Error("boom")))).toBe(1);
    expect(proc.stderr.text).toBe("error E_BUG: unexpected failure (a bug in trestle): boom\n");
  });

  describe("when TRESTLE_DEBUG is set", () => {
    it("adds the stack to stderr", () => {
      const { proc, events } = fakeProcess({ TRESTLE_DEBUG: "1" });
      expect(exitOf(() => events.emit("uncaughtException", new Error("boom")))).toBe(1);
      expect(proc.stderr.text).toMatch(/^error E_BUG: .*boom\nError: boom\n\s+at /);
    });
  });
});
