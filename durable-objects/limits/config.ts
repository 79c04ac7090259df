/**
 * The rate each rate-type operator limit stands for: its count per the period its row in the
 * table of limits names (src/protocol/limits/registry.ts). The limits in effect are read from the
 * environment by the settings reader (durable-objects/settings.ts).
 */
import type { OperatorLimitName, OperatorLimits } from "../../src/protocol/limits/operator-limits.js";
import { LIMIT_TABLE } from "../../src/protocol/limits/registry.js";
import type { Rate } from "./gcra.js";

/** The rate limit `name` stands for: its value per the period of its row. */
export function rateOf(limits: OperatorLimits, name: OperatorLimitName): Rate {
  const row = LIMIT_TABLE[name];
  if (!("period_ms" in row)) throw new RangeError(`${name} is not a rate`);
  return { count: limits[name], periodMs: row.period_ms };
}
