/**
 * Other notations of a number, in a view from views.ts (docs/ROOMS.md "never_disclose"):
 *   roman  = a whole word of three or more Roman numeral letters in the usual order (mmcd, MMCD;
 *            the Unicode forms Ⅿ Ⅽ Ⅾ and Ⅻ fold to these), subtractive pairs (cd, xc, iv) or up
 *            to four of a letter (iiii); two letters (cd, mm, cm, xl) are too often something else;
 *   radix  = 0x960, 0o4540, 0b100101100000, or 960h (three or more hex digits starting with a digit
 *            and an h: 24h is a day), at most 64 bits;
 *   minor  = a number followed by a minor-unit word (cents, ¢, minor units, centavos, pence,
 *            kopeks, øre, satang, paise, fils, sen, fen, 分) read in the major unit: divided by 100
 *            and by 10 to the digits of the currency the check knows, when it knows one.
 */
import { decInt, decKey, shift, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };
const SUBTRACTIVE = new Set(["iv", "ix", "xl", "xc", "cd", "cm"]);
const MAX_REPEAT = 4;

/** The value of a Roman numeral in the usual order (letters falling, a subtractive pair at most once per place), or null. */
function romanValue(word: string): number | null {
  let total = 0;
  let last = Infinity;
  let repeat = 0;
  for (let i = 0; i < word.length; ) {
    const pair = word.slice(i, i + 2);
    if (SUBTRACTIVE.has(pair)) {
      const value = ROMAN[pair[1]!]! - ROMAN[pair[0]!]!;
      if (value >= last) return null;
      total += value;
      last = ROMAN[pair[0]!]!;
      repeat = 0;
      i += 2;
      continue;
    }
    const value = ROMAN[word[i]!]!;
    if (value > last) return null;
    repeat = value === last ? repeat + 1 : 1;
    const fives = value === 5 || value === 50 || value === 500;
    if (repeat > (fives ? 1 : MAX_REPEAT) && value !== 1000) return null;
    total += value;
    last = value;
    i += 1;
  }
  return total;
}

const ROMAN_WORD = /(?<![\p{L}\p{N}])[ivxlcdm]{3,}(?![\p{L}\p{N}])/gu;
const RADIX = /(?<![\p{L}\p{N}])(?:0x([0-9a-f]{1,16})|0o([0-7]{1,22})|0b([01]{1,64})|([0-9][0-9a-f]{2,15})h)(?![\p{L}\p{N}])/gu;

/** Roman numerals and numbers in base 16, 8 or 2 in `view`. */
export function readNotations(view: string): Reading[] {
  const out: Reading[] = [];
  for (const m of view.matchAll(ROMAN_WORD)) {
    const value = romanValue(m[0]);
    if (value !== null) out.push({ value: decInt(value), start: m.index, end: m.index + m[0].length });
  }
  for (const m of view.matchAll(RADIX)) {
    const [, hex, oct, bin, suffixed] = m;
    const digits = hex ?? suffixed;
    const value = digits !== undefined ? BigInt(`0x${digits}`) : oct !== undefined ? BigInt(`0o${oct}`) : BigInt(`0b${bin}`);
    out.push({ value: decInt(value), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const MINOR = /^\s?(?:cents?|¢|minor units?|centavos?|c[eé]ntimos?|centimes?|centesimi|pence|pennies|kopecks?|kopeks?|копе[йе]к[аи]?|[øö]re|satang|paise|fils|sen|fen|分)(?![\p{L}\p{N}])/u;

/** Each reading in `view` followed by a minor-unit word, read in major units: divided by 100 and by 10^digits for each of `digits`. */
export function readMinorUnits(view: string, readings: readonly Reading[], digits: readonly number[]): Reading[] {
  const out: Reading[] = [];
  const powers = [...new Set([2, ...digits])].filter((d) => d > 0);
  for (const r of readings) {
    const m = MINOR.exec(view.slice(r.end, r.end + 16));
    if (!m) continue;
    const seen = new Set<string>();
    for (const d of powers) {
      const value: Dec = shift(r.value, -d);
      if (seen.has(decKey(value))) continue;
      seen.add(decKey(value));
      out.push({ value, start: r.start, end: r.end + m[0].length });
    }
  }
  return out;
}
