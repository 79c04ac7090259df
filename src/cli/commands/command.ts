/** The shape of one CLI verb: its name, help text, flags and what it does. One file per verb. */
import type { Flags } from "../args.js";
import type { Context } from "../context.js";
import type { ExitCode } from "../exit.js";

/** A CLI command; `run` returns its exit code (EXIT.OK when it returns nothing). */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Positionals, e.g. "<config.json>"; flags are listed from `flags`. */
  args?: string;
  flags: Flags;
  run(ctx: Context): Promise<ExitCode | void>;
}
