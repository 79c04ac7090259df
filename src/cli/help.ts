/** Help text, generated from the command registry and the flag declarations, so it cannot drift. */
import { GLOBAL_FLAGS, type Flags } from "./args.js";
import { COMMANDS } from "./commands/index.js";
import type { Command } from "./commands/command.js";
import { EXIT } from "./exit.js";

/** `trestle help`: every command with its summary, the global flags and the exit codes. */
export function overview(): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "trestle: sit your bots at a shared, signed table",
    "",
    "usage: trestle <command> [flags]",
    "",
    "commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "global flags (before or after the command):",
    ...flagLines(GLOBAL_FLAGS),
    "",
    "exit codes:",
    ...Object.entries(EXIT).map(([name, code]) => `  ${code}  ${name.toLowerCase()}`),
    "",
    "trestle help <command> shows a command's flags; trestle --version (-V) prints the version; docs/CLI.md has the details.",
  ];
}

/** The verbs of a family of commands (`room` for `room create`, `room offer`, …); empty when `family` is none. */
export function familyVerbs(family: string): Command[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${family} `));
}

/** `trestle help <family>` and `trestle <family> --help`: the family's verbs with their summaries. */
export function familyHelp(family: string, verbs: readonly Command[]): string[] {
  const width = Math.max(...verbs.map((c) => c.name.length));
  return [
    `usage: trestle ${family} <verb> [flags]`,
    "",
    "verbs:",
    ...verbs.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `trestle help ${family} <verb> shows a verb's flags.`,
  ];
}

/** `trestle help <command>`. */
export function commandHelp(command: Command): string[] {
  return [
    `usage: trestle ${command.name}${command.args ? ` ${command.args}` : ""} [flags]`,
    "",
    command.summary,
    "",
    "flags:",
    ...flagLines(command.flags),
    ...flagLines(GLOBAL_FLAGS),
  ];
}

function flagLines(flags: Flags): string[] {
  return Object.entries(flags).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : "";
    const value = spec.type === "string" ? ` ${spec.value ?? "VALUE"}` : "";
    return `  ${`${short}--${name}${value}`.padEnd(28)}  ${spec.help}`;
  });
}
