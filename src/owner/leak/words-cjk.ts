/**
 * Chinese and Japanese numerals, in text folded by numberText (fold.ts), read by a small grammar
 * over runs of numeral characters (ASCII digits may stand for a digit, as in 2千4百):
 *   number  = section { big [section] }        big: 万/萬 10^4, 亿/億 10^8, 兆 10^12, falling
 *   section = { [digit] unit } [digit]         unit: 十/拾 10, 百/佰 100, 千/仟 1000, falling;
 *                                              零/〇 marks a skipped place
 *           | digit digit {digit}              read place by place (二四〇〇, 二〇二四)
 *   digit   = 〇零 一壹壱 二貳贰弐两兩 三叁參参 四肆 五伍 六陸陆 七柒 八捌 九玖 (financial forms too),
 *             or ASCII digits with an optional fraction ("2.4千"), or digit 点/點 digits
 * A single digit right after a unit with no 零 between is the next place down, as people say it:
 * 两千四 is 2400, 三百五 is 350, 两万四 is 24000. So 二千四百, 兩千四, 贰仟肆佰, 2千4百 all read 2400.
 */
import { decInt, decOf, plus, shift, tooLong, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";

const DIGITS: Record<string, number> = {};
for (const [value, chars] of ["〇零○", "一壹壱弌", "二貳贰弐弍两兩", "三叁參参弎", "四肆", "五伍", "六陸陆", "七柒", "八捌", "九玖"].entries()) {
  for (const ch of chars) DIGITS[ch] = value;
}
const UNITS: Record<string, number> = { 十: 1, 拾: 1, 什: 1, 百: 2, 佰: 2, 千: 3, 仟: 3, 阡: 3 };
const BIG: Record<string, number> = { 万: 4, 萬: 4, 亿: 8, 億: 8, 兆: 12 };
const POINT = new Set(["点", "點"]);
const RUN = /[0-9.〇零○一壹壱弌二貳贰弐弍两兩三叁參参弎四肆五伍六陸陆七柒八捌九玖十拾什百佰千仟阡万萬亿億兆点點]+/gu;
const ZERO = new Set(["〇", "零", "○"]);
const ASCII = /[0-9]+(?:\.[0-9]+)?/y;

/** A digit at `i` of `s`: one numeral character, ASCII digits (with a fraction), either with 点 and fraction digits; its value and the next index. */
function digitAt(s: string, i: number): { value: Dec; next: number; single: boolean } | null {
  ASCII.lastIndex = i;
  const ascii = ASCII.exec(s);
  let whole: string;
  let next: number;
  if (ascii) {
    [whole] = ascii[0].split(".") as [string];
    next = i + whole.length;
  } else if (DIGITS[s[i]!] !== undefined) {
    whole = String(DIGITS[s[i]!]);
    next = i + 1;
  } else return null;
  let frac = "";
  if ((s[next] === "." || POINT.has(s[next]!)) && next + 1 < s.length) {
    let j = next + 1;
    for (; j < s.length && (/[0-9]/.test(s[j]!) || DIGITS[s[j]!] !== undefined); j++) frac += /[0-9]/.test(s[j]!) ? s[j] : String(DIGITS[s[j]!]);
    if (frac !== "") next = j;
  }
  const value = decOf(whole, frac);
  return value ? { value, next, single: frac === "" && whole.length === 1 } : null;
}

/** A section (below 10^4) at `i`; its value (null when empty) and the next index. */
function section(s: string, i: number): { value: Dec | null; next: number } {
  let value: Dec | null = null;
  let pending: { value: Dec; single: boolean } | null = null;
  let ceiling = 4;
  let skipped = false;
  let j = i;
  for (;;) {
    const ch = s[j];
    if (ch === undefined) break;
    const unit = UNITS[ch];
    if (unit !== undefined) {
      if (unit >= ceiling) break;
      value = plus(value ?? decInt(0), shift(pending?.value ?? decInt(1), unit));
      ceiling = unit;
      pending = null;
      j += 1;
      continue;
    }
    if (ZERO.has(ch) && ceiling < 4 && pending === null) {
      skipped = true;
      j += 1;
      continue;
    }
    const digit = digitAt(s, j);
    if (!digit || BIG[ch] !== undefined) break;
    if (pending) {
      if (!pending.single || !digit.single || ceiling < 4) break;
      const run = decOf(pending.value.n.toString() + digit.value.n.toString());
      if (!run) break;
      pending = { value: run, single: true };
      j = digit.next;
      continue;
    }
    pending = { value: digit.value, single: digit.single };
    j = digit.next;
  }
  if (pending) {
    const lower = ceiling < 4 && ceiling >= 2 && !skipped && pending.single && pending.value.n < 10n ? ceiling - 1 : 0;
    value = plus(value ?? decInt(0), shift(pending.value, lower));
  }
  return { value, next: j };
}

/** The number at `i`: sections joined by falling big units; its value (null when none) and the next index. */
function numberAt(s: string, i: number): { value: Dec | null; next: number } {
  let total: Dec | null = null;
  let ceiling = Infinity;
  let j = i;
  for (;;) {
    const sec = section(s, j);
    const big = BIG[s[sec.next] ?? ""];
    if (big === undefined || big >= ceiling || (sec.value === null && total !== null)) {
      if (sec.value) total = plus(total ?? decInt(0), sec.value);
      return { value: total, next: sec.next };
    }
    total = plus(total ?? decInt(0), shift(sec.value ?? decInt(1), big));
    ceiling = big;
    j = sec.next + 1;
    const tail = DIGITS[s[j] ?? ""];
    if (tail !== undefined && (j + 1 >= s.length || (UNITS[s[j + 1]!] === undefined && BIG[s[j + 1]!] === undefined && DIGITS[s[j + 1]!] === undefined))) {
      return { value: plus(total, shift(decInt(tail), big - 1)), next: j + 1 };
    }
  }
}

/** Every number written with Chinese or Japanese numerals (pure ASCII runs are numerals.ts's) in `text` (folded by numberText). */
export function readCjk(text: string): Reading[] {
  const out: Reading[] = [];
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    if (!/[^0-9.]/.test(run)) continue;
    let i = 0;
    while (i < run.length) {
      const { value, next } = numberAt(run, i);
      if (next === i) {
        i += 1;
        continue;
      }
      if (value && !tooLong(value) && /[^0-9.]/.test(run.slice(i, next))) out.push({ value, start: m.index + i, end: m.index + next });
      i = next;
    }
  }
  return out;
}
