/**
 * The limits a relay's operator sets (docs/SPEC.md §10.1): rates, socket caps, owner quotas and
 * table lifetimes. Each is a row of registry.ts with a default, a public-demo default, and a
 * setting the operator may override (`TRESTLE_LIMIT_<NAME>` in wrangler.toml `[vars]`, a whole
 * number); the relay publishes
 * the values in effect at /.well-known/trestle.json beside LIMITS. A rate is a bucket of N tokens
 * that refills at N per period; 0 turns a rate, cap, quota or lifetime off. Pure: the caller
 * passes a reader of the settings.
 */
import { TrestleError } from "../errors.js";
import { LIMIT_TABLE, limitsOf, type LimitNameOf } from "./registry.js";

/** The name of an operator limit. */
export type OperatorLimitName = LimitNameOf<"operator">;

/** The operator limits in effect. */
export type OperatorLimits = Record<OperatorLimitName, number>;

/** The defaults of a relay that is not a public demo (registry.ts `default`). */
export const OPERATOR_LIMITS: Readonly<OperatorLimits> = limitsOf("operator", (row) => row.default);

/** A public demo's defaults: short lifetimes, tight caps and creation limits (registry.ts `demo`; docs/SELF-HOST.md). */
export const DEMO_LIMITS: OperatorLimits = limitsOf("operator", (row) => row.demo);

/** The most `socket_auth_ms` may be (the published promise: at most 30 s). */
export const SOCKET_AUTH_MAX_MS = LIMIT_TABLE.socket_auth_ms.max;
const SOCKET_AUTH_MIN_MS = LIMIT_TABLE.socket_auth_ms.min;

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
      throw new TrestleError(
        "E_UNAVAILABLE",
        `the relay's setting ${limitSetting(name)} must be a whole number from 0 to 10^12`,
      );
    }
    limits[name] = Number(text);
  }
  if (limits.socket_auth_ms < SOCKET_AUTH_MIN_MS || limits.socket_auth_ms > SOCKET_AUTH_MAX_MS) {
    throw new TrestleError(
      "E_UNAVAILABLE",
      `the relay's setting ${limitSetting("socket_auth_ms")} must be from ${SOCKET_AUTH_MIN_MS} to ${SOCKET_AUTH_MAX_MS}`,
    );
  }
  return limits;
}
