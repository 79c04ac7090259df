/**
 * The limits a relay's operator sets (docs/SPEC.md §10.1): rates, socket caps, owner quotas and
 * table lifetimes. Each has a default here, a public-demo default, and a setting the operator may
 * override (`TRESTLE_LIMIT_<NAME>` in wrangler.toml `[vars]`, a whole number); the relay publishes
 * the values in effect at /.well-known/trestle.json beside LIMITS. A rate is a bucket of N tokens
 * that refills at N per period; 0 turns a rate, cap, quota or lifetime off. Pure: the caller
 * passes a reader of the settings.
 */
import { TrestleError } from "../errors.js";

/** The defaults of a relay that is not a public demo. */
export const OPERATOR_LIMITS = {
  /** Entries one seat may write per minute at one table (HTTP and socket alike). */
  seat_writes_per_min: 120,
  /** Owner-signed writes (approvals, pauses, resumes) per owner per minute at one table. */
  owner_writes_per_min: 60,
  /** Signed reads (projection, entries, tasks, export) per seat or owner per minute at one table. */
  reads_per_min: 300,
  /** Frames one socket may send per second; a socket far past it is closed (4429). */
  socket_frames_per_s: 20,
  /** Seat and owner sockets open at one table (public sockets are counted apart). */
  sockets_per_table: 256,
  /** Sockets one seat, or one owner's sessions, may hold open at one table. */
  sockets_per_seat: 4,
  /** Receive-only public sockets at one public table. */
  public_sockets_per_table: 200,
  /** A socket that has not answered its challenge this long after opening is closed (4408); 1000-30000. */
  socket_auth_ms: 10_000,
  /** Tables (and sub-tables) one client address may open per hour. */
  client_tables_per_hour: 60,
  /** Join requests one client address may send per minute. */
  client_joins_per_min: 60,
  /** WebSocket upgrades one client address may make per minute. */
  client_connects_per_min: 60,
  /** Replica pages (mirror feeds and imports, docs/SPEC.md §8.4) one client address may send per hour. */
  client_pages_per_hour: 600,
  /** Unsigned reads (head, public export) one client address may make per minute, counted at the edge (approximate, per location). */
  edge_reads_per_min: 600,
  /** Tables one owner key may open per hour. */
  owner_tables_per_hour: 60,
  /** Tables one owner key may hold at once (opened and not yet deleted). */
  owner_tables: 1000,
  /** Any table is deleted this long after it was opened (0: never). */
  table_ttl_ms: 0,
  /** A table is deleted this long after it closed (0: never). */
  closed_table_ttl_ms: 0,
} as const;

/** The name of an operator limit. */
export type OperatorLimitName = keyof typeof OPERATOR_LIMITS;

/** The operator limits in effect. */
export type OperatorLimits = Record<OperatorLimitName, number>;

const HOUR = 60 * 60 * 1000;

/** A public demo's defaults: short lifetimes, tight caps and creation limits (docs/SELF-HOST.md). */
export const DEMO_LIMITS: OperatorLimits = {
  ...OPERATOR_LIMITS,
  seat_writes_per_min: 30,
  owner_writes_per_min: 20,
  reads_per_min: 120,
  socket_frames_per_s: 10,
  sockets_per_table: 32,
  sockets_per_seat: 2,
  public_sockets_per_table: 50,
  client_tables_per_hour: 10,
  client_joins_per_min: 20,
  client_connects_per_min: 30,
  client_pages_per_hour: 60,
  owner_tables_per_hour: 10,
  owner_tables: 20,
  table_ttl_ms: 24 * HOUR,
  closed_table_ttl_ms: HOUR,
};

/** The most `socket_auth_ms` may be (the published promise: at most 30 s). */
export const SOCKET_AUTH_MAX_MS = 30_000;
const SOCKET_AUTH_MIN_MS = 1000;

/** The setting that switches public-demo mode on (`"true"`) or off (`"false"`, or unset). */
export const DEMO_SETTING = "TRESTLE_PUBLIC_DEMO";

/** The setting that overrides limit `name`. */
export function limitSetting(name: OperatorLimitName): string {
  return `TRESTLE_LIMIT_${name.toUpperCase()}`;
}

/** Whether the settings put the relay in public-demo mode; anything but "true", "false" or unset is E_UNAVAILABLE. */
export function isPublicDemo(read: (setting: string) => unknown): boolean {
  return flag(read, DEMO_SETTING);
}

/** A "true"/"false" setting, false when unset; anything else is E_UNAVAILABLE (the operator's mistake, reported loudly). */
export function flag(read: (setting: string) => unknown, setting: string): boolean {
  const raw = read(setting);
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw new TrestleError("E_UNAVAILABLE", `the relay's setting ${setting} must be "true" or "false"`);
}

/**
 * The limits in effect: the demo or normal defaults, each overridden by its setting. A setting
 * that is not a whole number from 0 to 10^12 (or a `socket_auth_ms` outside 1000-30000) makes the
 * relay answer E_UNAVAILABLE rather than run with a limit the operator did not mean.
 */
export function resolveOperatorLimits(read: (setting: string) => unknown): OperatorLimits {
  const base = isPublicDemo(read) ? DEMO_LIMITS : OPERATOR_LIMITS;
  const limits = { ...base };
  for (const name of Object.keys(OPERATOR_LIMITS) as OperatorLimitName[]) {
    const raw = read(limitSetting(name));
    if (raw === undefined) continue;
    const text = typeof raw === "number" ? String(raw) : raw;
    if (typeof text !== "string" || !/^[0-9]{1,13}$/.test(text) || Number(text) > 1e12) {
      throw new TrestleError("E_UNAVAILABLE", `the relay's setting ${limitSetting(name)} must be a whole number from 0 to 10^12`);
    }
    limits[name] = Number(text);
  }
  if (limits.socket_auth_ms < SOCKET_AUTH_MIN_MS || limits.socket_auth_ms > SOCKET_AUTH_MAX_MS) {
    throw new TrestleError("E_UNAVAILABLE", `the relay's setting ${limitSetting("socket_auth_ms")} must be from ${SOCKET_AUTH_MIN_MS} to ${SOCKET_AUTH_MAX_MS}`);
  }
  return limits;
}
