/**
 * The operator limits in effect for an environment (src/protocol/operator-limits.ts): read once
 * per environment object from its `TRESTLE_LIMIT_*` and `TRESTLE_PUBLIC_DEMO` settings, and the
 * rate each `*_per_s`, `*_per_min` and `*_per_hour` limit stands for.
 */
import { flag, isPublicDemo, resolveOperatorLimits, type OperatorLimitName, type OperatorLimits } from "../../src/protocol/operator-limits.js";
import type { Rate } from "./gcra.js";

const cache = new WeakMap<object, OperatorLimits>();

/** One setting of `env` (a wrangler.toml var or secret), as given. */
export function settingOf(env: object, name: string): unknown {
  return Reflect.get(env, name) as unknown;
}

/** The limits in effect for `env`; a malformed setting throws E_UNAVAILABLE on every call. */
export function limitsOf(env: object): OperatorLimits {
  let limits = cache.get(env);
  if (!limits) {
    limits = resolveOperatorLimits((name) => settingOf(env, name));
    cache.set(env, limits);
  }
  return limits;
}

/** Whether `env` runs a public demo (`TRESTLE_PUBLIC_DEMO = "true"`). */
export function publicDemo(env: object): boolean {
  return isPublicDemo((name) => settingOf(env, name));
}

/** Whether chat apps may be used: always on a normal relay; on a public demo only with `TRESTLE_DEMO_CHAT_APPS = "true"`. */
export function chatAppsAllowed(env: object): boolean {
  return !publicDemo(env) || flag((name) => settingOf(env, name), "TRESTLE_DEMO_CHAT_APPS");
}

/** Whether tables may be mirrored or moved here: always on a normal relay; on a public demo only with `TRESTLE_DEMO_MIRRORS = "true"`. */
export function mirrorsAllowed(env: object): boolean {
  return !publicDemo(env) || flag((name) => settingOf(env, name), "TRESTLE_DEMO_MIRRORS");
}

const PERIODS: readonly [suffix: string, ms: number][] = [
  ["_per_s", 1000],
  ["_per_min", 60_000],
  ["_per_hour", 3_600_000],
];

/** The rate limit `name` stands for: its value per the period its name ends with. */
export function rateOf(limits: OperatorLimits, name: OperatorLimitName): Rate {
  const period = PERIODS.find(([suffix]) => name.endsWith(suffix));
  if (!period) throw new RangeError(`${name} is not a rate`);
  return { count: limits[name], periodMs: period[1] };
}
