/**
 * The rate each `*_per_s`, `*_per_min` and `*_per_hour` operator limit stands for. The limits in
 * effect are read from the environment by the settings reader (durable-objects/settings.ts).
 */
import type { OperatorLimitName, OperatorLimits } from "../../src/protocol/limits/operator-limits.js";
import type { Rate } from "./gcra.js";

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
