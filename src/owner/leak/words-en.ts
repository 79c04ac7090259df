/**
 * English number words, in text folded by numberText (fold.ts), read by a small grammar (not a
 * list of phrases):
 *   number   = digits | scaled
 *   digits   = 2+ digit words in a row, read digit by digit ("two four zero zero", "two four oh oh")
 *   scaled   = part { scale [","] ["and"] part }   with scales strictly falling, each part below
 *              the scale before it (two thousand, four hundred; one million two hundred thousand)
 *   part     = small "hundred" [["and"] below100] | small
 *   small    = below100 | numeral | "a" | "an"     (numeral: 24, 2.4, 2,400 written with digits)
 *   below100 = tens unit | tens | teen | unit      (words apart by spaces or hyphens)
 *   decimal  = below100 ("point" | "dot") unit-word {unit-word}, before a scale (two point four thousand)
 * so "twenty-four hundred", "24 hundred", "2.4 thousand", "two grand" and "2 thousand 4 hundred"
 * all read 2400. Scales: hundred, thousand (and "grand", "k" after a number), lakh, million, crore,
 * billion, trillion. Words are compared by skeleton (views.ts), so look-alike letters read too.
 */
import { decInt, decOf, less, plus, shift, times, tooLong, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";
import { skeleton, skeletonOf } from "./views.js";

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** Powers of ten of the scale words at or above a thousand. */
const SCALES: Record<string, number> = { thousand: 3, grand: 3, k: 3, lakh: 5, lakhs: 5, million: 6, crore: 7, billion: 9, trillion: 12 };
const MAX_DIGIT_WORDS = 64;
const DIGIT_WORD: Record<string, number> = { ...Object.fromEntries(UNITS.map((w, i) => [w, i])), oh: 0, nought: 0, naught: 0 };

type Token = { kind: "word"; word: string; start: number; end: number } | { kind: "num"; value: Dec; start: number; end: number } | { kind: "mark"; mark: string; start: number; end: number };

const VOCAB = [...UNITS, ...TEENS, ...TENS.filter((w) => w !== ""), "hundred", "and", "point", ...Object.keys(SCALES).filter((w) => w.length > 1)];
/** Every word the grammar compares, by its skeleton (views.ts): a look-alike spelling (tweive, fоur with a Cyrillic о) is the word. */
const BY_SKELETON = new Map([...VOCAB, ...Object.keys(DIGIT_WORD), "a", "an", "dot", "k"].map((w) => [skeleton(w), w]));
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

/** `text` as words, numerals and the one mark the grammar reads (","); spaces and hyphens separate, anything else is a break. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] !== undefined) for (const word of (m[1].length > 7 && segments(m[1])) || [canonical(m[1])]) out.push({ kind: "word", word, start, end });
    else if (m[2] !== undefined) {
      const [whole, frac] = m[2].replace(/,/g, "").split(".");
      const value = decOf(whole!, frac ?? "");
      out.push(value ? { kind: "num", value, start, end } : { kind: "mark", mark: "|", start, end });
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
  constructor(private readonly t: Token[]) {}

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
      const unit = UNITS.indexOf(this.word(i + 1) ?? "");
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
    else if (token?.kind === "word" && (token.word === "a" || token.word === "an")) return this.scaleAt(i + 1) !== null || this.word(i + 1) === "hundred" ? { value: decInt(1), next: i + 1 } : null;
    else base = this.below100(i);
    if (!base || token?.kind === "num") return base;
    const point = this.word(base.next);
    if (point !== "point" && point !== "dot") return base;
    let frac = "";
    let j: number;
    for (j = base.next + 1; this.word(j) !== undefined && DIGIT_WORD[this.word(j)!] !== undefined; j++) frac += String(DIGIT_WORD[this.word(j)!]);
    if (frac === "") return base;
    const value = decOf(base.value.n.toString(), frac);
    return value ? { value, next: j } : base;
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
    const j = this.word(next) === "and" ? next + 1 : next;
    const tail = this.below100(j) ?? (this.t[j]?.kind === "num" ? this.small(j) : null);
    if (tail && less(tail.value, decInt(100))) {
      value = plus(value, tail.value);
      next = tail.next;
    }
    return { value, next };
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
      if (this.word(current.next) === "k" || this.word(current.next) === "grand") return tooLong(total) ? null : { value: total, next: current.next + 1 };
      let j = current.next + 1;
      if (this.mark(j, ",")) j++;
      if (this.word(j) === "and") j++;
      const rest = this.part(j);
      if (!rest || !less(rest.value, shift(decInt(1), power))) return tooLong(total) ? null : { value: total, next: current.next + 1 };
      current = rest;
    }
  }

  /** digits at `i`: two or more digit words read digit by digit (at most MAX_DIGIT_WORDS, so a long run costs a bounded amount per start). */
  digits(i: number): Parsed | null {
    let text = "";
    let j = i;
    while (j - i < MAX_DIGIT_WORDS && this.word(j) !== undefined && DIGIT_WORD[this.word(j)!] !== undefined) text += String(DIGIT_WORD[this.word(j++)!]);
    const value = text.length >= 2 ? decOf(text) : null;
    return value ? { value, next: j } : null;
  }
}

/** Every number written in English words (mixed with numerals or not) in `text` (folded by numberText). */
export function readEnglish(text: string): Reading[] {
  if (!/\p{L}/u.test(text)) return [];
  const t = tokens(text);
  const parser = new Parser(t);
  const out: Reading[] = [];
  let i = 0;
  while (i < t.length) {
    const found = [parser.scaled(i), parser.digits(i)].filter((p): p is Parsed => p !== null);
    const words = found.filter((p) => p.next > i + 1 || t[i]!.kind === "word");
    if (words.length === 0) {
      i++;
      continue;
    }
    for (const p of words) out.push({ value: p.value, start: t[i]!.start, end: t[p.next - 1]!.end });
    i = Math.max(...words.map((p) => p.next));
  }
  return out;
}
