/**
 * Command-line parsing with node:util `parseArgs` (strict: an unknown flag is a usage error).
 * Global flags apply to every command, before or after its name; each command declares its own.
 * Table, seat and owner fall back to TRESTLE_TABLE, TRESTLE_SEAT and TRESTLE_OWNER so a shell
 * session can set them once.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./exit.js";

/** A flag's declaration: parseArgs' own shape plus the text `help` shows. */
export type FlagSpec = NonNullable<ParseArgsConfig["options"]>[string] & { help: string; value?: string };

/** A command's flags by name. */
export type Flags = Record<string, FlagSpec>;

/** Parsed flags and positionals. */
export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Flags every command accepts. */
export const GLOBAL_FLAGS: Flags = {
  relay: { type: "string", value: "URL", help: "relay base URL (default $TRESTLE_RELAY or http://127.0.0.1:8787)" },
  home: {
    type: "string",
    value: "DIR",
    help: "where keys, pins and heads live (default $TRESTLE_HOME, else $XDG_CONFIG_HOME/trestle or ~/.config/trestle)",
  },
  json: { type: "boolean", help: "print JSON for scripts instead of text" },
  "no-color": { type: "boolean", help: "never colour the output (NO_COLOR does the same)" },
  help: { type: "boolean", short: "h", help: "show help for the command" },
};

/** The flags `trestle` answers without a command: `--version` and its short form. */
export const VERSION_FLAGS: readonly string[] = ["--version", "-V"];

/** The global flag `token` spells (`--json`, `--home=DIR`, `-h`), or undefined. */
export function globalFlagOf(token: string): FlagSpec | undefined {
  if (token.startsWith("--")) {
    const name = token.slice(2).split("=")[0]!;
    return Object.hasOwn(GLOBAL_FLAGS, name) ? GLOBAL_FLAGS[name] : undefined;
  }
  return Object.values(GLOBAL_FLAGS).find((flag) => flag.short !== undefined && token === `-${flag.short}`);
}

/**
 * `argv` with the command's words first: global flags written before the command, or between a
 * family and its verb, move after them (with a string flag's value), so `trestle --json room
 * --home D show` runs as `trestle room show --json --home D`. The scan stops at any other flag,
 * at `--` and after two words; what follows keeps its place. Global flags mean the same anywhere.
 * `--version` and `-V` count as words, since they stand for a command.
 */
export function commandFirst(argv: readonly string[]): string[] {
  const words: string[] = [];
  const globals: string[] = [];
  let i = 0;
  for (; i < argv.length && words.length < 2; i += 1) {
    const token = argv[i]!;
    const flag = globalFlagOf(token);
    if (flag === undefined) {
      if (token.startsWith("-") && token !== "-" && !VERSION_FLAGS.includes(token)) break;
      words.push(token);
      continue;
    }
    globals.push(token);
    if (flag.type === "string" && !token.includes("=") && i + 1 < argv.length) globals.push(argv[++i]!);
  }
  // No command word: the flag that stopped the scan comes first, so it is what is reported.
  return words.length > 0 ? [...words, ...globals, ...argv.slice(i)] : [...argv.slice(i), ...globals];
}

/** --table: the table a command acts on. */
export const TABLE_FLAG: Flags = {
  table: { type: "string", value: "ID", help: "the table id (default $TRESTLE_TABLE)" },
};
/** --seat and --key: who writes or reads as a seat. */
export const SEAT_FLAGS: Flags = {
  seat: { type: "string", value: "NAME", help: "the seat (default $TRESTLE_SEAT)" },
  key: { type: "string", value: "FILE", help: "the seat key file (default <home>/seats/<seat>.json)" },
};
/** --owner and --owner-key: who signs or reads as an owner. */
export const OWNER_FLAGS: Flags = {
  owner: { type: "string", value: "NAME", help: "the owner (default $TRESTLE_OWNER)" },
  "owner-key": { type: "string", value: "FILE", help: "the owner key file (default <home>/owners/<owner>.json)" },
};

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `argv` with each flag that takes a value joined to the argument after it (`--key -Ab…` becomes
 * `--key=-Ab…`), whatever that argument starts with, as getopt does for an option with a required
 * argument: an owner key, a question id or a text may start with "-". Up to `--`, after which
 * every argument is positional.
 */
export function valuesJoined(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i]!;
    if (token === "--") return [...out, ...argv.slice(i)];
    const name = token.startsWith("--")
      ? token.slice(2)
      : /^-[^-]$/.test(token)
        ? Object.keys(options).find((n) => options[n]!.short === token[1])
        : undefined;
    const takesValue =
      name !== undefined && !name.includes("=") && Object.hasOwn(options, name) && options[name]!.type === "string";
    if (takesValue && i + 1 < argv.length) out.push(`--${name}=${argv[++i]!}`);
    else out.push(token);
  }
  return out;
}

/** Parses `argv` against the global flags and `flags`; a flag that takes a value takes the next argument, even one starting with "-" (valuesJoined). */
export function parse(argv: readonly string[], flags: Flags): Parsed {
  const options: Options = {};
  for (const [name, spec] of Object.entries({ ...GLOBAL_FLAGS, ...flags })) {
    const { help: _help, value: _value, ...option } = spec;
    options[name] = option;
  }
  try {
    const { values, positionals } = parseArgs({
      args: valuesJoined(argv, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (error) {
    if (!(error instanceof Error)) throw new UsageError(String(error));
    const unknown = (error as NodeJS.ErrnoException).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    throw new UsageError(
      `${error.message.replace(/\. To specify.*$/s, "")}${unknown ? ' (an argument that starts with "-" goes after --, as in: -- -Xy)' : ""}`,
    );
  }
}

/** A string flag's value, or the fallback `envName` in `env` (the command's Io, never this process's), or undefined. */
export function optional(parsed: Parsed, name: string): string | undefined;
export function optional(parsed: Parsed, name: string, envName: string, env: NodeJS.ProcessEnv): string | undefined;
export function optional(
  parsed: Parsed,
  name: string,
  envName?: string,
  env: NodeJS.ProcessEnv = {},
): string | undefined {
  const value = parsed.values[name];
  if (typeof value === "string") return value;
  return envName ? env[envName] || undefined : undefined;
}

/** A required string flag (or its fallback `envName` in `env`, the command's Io). */
export function required(parsed: Parsed, name: string): string;
export function required(parsed: Parsed, name: string, envName: string, env: NodeJS.ProcessEnv): string;
export function required(parsed: Parsed, name: string, envName?: string, env: NodeJS.ProcessEnv = {}): string {
  const value = envName === undefined ? optional(parsed, name) : optional(parsed, name, envName, env);
  if (value === undefined) throw new UsageError(`--${name} is required${envName ? ` (or set ${envName})` : ""}`);
  return value;
}

/** A whole-number flag from 0 to 2^53 − 1 (the protocol's largest integer, SPEC §2), or `fallback`. */
export function integer(parsed: Parsed, name: string, fallback?: number): number | undefined {
  const value = parsed.values[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^[0-9]{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  }
  return Number(value);
}

/** The positional arguments `names`; those from index `optionalFrom` on may be left out. */
export function positionals(parsed: Parsed, names: readonly string[], optionalFrom = names.length): string[] {
  const got = parsed.positionals;
  if (got.length < optionalFrom)
    throw new UsageError(
      `missing ${names
        .slice(got.length, optionalFrom)
        .map((n) => `<${n}>`)
        .join(" ")}`,
    );
  if (got.length > names.length) throw new UsageError(`unexpected argument "${got[names.length]}"`);
  return got;
}

const DURATION = /^([0-9]{1,6})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `text` as a duration like 30s, 10m, 2h or 1d, in milliseconds; null when it is not one. */
function durationMs(text: string): number | null {
  const match = DURATION.exec(text);
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : null;
}

/** A duration flag like 30s, 10m, 2h or 1d, in milliseconds (`fallback` when the flag is absent). */
export function duration(parsed: Parsed, name: string, fallback: string): number {
  const text = optional(parsed, name) ?? fallback;
  const ms = durationMs(text);
  if (ms === null) throw new UsageError(`--${name} must look like 30s, 10m, 2h or 1d, not "${text}"`);
  return ms;
}

const ISO_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** `text` as an ISO 8601 date and time with its offset (`Z` or `±hh:mm`), in milliseconds since the epoch; null when it is not one or names no real time (a 30 February, a 25th hour). */
function isoMs(text: string): number | null {
  const match = ISO_TIME.exec(text);
  if (!match) return null;
  const wall = `${match[1]}:${match[2] ?? "00"}`;
  const asUtc = Date.parse(`${wall}Z`);
  if (Number.isNaN(asUtc) || new Date(asUtc).toISOString().slice(0, 19) !== wall) return null;
  const ms = Date.parse(text);
  return ms >= 0 ? ms : null;
}

/** A time flag as milliseconds since the epoch: a duration from `now` (30s, 10m, 2h, 1d) or an ISO 8601 time with its offset (2025-06-01T18:00:00Z, 2025-06-01T20:00+02:00); undefined when absent. */
export function instant(parsed: Parsed, name: string, now: number): number | undefined {
  const text = optional(parsed, name);
  if (text === undefined) return undefined;
  const relative = durationMs(text);
  const ms = relative === null ? isoMs(text) : now + relative;
  if (ms === null)
    throw new UsageError(
      `--${name} takes a time: a duration from now like 30s, 10m, 2h or 1d, or an ISO 8601 time with its offset like 2025-06-01T18:00:00Z, not "${text}"`,
    );
  return ms;
}
