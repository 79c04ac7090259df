/**
 * A number read from text by one of the leak gate's parsers (numerals.ts, words-en.ts,
 * words-cjk.ts): its value and the span of the folded text it was read from.
 */
import type { Dec } from "./decimal.js";

/** One reading of a number in folded text: `value`, read from `text.slice(start, end)`. */
export interface Reading {
  value: Dec;
  start: number;
  end: number;
}
