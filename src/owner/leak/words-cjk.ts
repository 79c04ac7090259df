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
 * Katakana that look like numerals (ニ, ハ, ー) read as 二, 八, 一 in a run with a unit (ニ千四百).
 *
 * Japanese numbers written in kana (にせんよんひゃく, ニセンヨンヒャク) are read by the same grammar
 * once each reading is put back as its numeral: the on and kun readings of the digits and units
 * (いち, に, さん, よん, ご, ろく, なな/しち, はち, きゅう, ぜろ/れい; じゅう, ひゃく, せん, まん,
 * おく, ちょう) with their sound changes before a unit (いっ, ろっ, はっ, じゅっ; びゃく, ぴゃく,
 * ぜん), katakana and a long-vowel mark (キュー) read as hiragana, spaces between readings
 * dropped; し and く are left out (a word
 * of their own too often). A kana number is two readings or more with a unit among them, or three
 * digits or more; no npm package or CLDR rule set gives these readings (decision 0474).
 */
import { decInt, decOf, plus, shift, tooLong, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";

const DIGITS: Record<string, number> = {};
for (const [value, chars] of [
  "〇零○",
  "一壹壱弌",
  "二貳贰弐弍两兩",
  "三叁參参弎",
  "四肆",
  "五伍",
  "六陸陆",
  "七柒",
  "八捌",
  "九玖",
].entries()) {
  for (const ch of chars) DIGITS[ch] = value;
}
const UNITS: Record<string, number> = { 十: 1, 拾: 1, 什: 1, 百: 2, 佰: 2, 千: 3, 仟: 3, 阡: 3 };
const BIG: Record<string, number> = { 万: 4, 萬: 4, 亿: 8, 億: 8, 兆: 12 };
const POINT = new Set(["点", "點"]);
const RUN =
  /[0-9.〇零○一壹壱弌二貳贰弐弍两兩三叁參参弎四肆五伍六陸陆七柒八捌九玖十拾什百佰千仟阡万萬亿億兆点點ニハー]+/gu;
/** Katakana that look like numerals (ニ and 二, ハ and 八, the long-vowel mark ー and 一), read as those in a run with a unit in it (ニ千四百), else not at all (ハート). */
const LOOKALIKE: Record<string, string> = { ニ: "二", ハ: "八", ー: "一" };
const HAS_UNIT = /[十拾什百佰千仟阡万萬亿億兆]/u;
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
    for (; j < s.length && (/[0-9]/.test(s[j]!) || DIGITS[s[j]!] !== undefined); j++)
      frac += /[0-9]/.test(s[j]!) ? s[j] : String(DIGITS[s[j]!]);
    if (frac !== "") next = j;
  }
  const value = decOf(whole, frac);
  return value ? { value, next, single: frac === "" && whole.length === 1 } : null;
}

/** A section (below 10^4) at `i`; its value (null when empty) and the next index; `colloquial`: a digit right after a unit is the next place down (三百五 is 350), as in Chinese, not in Japanese. */
function section(s: string, i: number, colloquial: boolean): { value: Dec | null; next: number } {
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
    const lower =
      colloquial && ceiling < 4 && ceiling >= 2 && !skipped && pending.single && pending.value.n < 10n
        ? ceiling - 1
        : 0;
    value = plus(value ?? decInt(0), shift(pending.value, lower));
  }
  return { value, next: j };
}

/** The number at `i`: sections joined by falling big units; its value (null when none) and the next index (`colloquial` as for section). */
function numberAt(s: string, i: number, colloquial = true): { value: Dec | null; next: number } {
  let total: Dec | null = null;
  let ceiling = Infinity;
  let j = i;
  for (;;) {
    const sec = section(s, j, colloquial);
    const big = BIG[s[sec.next] ?? ""];
    if (big === undefined || big >= ceiling || (sec.value === null && total !== null)) {
      if (sec.value) total = plus(total ?? decInt(0), sec.value);
      return { value: total, next: sec.next };
    }
    total = plus(total ?? decInt(0), shift(sec.value ?? decInt(1), big));
    ceiling = big;
    j = sec.next + 1;
    const tail = DIGITS[s[j] ?? ""];
    if (
      colloquial &&
      tail !== undefined &&
      (j + 1 >= s.length ||
        (UNITS[s[j + 1]!] === undefined && BIG[s[j + 1]!] === undefined && DIGITS[s[j + 1]!] === undefined))
    ) {
      return { value: plus(total, shift(decInt(tail), big - 1)), next: j + 1 };
    }
  }
}

/** Every number written with Chinese or Japanese numerals (pure ASCII runs are numerals.ts's) in `text` (folded by numberText). */
export function readCjk(text: string): Reading[] {
  const out: Reading[] = [];
  for (const m of text.matchAll(RUN)) {
    const unit = HAS_UNIT.test(m[0]);
    const run = m[0].replace(/[ニハー]/gu, (ch) => (unit ? LOOKALIKE[ch]! : "|"));
    if (!/[^0-9.|]/.test(run)) continue;
    let i = 0;
    while (i < run.length) {
      const { value, next } = numberAt(run, i);
      if (next === i) {
        i += 1;
        continue;
      }
      if (value && !tooLong(value) && /[^0-9.|]/.test(run.slice(i, next)))
        out.push({ value, start: m.index + i, end: m.index + next });
      i = next;
    }
  }
  return out;
}

/** The kana readings of the numerals, with their sound changes before a unit, to the numeral each stands for. */
const KANA: Record<string, string> = {
  ぜろ: "〇",
  れい: "〇",
  いち: "一",
  いっ: "一",
  に: "二",
  さん: "三",
  よん: "四",
  ご: "五",
  ろく: "六",
  ろっ: "六",
  なな: "七",
  しち: "七",
  はち: "八",
  はっ: "八",
  きゅう: "九",
  じゅう: "十",
  じゅっ: "十",
  じっ: "十",
  ひゃく: "百",
  びゃく: "百",
  ぴゃく: "百",
  せん: "千",
  ぜん: "千",
  まん: "万",
  おく: "億",
  ちょう: "兆",
};
const KANA_LONGEST = Math.max(...Object.keys(KANA).map((k) => k.length));
const KANA_RUN = /[\u3041-\u3096\u30a1-\u30fa\u30fc]+(?: [\u3041-\u3096\u30a1-\u30fa\u30fc]+)*/gu;

/** A run of kana as hiragana: katakana shifted to hiragana, a long-vowel mark as う (キュー is きゅう). */
function hiragana(run: string): string {
  return run
    .replace(/[\u30a1-\u30f6]/gu, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60))
    .replace(/\u30fc/gu, "う");
}

/** Every number written in kana in `text` (folded by numberText): each run cut into readings, longest first, and read as the numerals they stand for. */
export function readKana(text: string): Reading[] {
  const out: Reading[] = [];
  for (const m of text.matchAll(KANA_RUN)) {
    // Spaces between the readings are dropped (にせん よんひゃく); `origin` keeps where each kana was.
    const origin = [...m[0].matchAll(/[^ ]/gu)].map((c) => c.index);
    origin.push(m[0].length);
    const run = hiragana(m[0].replace(/ /g, ""));
    let at = 0;
    while (at < run.length) {
      let numerals = "";
      const starts: number[] = [];
      let j = at;
      for (;;) {
        let length = Math.min(KANA_LONGEST, run.length - j);
        while (length > 0 && KANA[run.slice(j, j + length)] === undefined) length--;
        if (length === 0) break;
        starts.push(j);
        numerals += KANA[run.slice(j, j + length)]!;
        j += length;
      }
      if (numerals === "") {
        at++;
        continue;
      }
      starts.push(j);
      for (let i = 0; i < numerals.length;) {
        const { value, next } = numberAt(numerals, i, false);
        if (next === i) break;
        const part = numerals.slice(i, next);
        const units = [...part].filter((ch) => UNITS[ch] !== undefined || BIG[ch] !== undefined).length;
        if (value && !tooLong(value) && (part.length >= 3 || (part.length === 2 && units > 0)))
          out.push({ value, start: m.index + origin[starts[i]!]!, end: m.index + origin[starts[next]!]! });
        i = next;
      }
      at = j;
    }
  }
  return out;
}
