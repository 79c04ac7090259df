/**
 * Where the client keeps its files (Node only): an explicit directory (the CLI's --home), else
 * $TRESTLE_HOME, else $XDG_CONFIG_HOME/trestle, else ~/.config/trestle. Inside it: owners/ and
 * seats/ (key files), pins.json (relay keys, trust on first use) and heads/ (newest verified heads).
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The trestle home directory to use. */
export function trestleHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return resolve(explicit);
  if (env.TRESTLE_HOME) return resolve(env.TRESTLE_HOME);
  const config = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "trestle");
}

/** The default key file of an owner. */
export function ownerKeyPath(home: string, owner: string): string {
  return join(home, "owners", `${owner}.json`);
}

/** The default key file of a seat (one key per seat name; every statement it signs names its table). */
export function seatKeyPath(home: string, seat: string): string {
  return join(home, "seats", `${seat}.json`);
}
