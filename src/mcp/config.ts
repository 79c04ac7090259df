/**
 * The MCP server's settings (docs/MCP.md "Configuration"): from the environment, an optional JSON
 * config file, and the CLI's --relay and --home flags, in that order of precedence: flag, then
 * environment, then file, then default. Paths in the file are relative to the file. Nothing here
 * reads a key: keys, the card and the instructions are read when a tool needs them, so a bad file
 * is an error a tool reports, not a server that fails to start.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { ownerKeyPath, seatKeyPath, trestleHome } from "../client/node.js";
import { OwnerNameSchema, parseOrThrow, SeatNameSchema, TableIdSchema, TrestleError } from "../protocol/index.js";

/** The config file (TRESTLE_MCP_CONFIG or `trestle mcp --config FILE`); every key optional. */
export const McpConfigFileSchema = z.strictObject({
  url: z.string().min(1).optional(),
  table: TableIdSchema.optional(),
  owner: OwnerNameSchema.optional(),
  owner_key_file: z.string().min(1).optional(),
  seat: SeatNameSchema.optional(),
  seat_key_file: z.string().min(1).optional(),
  card_file: z.string().min(1).optional(),
  instructions_file: z.string().min(1).optional(),
  home: z.string().min(1).optional(),
  /** The owner lets the model open sub-tables (trestle_open_subtable); off unless true (decision 0241). */
  allow_subtables: z.boolean().optional(),
  /** The owner lets the model revoke the owner's own seats (trestle_revoke_seat); off unless true (decision 0306). */
  allow_revoke: z.boolean().optional(),
});
export type McpConfigFile = z.infer<typeof McpConfigFileSchema>;

/** Resolved settings: absolute paths; `owner` and `seat` may still come from their key files. */
export const McpSettingsSchema = z.strictObject({
  url: z.string().min(1),
  home: z.string().min(1),
  table: TableIdSchema.optional(),
  owner: OwnerNameSchema.optional(),
  ownerKeyFile: z.string().optional(),
  seat: SeatNameSchema.optional(),
  seatKeyFile: z.string().optional(),
  cardFile: z.string().optional(),
  instructionsFile: z.string().optional(),
  allowSubtables: z.boolean().optional(),
  allowRevoke: z.boolean().optional(),
});
export type McpSettings = z.infer<typeof McpSettingsSchema>;

/** Environment variables the server reads, by setting. */
export const ENV = {
  url: "TRESTLE_URL",
  table: "TRESTLE_TABLE",
  owner: "TRESTLE_OWNER",
  ownerKeyFile: "TRESTLE_OWNER_KEY_FILE",
  seat: "TRESTLE_SEAT",
  seatKeyFile: "TRESTLE_SEAT_KEY_FILE",
  cardFile: "TRESTLE_CARD_FILE",
  instructionsFile: "TRESTLE_INSTRUCTIONS_FILE",
  home: "TRESTLE_HOME",
  allowSubtables: "TRESTLE_ALLOW_SUBTABLES",
  allowRevoke: "TRESTLE_ALLOW_REVOKE",
  config: "TRESTLE_MCP_CONFIG",
} as const;

/** What settings are resolved from. */
export interface SettingsSources {
  env: NodeJS.ProcessEnv;
  /** --relay, --home and --config as given on the command line. */
  flags: { relay?: string | undefined; home?: string | undefined; config?: string | undefined };
  /** The relay used when nothing names one (the CLI's default). */
  defaultRelay: string;
}

/** Resolves the settings; throws E_SCHEMA for a bad config file or name, naming the file or variable. */
export function resolveSettings({ env, flags, defaultRelay }: SettingsSources): McpSettings {
  const configPath = flags.config ?? nonEmpty(env[ENV.config]);
  const file = configPath === undefined ? {} : readConfigFile(resolve(configPath));
  const fileDir = configPath === undefined ? process.cwd() : dirname(resolve(configPath));
  const fromFile = (path: string | undefined) => (path === undefined ? undefined : resolve(fileDir, path));
  const fromEnv = (name: string) => {
    const value = nonEmpty(env[name]);
    return value === undefined ? undefined : resolve(value);
  };
  const home =
    flags.home !== undefined
      ? resolve(flags.home)
      : (fromEnv(ENV.home) ?? fromFile(file.home) ?? trestleHome(undefined, env));
  const owner = nonEmpty(env[ENV.owner]) ?? file.owner;
  const seat = nonEmpty(env[ENV.seat]) ?? file.seat;
  const settings = {
    url: flags.relay ?? nonEmpty(env[ENV.url]) ?? file.url ?? nonEmpty(env.TRESTLE_RELAY) ?? defaultRelay,
    home,
    table: nonEmpty(env[ENV.table]) ?? file.table,
    owner,
    ownerKeyFile:
      fromEnv(ENV.ownerKeyFile) ??
      fromFile(file.owner_key_file) ??
      (owner === undefined ? undefined : ownerKeyPath(home, owner)),
    seat,
    seatKeyFile:
      fromEnv(ENV.seatKeyFile) ??
      fromFile(file.seat_key_file) ??
      (seat === undefined ? undefined : seatKeyPath(home, seat)),
    cardFile: fromEnv(ENV.cardFile) ?? fromFile(file.card_file),
    instructionsFile: fromEnv(ENV.instructionsFile) ?? fromFile(file.instructions_file),
    allowSubtables: flag(env, ENV.allowSubtables) ?? file.allow_subtables,
    allowRevoke: flag(env, ENV.allowRevoke) ?? file.allow_revoke,
  };
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  return parseOrThrow(McpSettingsSchema, defined, "the MCP server's settings (TRESTLE_* variables)");
}

function readConfigFile(path: string): McpConfigFile {
  return parseOrThrow(McpConfigFileSchema, readJsonFile(path, "MCP config file"), `the MCP config file ${path}`);
}

/** The JSON in the file at `path` (`what` names it in errors); E_SCHEMA when it cannot be read or is not JSON. */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TrestleError("E_SCHEMA", `cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TrestleError("E_SCHEMA", `the ${what} ${path} is not JSON`);
  }
}

/** A yes/no variable: 1/true or 0/false (unset or empty: undefined); E_SCHEMA for anything else. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) return undefined;
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  throw new TrestleError("E_SCHEMA", `${name} must be 1, true, 0 or false, not "${value}"`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
