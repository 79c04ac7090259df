/**
 * English number words, in text folded by numberText (fold.ts), read by a small grammar (not a
 * list of phrases):
 *   number   = digits | scaled
 *   digits   = item { [connector] item }, read digit by digit, with two digit words or more, a
 *              digit word among three items or more, or a counted group ("two four zero zero",
 *              "two four oh oh", "24 zero zero", "24 followed by two zeros", "two four, double zero")
 *   item     = unit word | numeral (its digits as written) | counted | a whole number in words,
 *              first and before a counted group ("twenty-four and two zeros")
 *   counted  = count plural | ("double" | "triple" | "quadruple") unit | "a pair of" plural
 *              count: a unit word or numeral 2-9; plural: a unit word's plural (zeros, nines,
 *              sixes) or a digit with an s (0s, 9s)
 *   connector = "," | "and" | "then" | "and then" | "followed by" | "with" | "plus", before a counted group
 *   scaled   = part { scale [","] ["and"] part } [fraction after the last scale]  with scales
 *              strictly falling, each part below the scale before it (two thousand, four hundred;
 *              one million two hundred thousand; a million and a half)
 *   part     = small "hundred" [["and"] below100] [fraction] | small
 *   small    = (below100 | numeral) [fraction] | "a" | "an" | roman     (numeral: 24, 2.4, 2,400 written
 *              with digits; roman: a Roman numeral of two letters or more, before a scale: XXIV hundred)
 *   fraction = "and" ("a" | "one") ("half" | "quarter") | "and three quarters"
 *   below100 = tens unit | tens | teen | unit      (words apart by spaces or hyphens; the unit may be
 *              a digit after a hyphen or before a scale: twenty-4, twenty 4 hundred)
 *   decimal  = below100 ("point" | "dot") unit-word {unit-word}, before a scale (two point four thousand)
 * so "twenty-four hundred", "twenty-4 hundred", "24 hundred", "2.4 thousand", "two and a half
 * thousand" (2500), "two grand" and "2 thousand 4 hundred" all read what they say. Scales: hundred,
 * thousand (and "grand", "k" after a number), lakh, million, crore, billion, trillion. Words are
 * compared by skeleton (normal-forms.ts), so look-alike letters read too.
 */
import { decInt, decOf, less, plus, shift, times, tooLong, type Dec } from "./decimal.js";
import { romanValue } from "./roman.js";
import type { Reading } from "./reading.js";
import { skeleton, skeletonOf } from "./normal-forms.js";

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TEENS = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** Powers of ten of the scale words at or above a thousand. */
const SCALES: Record<string, number> = {
  thousand: 3,
  grand: 3,
  k: 3,
  lakh: 5,
  lakhs: 5,
  million: 6,
  crore: 7,
  billion: 9,
  trillion: 12,
};
const MAX_DIGIT_WORDS = 64;
const DIGIT_WORD: Record<string, number> = {
  ...Object.fromEntries(UNITS.map((w, i) => [w, i])),
  oh: 0,
  nought: 0,
  naught: 0,
};
/** The plural of each digit word, by the English rule (sixes, zeros; zeroes too), to the digit it counts. */
const PLURAL: Record<string, number> = Object.fromEntries(
  Object.entries(DIGIT_WORD).flatMap(([w, d]) => [
    [/(x|s|ch|sh)$/.test(w) ? `${w}es` : `${w}s`, d] as const,
    ...(w.endsWith("o") ? [[`${w}es`, d] as const] : []),
  ]),
);
/** The words that repeat the digit after them: double zero, triple seven. */
const REPEAT: Record<string, number> = { double: 2, triple: 3, quadruple: 4 };
/** The fractions that follow "and" (two and a half), in hundredths. */
const FRACTIONS: [words: string[], hundredths: number][] = [
  [["a", "half"], 50],
  [["one", "half"], 50],
  [["a", "quarter"], 25],
  [["one", "quarter"], 25],
  [["three", "quarters"], 75],
];
/** The words that may join a counted group to the digits before it, longest first. */
const CONNECTORS: string[][] = [["followed", "by"], ["and", "then"], ["then"], ["and"], ["with"], ["plus"]];

type Token =
  | { kind: "word"; word: string; start: number; end: number }
  | { kind: "num"; value: Dec; digits: string | null; start: number; end: number }
  | { kind: "mark"; mark: string; start: number; end: number };

const VOCAB = [
  ...UNITS,
  ...TEENS,
  ...TENS.filter((w) => w !== ""),
  "hundred",
  "and",
  "point",
  ...Object.keys(SCALES).filter((w) => w.length > 1),
];
/** The English number words (zero to ninety, hundred and the scales): what a ROT13 of number words is looked for by (decode.ts). */
export const NUMBER_WORDS: readonly string[] = VOCAB.filter((w) => w !== "and" && w !== "point");
/** Every word the grammar compares, by its skeleton (normal-forms.ts): a look-alike spelling (tweive, fоur with a Cyrillic о) is the word. */
const BY_SKELETON = new Map(
  [
    ...VOCAB,
    ...Object.keys(DIGIT_WORD),
    ...Object.keys(PLURAL),
    ...Object.keys(REPEAT),
    ...FRACTIONS.flatMap(([w]) => w),
    ...CONNECTORS.flat(),
    "s",
    "pair",
    "couple",
    "of",
    "a",
    "an",
    "dot",
    "k",
  ].map((w) => [skeleton(w), w]),
);
const GLUED = [...VOCAB].sort((a, b) => b.length - a.length).map((w) => [skeleton(w), w] as const);

/** `word` as the grammar's word it spells (by skeleton), or itself. */
function canonical(word: string): string {
  return BY_SKELETON.get([...word].map(skeletonOf).join("")) ?? word;
}

/** `word` cut into number words when it is nothing else ("twentyfourhundred"), longest word first; null otherwise. */
function segments(word: string): string[] | null {
  const bare = [...word].map(skeletonOf).join("");
  const out: string[] = [];
  let at = 0;
  while (at < bare.length) {
    const next = GLUED.find(([sk]) => bare.startsWith(sk, at));
    if (next === undefined) return null;
    out.push(next[1]);
    at += next[0].length;
  }
  return out;
}

const TOKEN = /(\p{L}+)|([0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)|(,)|([\s-]+)|./gsu;
/** A single digit's value, for a numeral token that is one. */
const singleDigit = (token: Token | undefined): number | null =>
  token?.kind === "num" && token.digits !== null && token.digits.length === 1 ? Number(token.digits) : null;

/** `text` as words, numerals and the one mark the grammar reads (","); spaces and hyphens separate, anything else is a break. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] !== undefined)
      for (const word of (m[1].length > 7 && segments(m[1])) || [canonical(m[1])])
        out.push({ kind: "word", word, start, end });
    else if (m[2] !== undefined) {
      const [whole, frac] = m[2].replace(/,/g, "").split(".");
      const value = decOf(whole!, frac ?? "");
      out.push(
        value
          ? { kind: "num", value, digits: frac === undefined ? whole! : null, start, end }
          : { kind: "mark", mark: "|", start, end },
      );
    } else if (m[3] !== undefined) out.push({ kind: "mark", mark: m[3], start, end });
    else if (m[4] === undefined) out.push({ kind: "mark", mark: "|", start, end });
  }
  return out;
}

/** A parse: its value and the index of the first token after it. */
interface Parsed {
  value: Dec;
  next: number;
}

class Parser {
  constructor(
    private readonly t: Token[],
    private readonly text: string,
  ) {}

  /** Whether token `i` and the next are joined by one hyphen (twenty-4). */
  private hyphened(i: number): boolean {
    const [a, b] = [this.t[i], this.t[i + 1]];
    return a !== undefined && b !== undefined && this.text.slice(a.end, b.start) === "-";
  }

  private word(i: number): string | undefined {
    const token = this.t[i];
    return token?.kind === "word" ? token.word : undefined;
  }

  private mark(i: number, mark: string): boolean {
    const token = this.t[i];
    return token?.kind === "mark" && token.mark === mark;
  }

  /** below100 at `i`. */
  below100(i: number): Parsed | null {
    const w = this.word(i);
    if (w === undefined) return null;
    const tens = TENS.indexOf(w);
    if (tens >= 2) {
      const unit =
        this.word(i + 1) !== undefined
          ? UNITS.indexOf(this.word(i + 1)!)
          : this.hyphened(i) || this.word(i + 2) === "hundred" || this.scaleAt(i + 2) !== null
            ? (singleDigit(this.t[i + 1]) ?? -1)
            : -1;
      return unit >= 1 ? { value: decInt(tens * 10 + unit), next: i + 2 } : { value: decInt(tens * 10), next: i + 1 };
    }
    const teen = TEENS.indexOf(w);
    if (teen >= 0) return { value: decInt(10 + teen), next: i + 1 };
    const unit = UNITS.indexOf(w);
    return unit >= 0 ? { value: decInt(unit), next: i + 1 } : null;
  }

  /** small at `i`: below100, a numeral, or "a"/"an" (one, before a scale), with an optional decimal tail. */
  small(i: number): Parsed | null {
    const token = this.t[i];
    let base: Parsed | null;
    if (token?.kind === "num") base = { value: token.value, next: i + 1 };
    else if (token?.kind === "word" && (token.word === "a" || token.word === "an"))
      return this.scaleAt(i + 1) !== null || this.word(i + 1) === "hundred" ? { value: decInt(1), next: i + 1 } : null;
    else if (
      token?.kind === "word" &&
      token.word.length >= 2 &&
      /^[ivxlcdm]+$/.test(token.word) &&
      (this.scaleAt(i + 1) !== null || this.word(i + 1) === "hundred")
    ) {
      const roman = romanValue(token.word);
      return roman === null ? null : { value: decInt(roman), next: i + 1 };
    } else base = this.below100(i);
    if (!base) return null;
    const fraction = this.fraction(base.next);
    if (fraction) return { value: plus(base.value, fraction.value), next: fraction.next };
    if (token?.kind === "num") return base;
    const point = this.word(base.next);
    if (point !== "point" && point !== "dot") return base;
    let frac = "";
    let j: number;
    for (j = base.next + 1; this.word(j) !== undefined && DIGIT_WORD[this.word(j)!] !== undefined; j++)
      frac += String(DIGIT_WORD[this.word(j)!]);
    if (frac === "") return base;
    const value = decOf(base.value.n.toString(), frac);
    return value ? { value, next: j } : base;
  }

  /** A fraction at `i` ("and a half", "and three quarters"): its value and the next index. */
  fraction(i: number): Parsed | null {
    if (this.word(i) !== "and") return null;
    for (const [words, hundredths] of FRACTIONS) {
      if (words.every((w, k) => this.word(i + 1 + k) === w))
        return { value: shift(decInt(hundredths), -2), next: i + 1 + words.length };
    }
    return null;
  }

  /** The power of ten of the scale word at `i` (thousand and above), or null. */
  private scaleAt(i: number): number | null {
    const w = this.word(i);
    return w !== undefined && Object.hasOwn(SCALES, w) ? SCALES[w]! : null;
  }

  /** part at `i`: small "hundred" [["and"] below100], or small. */
  part(i: number): Parsed | null {
    const head = this.small(i);
    if (!head) return null;
    if (this.word(head.next) !== "hundred") return head;
    let value = times(head.value, 100n);
    let next = head.next + 1;
    const half = this.fraction(next);
    if (half) return { value: plus(value, half.value), next: half.next };
    const j = this.word(next) === "and" ? next + 1 : next;
    const tail = this.below100(j) ?? (this.t[j]?.kind === "num" ? this.small(j) : null);
    if (tail && less(tail.value, decInt(100))) {
      value = plus(value, tail.value);
      next = tail.next;
    }
    const fraction = this.fraction(next);
    return fraction ? { value: plus(value, fraction.value), next: fraction.next } : { value, next };
  }

  /** scaled at `i`: parts joined by falling scales. */
  scaled(i: number): Parsed | null {
    const first = this.part(i);
    if (!first) return null;
    let total = decInt(0);
    let current = first;
    let ceiling = Infinity;
    for (;;) {
      const power = this.scaleAt(current.next);
      if (power === null || power >= ceiling) {
        total = plus(total, current.value);
        return tooLong(total) ? null : { value: total, next: current.next };
      }
      total = plus(total, shift(current.value, power));
      ceiling = power;
      if (this.word(current.next) === "k" || this.word(current.next) === "grand")
        return tooLong(total) ? null : { value: total, next: current.next + 1 };
      const half = this.fraction(current.next + 1);
      if (half) return { value: plus(total, shift(half.value, power)), next: half.next };
      let j = current.next + 1;
      if (this.mark(j, ",")) j++;
      if (this.word(j) === "and") j++;
      const rest = this.part(j);
      if (!rest || !less(rest.value, shift(decInt(1), power)))
        return tooLong(total) ? null : { value: total, next: current.next + 1 };
      current = rest;
    }
  }

  /** A counted group at `i` (two zeros, three 9s, a pair of zeros, double zero): its digits and the next index. */
  counted(i: number): { digits: string; next: number } | null {
    const w = this.word(i);
    const plural = (j: number): { digit: number; next: number } | null => {
      const word = this.word(j);
      if (word !== undefined && Object.hasOwn(PLURAL, word)) return { digit: PLURAL[word]!, next: j + 1 };
      const digit = singleDigit(this.t[j]);
      return digit !== null && this.word(j + 1) === "s" && this.t[j + 1]!.start === this.t[j]!.end
        ? { digit, next: j + 2 }
        : null;
    };
    let count: number;
    let digit: { digit: number; next: number } | null;
    if (w !== undefined && Object.hasOwn(REPEAT, w)) {
      count = REPEAT[w]!;
      const unit = this.word(i + 1) !== undefined ? DIGIT_WORD[this.word(i + 1)!] : singleDigit(this.t[i + 1]);
      digit = unit !== undefined && unit !== null ? { digit: unit, next: i + 2 } : plural(i + 1);
    } else if (
      w === "a" &&
      (this.word(i + 1) === "pair" || this.word(i + 1) === "couple") &&
      this.word(i + 2) === "of"
    ) {
      count = 2;
      digit = plural(i + 3);
    } else {
      const n = w !== undefined ? UNITS.indexOf(w) : (singleDigit(this.t[i]) ?? -1);
      if (n < 2) return null;
      count = n;
      digit = plural(i + 1);
    }
    return digit ? { digits: String(digit.digit).repeat(count), next: digit.next } : null;
  }

  /** The index after a connector at `i` that a counted group follows, or `i`. */
  private connected(i: number): number {
    const after = this.mark(i, ",") ? i + 1 : i;
    for (const words of CONNECTORS)
      if (words.every((w, k) => this.word(after + k) === w) && this.counted(after + words.length))
        return after + words.length;
    return after > i && this.counted(after) ? after : i;
  }

  /** A whole number in words at `i` (`whole`, its scaled parse) that a counted group follows, ending before an "and" that joins that group when the number alone would take it (four hundred | and two zeros). */
  private head(i: number, whole: Parsed | null): Parsed | null {
    if (whole === null || whole.value.s !== 0) return null;
    if (this.connected(whole.next) !== whole.next) return whole;
    for (let k = whole.next - 1; k > i; k--) {
      if (this.word(k) !== "and" || this.connected(k) === k) continue;
      const before = new Parser(this.t.slice(i, k), this.text).scaled(0);
      if (before && before.next === k - i && before.value.s === 0) return { value: before.value, next: k };
    }
    return null;
  }

  /** digits at `i` (see the grammar above), at most MAX_DIGIT_WORDS items, so a long run costs a bounded amount per start. */
  digits(i: number, scaled: Parsed | null = this.scaled(i)): (Parsed & { digits: string }) | null {
    let digits = "";
    let j = i;
    let [items, words, groups] = [0, 0, 0];
    const head = this.t[i]?.kind === "word" ? this.head(i, scaled) : null;
    if (head) {
      digits = head.value.n.toString();
      j = head.next;
      items = 1;
    }
    // At most MAX_DIGIT_WORDS digits: a longer run is read as its first part, then the rest, so each token is tried a bounded number of times.
    while (items < MAX_DIGIT_WORDS) {
      const at = items > 0 ? this.connected(j) : j;
      const group = this.counted(at);
      const word = this.word(at);
      const token = this.t[at];
      const piece = group
        ? group.digits
        : word !== undefined && DIGIT_WORD[word] !== undefined
          ? String(DIGIT_WORD[word])
          : token?.kind === "num" && token.digits !== null
            ? token.digits
            : null;
      if (piece === null || digits.length + piece.length > MAX_DIGIT_WORDS) break;
      digits += piece;
      if (group) {
        j = group.next;
        groups++;
      } else {
        j = at + 1;
        if (token?.kind === "word") words++;
      }
      items++;
    }
    const enough = groups > 0 || words >= 2 || (words >= 1 && items >= 3);
    const value = enough && digits.length >= 2 ? decOf(digits) : null;
    return value ? { value, next: j, digits } : null;
  }
}

/** Every number written in English words (mixed with numerals or not) in `text` (folded by numberText). */
export function readEnglish(text: string): Reading[] {
  if (!/\p{L}/u.test(text)) return [];
  const t = tokens(text);
  const parser = new Parser(t, text);
  const out: Reading[] = [];
  let i = 0;
  while (i < t.length) {
    const scaled = parser.scaled(i);
    const found = [scaled, parser.digits(i, scaled)].filter((p): p is Parsed => p !== null);
    const words = found.filter((p) => p.next > i + 1 || t[i]!.kind === "word");
    if (words.length === 0) {
      i++;
      continue;
    }
    for (const p of words)
      out.push({
        value: p.value,
        start: t[i]!.start,
        end: t[p.next - 1]!.end,
        ...("digits" in p ? { digits: p.digits as string } : {}),
      });
    i = Math.max(...words.map((p) => p.next));
  }
  return out;
}
