/**
 * The `trestle` command: finds the verb, parses its flags, runs it, and turns any failure into the
 * error's code, a hint and a documented exit code (exit.ts). No stack trace is ever printed;
 * TRESTLE_DEBUG=1 adds one to stderr for an unexpected failure.
 */
import pkg from "../../package.json" with { type: "json" };
import { commandFirst, globalFlagOf, parse, VERSION_FLAGS } from "./args.js";
import { commandFor } from "./commands/index.js";
import type { Command } from "./commands/command.js";
import { Context, type Io } from "./context.js";
import { EXIT, exitCodeOf, UsageError, type ExitCode } from "./exit.js";
import { commandHelp, familyHelp, familyVerbs, overview } from "./help.js";
import { Output } from "./output.js";
import { colorAllowed } from "../text/styles.js";

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
export async function main(given: readonly string[], io: Io): Promise<ExitCode> {
  const argv = commandFirst(given);
  const helpAsked = argv.includes("--help") || argv.includes("-h");
  // Only global flags and no command: `trestle --json --help` is help, `trestle --home D` is bare `trestle`.
  const name =
    argv[0] === undefined || globalFlagOf(argv[0]) !== undefined ? (helpAsked ? "--help" : undefined) : argv[0];
  const rest = argv.slice(1);
  const json = argv.includes("--json");
  const fallback = new Output(json, colorAllowed(io.env, argv.includes("--no-color")), io.stdout, io.stderr);
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const words = rest.slice(0, leadingWords(rest));
    const topic = name === "help" && words.length > 0 ? words : undefined;
    const command = topic === undefined ? undefined : commandFor(topic)?.command;
    const verbs = topic?.length === 1 && !command ? familyVerbs(topic[0]!) : [];
    if (verbs.length > 0) return family(fallback, topic![0]!, verbs, true);
    if (topic !== undefined && !command) return usage(fallback, `unknown command "${topic.join(" ")}"`);
    fallback.result(command ? commandHelp(command) : overview(), { help: command?.name ?? null });
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (VERSION_FLAGS.includes(name)) {
    fallback.result([`trestle ${pkg.version}`], { version: pkg.version });
    return EXIT.OK;
  }
  const found = commandFor(argv);
  const verbs = found ? [] : familyVerbs(name);
  if (verbs.length > 0) return family(fallback, name, verbs, helpAsked, rest[0]);
  if (!found && name.startsWith("-"))
    return usage(fallback, `${name} is no global flag; a command's own flags come after the command (trestle help)`);
  if (!found) return usage(fallback, `unknown command "${name}"`);
  const { command } = found;
  let ctx: Context;
  try {
    ctx = new Context(io, parse(found.rest, command.flags));
  } catch (error) {
    fallback.error(error, command.name);
    return exitCodeOf(error);
  }
  if (ctx.args.values.help === true) {
    ctx.out.result(commandHelp(command), { help: command.name });
    return EXIT.OK;
  }
  try {
    return (await command.run(ctx)) ?? EXIT.OK;
  } catch (error) {
    ctx.out.error(error, command.name);
    if (io.env.TRESTLE_DEBUG && error instanceof Error && exitCodeOf(error) === EXIT.INTERNAL)
      io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  }
}

/** A family named without a known verb (`trestle room`, `trestle gate --help`, `trestle room frob`): its verbs as help, or a usage error naming them. */
function family(out: Output, name: string, verbs: readonly Command[], help: boolean, given?: string): ExitCode {
  if (help) {
    out.result(familyHelp(name, verbs), { help: name, verbs: verbs.map((c) => c.name) });
    return EXIT.OK;
  }
  const known = verbs.map((c) => c.name.slice(name.length + 1)).join(", ");
  const what =
    given === undefined || given.startsWith("-") ? `"${name}" needs a verb` : `"${name} ${given}" is no command`;
  return usage(out, `${what}; ${name}'s verbs: ${known} (trestle help ${name})`);
}

/** How many of `args` come before the first flag. */
function leadingWords(args: readonly string[]): number {
  const first = args.findIndex((a) => a.startsWith("-") && a !== "-");
  return first === -1 ? args.length : first;
}

function usage(out: Output, message: string): ExitCode {
  out.error(new UsageError(message));
  return EXIT.USAGE;
}
