/**
 * Where the client keeps its files (Node only): an explicit directory (the CLI's --home), else
 * $TRESTLE_HOME, else $XDG_CONFIG_HOME/trestle, else ~/.config/trestle. Inside it: owners/ and
 * seats/ (key files, named by the owner or seat name, which the protocol's name schemas confine to
 * one path segment), pins.json (relay keys, trust on first use) and heads/ (newest verified heads).
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { OwnerNameSchema, parseOrThrow, SeatNameSchema } from "../protocol/index.js";

/** The trestle home directory to use; `env` is the environment to read (typed without Node's own types, so the declarations need no @types/node). */
export function trestleHome(
  explicit?: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (explicit) return resolve(explicit);
  if (env.TRESTLE_HOME) return resolve(env.TRESTLE_HOME);
  const config = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "trestle");
}

/** The default key file of an owner; a name the protocol refuses (so also "../x", "a/b") is E_SCHEMA, never a path outside owners/. */
export function ownerKeyPath(home: string, owner: string): string {
  return join(
    home,
    "owners",
    `${parseOrThrow(OwnerNameSchema, owner, `the key file of owner ${JSON.stringify(owner)}`)}.json`,
  );
}

/** The default key file of a seat (one key per seat name; every statement it signs names its table); a name the protocol refuses is E_SCHEMA. */
export function seatKeyPath(home: string, seat: string): string {
  return join(
    home,
    "seats",
    `${parseOrThrow(SeatNameSchema, seat, `the key file of seat ${JSON.stringify(seat)}`)}.json`,
  );
}
