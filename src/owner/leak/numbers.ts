/**
 * Every number a text states, by value (docs/ROOMS.md "never_disclose"): written with digits of any
 * script and any grouping (numerals.ts), in English words (words-en.ts), or in Chinese or Japanese
 * numerals (words-cjk.ts); and whether a never_disclose entry is itself one number.
 */
import { ISO_4217 } from "../../protocol/index.js";
import { decKey } from "./decimal.js";
import { numberText } from "./fold.js";
import { readNumerals } from "./numerals.js";
import type { Reading } from "./reading.js";
import { readCjk } from "./words-cjk.js";
import { readEnglish } from "./words-en.js";

/** Every reading of every number in `folded` (text from numberText), in no particular order. */
export function readNumbers(folded: string): Reading[] {
  return [...readNumerals(folded), ...readEnglish(folded), ...readCjk(folded)];
}

/** How many readings of each value (by decKey) `text` holds. */
export function valueCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of readNumbers(numberText(text))) {
    const key = decKey(r.value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const CODES = new Set<string>(ISO_4217.map((c) => c.toLowerCase()));

/** `folded` without a currency sign or ISO 4217 code before or after it ("nt$2,400", "2400 twd", "$2400", "2400元"). */
function withoutCurrency(folded: string): string {
  let text = folded.trim();
  const sign = /^[a-z]{0,3}\p{Sc}\s?/u.exec(text);
  const code = /^([a-z]{3})\s/.exec(text);
  if (sign) text = text.slice(sign[0].length);
  else if (code && CODES.has(code[1]!)) text = text.slice(code[0].length);
  const after = /\s?(\p{Sc}|元|円|块|[a-z]{3})$/u.exec(text);
  if (after && (!/^[a-z]{3}$/.test(after[1]!) || CODES.has(after[1]!))) text = text.slice(0, after.index);
  return text.trim();
}

/** The values (by decKey) `entry` states when the whole of it is one number, maybe with a currency sign or code; null when it is not a number. */
export function entryValues(entry: string): Set<string> | null {
  const folded = withoutCurrency(numberText(entry));
  const whole = readNumbers(folded).filter((r) => r.start === 0 && r.end === folded.length);
  return folded === "" || whole.length === 0 ? null : new Set(whole.map((r) => decKey(r.value)));
}
