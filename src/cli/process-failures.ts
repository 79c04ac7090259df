/**
 * The CLI process's last resort for failures nobody caught (run.ts). A reader that goes away (`trestle history |
 * head -1`: EPIPE on stdout or stderr) ends the process quietly, as Unix tools do, with the exit
 * code set so far (0 if none). Anything else nobody caught (an error event on a stream, an
 * unhandled rejection, an uncaught exception) is reported like any unexpected failure, as one
 * `error E_BUG` line (the envelope under --json) and exit 1, never a stack trace; TRESTLE_DEBUG=1
 * adds the stack to stderr (docs/CLI.md).
 */
import { EXIT } from "./exit.js";
import { Output } from "./output.js";

/** The parts of a Node process the handlers hook into (a fake in tests). */
export interface CliProcess {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  exitCode?: number | string | undefined;
  on(event: "uncaughtException" | "unhandledRejection", listener: (error: unknown) => void): unknown;
  exit(code: number): never;
}

/** Installs the handlers on `proc`; `json` is whether the command line asked for --json. */
export function catchProcessFailures(proc: CliProcess, json: boolean): void {
  const fatal = (error: unknown) => {
    try {
      new Output(json, false, proc.stdout, proc.stderr).error(error);
      if (proc.env.TRESTLE_DEBUG && error instanceof Error) proc.stderr.write(`${error.stack}\n`);
    } catch {
      // Nothing left to print to.
    }
    proc.exit(EXIT.INTERNAL);
  };
  const onStreamError = (error: unknown) => {
    if (isEpipe(error)) return proc.exit(typeof proc.exitCode === "number" ? proc.exitCode : EXIT.OK);
    fatal(error);
  };
  proc.stdout.on("error", onStreamError);
  proc.stderr.on("error", onStreamError);
  proc.on("uncaughtException", fatal);
  proc.on("unhandledRejection", fatal);
}

function isEpipe(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "EPIPE";
}
