/**
 * A number read from text by one of the leak gate's parsers (numerals.ts, words-en.ts,
 * words-cjk.ts...): its value, the span of the folded text it was read from, and its digits when
 * they were written or said one by one (a split or a reversal reads those, not the value).
 */
import type { Dec } from "./decimal.js";

/** One reading of a number in folded text: `value`, read from `text.slice(start, end)`; `digits`, the digits as written or said one by one (0042, two four zero zero, two zeros), when it was. */
export interface Reading {
  value: Dec;
  start: number;
  end: number;
  digits?: string;
}
