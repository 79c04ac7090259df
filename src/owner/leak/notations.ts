/**
 * Other notations of a number, in a normal form from normal-forms.ts (docs/ROOMS.md "never_disclose", decision 0475):
 *   roman  = a whole word of three or more Roman numeral letters in the usual order (mmcd, MMCD;
 *            the Unicode forms Ⅿ Ⅽ Ⅾ and Ⅻ fold to these), subtractive pairs (cd, xc, iv) or up
 *            to four of a letter (iiii); two letters (cd, mm, cm, xl) are too often something else;
 *            letters with a combining overline (the vinculum, U+0305, or a macron, U+0304) before
 *            the plain ones count a thousand times (I̅I̅CD, V̅ is 5000), at any length; in a
 *            skeleton view, where l reads as i, each i is also read as l (M. C. X. L.);
 *   radix  = 0x960, 0o4540, 0b100101100000, or 960h (three or more hex digits starting with a digit
 *            and an h: 24h is a day), at most 64 bits;
 *   named  = digits (one group, or groups of one length apart by a space or _) within three words
 *            of a base's name, before or after it, in one clause: hexadecimal, hex, octal, binary,
 *            ternary, duodecimal, base N or radix N (N from 2 to 36, in digits or English words):
 *            "960 in hex", "in base 7 it
 *            reads 6666", "binary: 1001 0110 0000";
 *   reversed = digits (written, or said one by one) within a clause of a word that says they are
 *            reversed (backwards, reversed, in reverse, right to left), read the other way round:
 *            "0042 backwards" is 2400;
 *   minor  = a number followed by a minor-unit word (cents, ¢, minor units, centavos, pence,
 *            kopeks, øre, satang, paise, fils, sen, fen, 分) read in the major unit: divided by 100
 *            and by 10 to the digits of the currency the check knows, when it knows one.
 */
import { decInt, decKey, decOf, shift, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";
import { romanValue } from "./roman.js";
import { skeleton } from "./normal-forms.js";
import { readEnglish } from "./words-en.js";

const ROMAN_WORD = /(?<![\p{L}\p{N}])[ivxlcdm]{3,}(?![\p{L}\p{N}])/gu;
const VINCULUM = /(?<![\p{L}\p{N}])((?:[ivxlcdm][\u0304\u0305]|\u012b)+)([ivxlcdm]*)(?![\p{L}\p{N}\p{M}])/gu;
/** Most letters i of a Roman numeral in a skeleton view that are each also read as l (skeletons read l as i). */
const MAX_AMBIGUOUS = 4;

/** The values of a Roman numeral word; in a skeleton (`skeletal`), each i may also be an l (mmcdxi is MMCDXL too). */
function romanValues(word: string, skeletal: boolean): number[] {
  const at = skeletal ? [...word.matchAll(/i/g)].map((m) => m.index) : [];
  if (at.length > MAX_AMBIGUOUS) return [romanValue(word)].filter((v): v is number => v !== null);
  const out = new Set<number>();
  for (let mask = 0; mask < 1 << at.length; mask++) {
    const letters = [...word];
    at.forEach((i, k) => {
      if (mask & (1 << k)) letters[i] = "l";
    });
    const value = romanValue(letters.join(""));
    if (value !== null) out.add(value);
  }
  return [...out];
}
const RADIX =
  /(?<![\p{L}\p{N}])(?:0x([0-9a-f]{1,16})|0o([0-7]{1,22})|0b([01]{1,64})|([0-9][0-9a-f]{2,15})h)(?![\p{L}\p{N}])/gu;
const BASE_NAMES: Record<string, number> = {
  hexadecimal: 16,
  hex: 16,
  octal: 8,
  binary: 2,
  ternary: 3,
  duodecimal: 12,
};
const BASE_NAME =
  /(?<![\p{L}\p{N}])(?:(hexadecimal|hex|octal|binary|ternary|duodecimal)|(?:base|radix)[ -]?(?:([0-9]{1,2})|([a-z]+(?:-[a-z]+)?)))(?![\p{L}\p{N}])/gu;
/** Digits in some base: groups of letters and digits with a digit in each, apart by a space or _. */
const BASE_DIGITS = /(?<![\p{L}\p{N}])[0-9a-z]*[0-9][0-9a-z]*(?:[ _][0-9a-z]*[0-9][0-9a-z]*)*(?![\p{L}\p{N}])/gu;
/** What may stand between a base's name and its digits: up to three words and punctuation that does not end a clause. */
const BASE_GAP = /^[\s,:()"'=\u2019-]*(?:\p{L}+[\s,:()"'=\u2019-]+){0,3}$/u;
const MAX_BASE_GAP = 32;
const MAX_BASE_DIGITS = 64;

/** `digits` (groups apart by a space or _) in base `base`: each group alone and, when every group after the first has the first's length or more and all have one length, the groups together. */
function inBase(digits: string, base: number): bigint[] {
  const groups = digits.split(/[ _]/);
  const valid = (g: string) => g.length <= MAX_BASE_DIGITS && [...g].every((ch) => parseInt(ch, 36) < base);
  const value = (g: string) => [...g].reduce((n, ch) => n * BigInt(base) + BigInt(parseInt(ch, 36)), 0n);
  const out = new Set<bigint>();
  const uniform =
    groups.slice(1).every((g) => g.length === groups[1]!.length) && groups[0]!.length <= groups.at(-1)!.length;
  if (groups.length > 1 && uniform && valid(groups.join(""))) out.add(value(groups.join("")));
  for (const g of groups) if (valid(g)) out.add(value(g));
  return [...out];
}

/** A base said in English words (sixteen, thirty-six), or null. */
function spelledBase(words: string): number | null {
  const whole = readEnglish(words).find((r) => r.start === 0 && r.end === words.length && r.value.s === 0);
  return whole ? Number(whole.value.n) : null;
}

/** How far around a base's name its digits are looked for (a 64-digit binary number in groups fits). */
const BASE_REACH = 160;

/** Numbers whose base is named in words next to them ("960 in hex", "in base 7 it reads 6666"). */
function readNamedBases(view: string): Reading[] {
  const out: Reading[] = [];
  for (const name of view.matchAll(BASE_NAME)) {
    const base =
      name[1] !== undefined ? BASE_NAMES[name[1]]! : name[2] !== undefined ? Number(name[2]) : spelledBase(name[3]!);
    if (base === null || base < 2 || base > 36) continue;
    const end = name.index + name[0].length;
    // Only the text around this name is searched for digits, with every name in it blanked out, so "base 2 1001" is the name and 1001, never the digits "2 1001".
    const from = Math.max(0, name.index - BASE_REACH);
    const near = view
      .slice(from, Math.min(view.length, end + BASE_REACH))
      .replace(BASE_NAME, (n) => " ".repeat(n.length));
    for (const token of near.matchAll(BASE_DIGITS)) {
      const [at, after] = [from + token.index, from + token.index + token[0].length];
      const [gapFrom, gapTo] = at < name.index ? [after, name.index] : [end, at];
      if (gapTo < gapFrom || gapTo - gapFrom > MAX_BASE_GAP || !BASE_GAP.test(view.slice(gapFrom, gapTo))) continue;
      for (const value of inBase(token[0], base))
        out.push({ value: decInt(value), start: Math.min(at, name.index), end: Math.max(after, end) });
    }
  }
  return out;
}

/** Roman numerals (also with a vinculum), numbers in base 16, 8 or 2 and numbers in a base named in words, in `view`; `skeletal`: the view is a skeleton (normal-forms.ts), where l reads as i. */
export function readNotations(view: string, skeletal = false): Reading[] {
  const out: Reading[] = [];
  for (const m of view.matchAll(ROMAN_WORD)) {
    for (const value of romanValues(m[0], skeletal))
      out.push({ value: decInt(value), start: m.index, end: m.index + m[0].length });
  }
  for (const m of view.matchAll(VINCULUM)) {
    const high = romanValue(m[1]!.replace(/\u012b/gu, "i").replace(/\p{M}/gu, ""));
    const low = m[2] === "" ? 0 : romanValue(m[2]!);
    if (high !== null && low !== null)
      out.push({ value: decInt(high * 1000 + low), start: m.index, end: m.index + m[0].length });
  }
  for (const m of view.matchAll(RADIX)) {
    const [, hex, oct, bin, suffixed] = m;
    const digits = hex ?? suffixed;
    const value =
      digits !== undefined ? BigInt(`0x${digits}`) : oct !== undefined ? BigInt(`0o${oct}`) : BigInt(`0b${bin}`);
    out.push({ value: decInt(value), start: m.index, end: m.index + m[0].length });
  }
  return [...out, ...readNamedBases(view)];
}

const MINOR =
  /^\s?(?:cents?|¢|minor units?|centavos?|c[eé]ntimos?|centimes?|centesimi|pence|pennies|kopecks?|kopeks?|копе[йе]к[аи]?|[øö]re|satang|paise|fils|sen|fen|分)(?![\p{L}\p{N}])/u;

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

const REVERSAL = new RegExp(
  `(?<![\\p{L}])(?:${[...new Set(["backwards", "backward", "reversed", "in reverse", "reverse order", "right to left"].flatMap((w) => [w, skeleton(w)]))].map((w) => w.replace(/ /g, "\\s+")).join("|")})(?![\\p{L}])`,
  "gu",
);
/** What may stand between digits and the word that reverses them: no other digit, no end of a clause, at most MAX_REVERSAL_GAP characters. */
const REVERSAL_GAP = /^[^\p{N}.!?;\n]*$/u;
const MAX_REVERSAL_GAP = 24;

/** Each reading in `view` whose digits were written or said one by one, read the other way round when a word next to it says it is reversed ("0042 backwards"). */
export function readReversals(view: string, readings: readonly Reading[]): Reading[] {
  const words = [...view.matchAll(REVERSAL)];
  if (words.length === 0) return [];
  const out: Reading[] = [];
  for (const r of readings) {
    const written = view.slice(r.start, r.end);
    const digits = r.digits ?? (/^[0-9]+$/.test(written) ? written : null);
    if (digits === null || digits.length < 2) continue;
    // The reversal words are in text order: only the last one before the reading and the first one after it can be near.
    let [after, hi] = [0, words.length];
    while (after < hi) {
      const mid = (after + hi) >> 1;
      if (words[mid]!.index < r.end) after = mid + 1;
      else hi = mid;
    }
    const near = [words[after - 1], words[after]].some((w) => {
      if (w === undefined) return false;
      const [from, to] = w.index >= r.end ? [r.end, w.index] : [w.index + w[0].length, r.start];
      return to >= from && to - from <= MAX_REVERSAL_GAP && REVERSAL_GAP.test(view.slice(from, to));
    });
    const reversed = [...digits].reverse().join("");
    const value = near ? decOf(reversed) : null;
    if (value) out.push({ value, start: r.start, end: r.end, digits: reversed });
  }
  return out;
}
