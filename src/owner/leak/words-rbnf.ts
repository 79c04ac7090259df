/**
 * Number words in the languages of the Unicode CLDR spellout rules (and, for those CLDR has none
 * for, of to-words), read with one grammar over a lexicon generated from those rules (lexicon.ts,
 * by scripts/number-lexicon.mjs from cldr-rbnf and to-words; decisions 0440 and 0474). The lexicon gives, per language, the words of its numbers (each with its value),
 * the connector words it puts between them (und, y, og, et...) and whether it writes units before
 * tens (vierundzwanzig). The grammar, in text folded by numberText and compared by skeleton
 * (normal-forms.ts), where spaces, hyphens and soft hyphens between words may be there or not:
 *   number   = term { [conn] term }                 powers strictly falling, each rest below the power before
 *   term     = [multiplier [conn]] power | chunk      power: a word for 10^k (hundert, mille, тысячи, 만);
 *              or power [conn] multiplier where the language puts it first (elfu mbili)
 *   multiplier = number with powers below this one (two hundred | thousand, 이천사백 | 만)
 *   chunk    = hundreds [conn] below100 | hundreds | whole | below100 | numeral
 *   below100 = direct | round [conn] small | unit [conn] tens   round: 20, 30 ... 90; small: 1-19 (soixante-quinze,
 *              ოცდაათი); units before tens where the language writes them so
 *   digits   = three or more unit words, each a whole word, read digit by digit
 *   decimal  = number point (unit words read digit by digit | below100)   point: the language's
 *              decimal word from its CLDR x.x rule (Komma, virgule, coma, запятая), before a power
 *              too (zwei Komma vier Tausend)
 * so "zweitausendvierhundert", "deux mille quatre cents", "dos mil cuatrocientos", "две тысячи
 * четыреста", "kétezer-négyszáz", "이천사백" and "2,4 Tausend" all read 2400. A reading covers
 * whole words (except in scripts written without spaces: Thai, Lao, Khmer, Myanmar, Hangul), and
 * a reading of one word shorter than four letters is left out (to, en, ni are number words too).
 *
 * Bound: atoms are found by one walk of a trie per position; every (position, power) state is
 * parsed once per language (memoised), powers strictly fall, so a reading has at most a few dozen
 * atoms and a text costs a linear number of states per language with a hit at that position.
 */
import { decInt, decKey, decOf, less, plus, shift, type Dec } from "./decimal.js";
import { LEXICON } from "./lexicon.js";
import type { Reading } from "./reading.js";
import { skeletonOf } from "./normal-forms.js";

/** Whether a language writes tens before units (twenty-one), units before tens (einundzwanzig), or both. */
export type Order = "tu" | "ut" | "both";

interface Atom {
  lang: number;
  /** The atom's value; null for a connector or a decimal word. */
  value: bigint | null;
  /** Whether it is a decimal word (Komma, virgule) rather than a connector. */
  point?: true;
}

interface Lang {
  id: string;
  order: Order;
  /** Whether the power comes before its multiplier (elfu mbili: thousand two). */
  powerFirst: boolean;
  glued: boolean;
  /** The exponents of its power words, ascending. */
  powers: number[];
}

/** A compiled lexicon: its languages, the skeletons of their words, and the lengths of those by their first two characters (or one, for a one-character word). */
export interface Lexicon {
  langs: Lang[];
  forms: Map<string, Atom[]>;
  lengths: Map<string, number[]>;
}

const GLUED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}]/u;
/** The character that stands for a numeral in a stream of letters. */
const NUMERAL = "\u0000";
/** The character that stands for one outside the Basic Multilingual Plane (no lexicon word has one). */
const OTHER = "\uffff";
const MAX_DIGIT_WORDS = 64;
const MIN_DIGIT_WORDS = 3;
const MIN_SINGLE_LETTERS = 4;

const POWERS = new Map<bigint, number>(Array.from({ length: 30 }, (_, k) => [10n ** BigInt(k + 2), k + 2]));

/** The exponent k when `v` is 10^k (2 <= k < 32), else null. */
function powerOf(v: bigint): number | null {
  return POWERS.get(v) ?? null;
}

/**
 * Compiles lexicon lines: `lang|order|connectors|entries|points`, connectors and decimal words
 * comma-separated, entries `value=form,form;...` with forms folded and without separators
 * (scripts/lexicon/lexicon.ts).
 */
export function compileLexicon(lines: readonly string[]): Lexicon {
  const forms = new Map<string, Atom[]>();
  const lengths = new Map<string, Set<number>>();
  const add = (form: string, atom: Atom) => {
    const key = [...form].map(skeletonOf).join("");
    const atoms = forms.get(key) ?? [];
    if (!atoms.some((a) => a.lang === atom.lang && a.value === atom.value && a.point === atom.point))
      forms.set(key, [...atoms, atom]);
    lengths.set(key.slice(0, 2), (lengths.get(key.slice(0, 2)) ?? new Set()).add(key.length));
  };
  const langs: Lang[] = [];
  lines.forEach((line, lang) => {
    const [id, orders, connectors, entries, points = ""] = line.split("|") as [string, string, string, string, string?];
    const [order, pm] = orders.split("+") as [Order, string | undefined];
    const powers = new Set<number>();
    let glued = false;
    for (const entry of entries.split(";")) {
      const [value, forms] = entry.split("=") as [string, string];
      const v = BigInt(value);
      const power = powerOf(v);
      if (power !== null) powers.add(power);
      for (const form of forms.split(",")) {
        glued ||= GLUED.test(form);
        add(form, { lang, value: v });
      }
    }
    for (const c of connectors.split(",").filter((c) => c !== "")) add(c, { lang, value: null });
    for (const p of points.split(",").filter((p) => p !== "")) add(p, { lang, value: null, point: true });
    langs.push({ id, order, powerFirst: pm === "pm", glued, powers: [...powers].sort((a, b) => a - b) });
  });
  return { langs, forms, lengths: new Map([...lengths].map(([ch, set]) => [ch, [...set].sort((a, b) => a - b)])) };
}

let compiled: Lexicon | null = null;

/** The lexicon of lexicon.ts, compiled on first use. */
export function defaultLexicon(): Lexicon {
  compiled ??= compileLexicon(LEXICON);
  return compiled;
}

/** A word of a run: its text, its offset, and whether a comma stands before it. */
interface Word {
  text: string;
  at: number;
  comma: boolean;
}

/** A run of words apart only by spaces, hyphens or soft hyphens, as one string of skeleton letters, one code unit each (a numeral is one NUMERAL, a character outside the BMP one OTHER). */
class Stream {
  text = "";
  /** For each stream position, its offset in the text; one more for the end. */
  readonly origin: number[] = [];
  readonly wordStart = new Set<number>();
  readonly wordEnd = new Set<number>();
  /** Word starts with a comma before them. */
  readonly afterComma = new Set<number>();
  readonly numerals = new Map<number, Dec>();
  private readonly hits = new Map<number, { atom: Atom; end: number }[]>();

  constructor(
    words: Word[],
    private readonly lexicon: Lexicon,
  ) {
    const chars: string[] = [];
    for (const word of words) {
      this.wordStart.add(chars.length);
      if (word.comma) this.afterComma.add(chars.length);
      if (/^[0-9]/.test(word.text)) {
        const [whole, frac] = word.text.split(/[.,]/);
        const value = decOf(whole!, frac ?? "");
        if (value) this.numerals.set(chars.length, value);
        chars.push(NUMERAL);
        this.origin.push(word.at);
      } else {
        let offset = word.at;
        for (const ch of [...word.text]) {
          for (const s of skeletonOf(ch)) {
            chars.push(s.length === 1 ? s : OTHER);
            this.origin.push(offset);
          }
          offset += ch.length;
        }
      }
      this.wordEnd.add(chars.length);
      this.origin[chars.length] = word.at + word.text.length;
    }
    this.text = chars.join("");
  }

  /** Every atom that starts at `pos`, with where it ends. */
  atomsAt(pos: number): { atom: Atom; end: number }[] {
    let found = this.hits.get(pos);
    if (found) return found;
    found = [];
    for (const key of [this.text.slice(pos, pos + 1), this.text.slice(pos, pos + 2)]) {
      if (key.length === 2 && key[1] === undefined) continue;
      for (const length of this.lexicon.lengths.get(key) ?? []) {
        if (pos + length > this.text.length) break;
        if ((length === 1) !== (key.length === 1)) continue;
        for (const atom of this.lexicon.forms.get(this.text.slice(pos, pos + length)) ?? [])
          found.push({ atom, end: pos + length });
      }
    }
    this.hits.set(pos, found);
    return found;
  }
}

/** One parse: where it ends, its value, how many atoms, how many of them words, and its highest power. */
interface Parse {
  end: number;
  value: Dec;
  atoms: number;
  words: number;
  power: number;
}

/** The parser of one language over one stream (memoised by position and power). */
class LangParser {
  private readonly memo = new Map<number, Parse[]>();

  constructor(
    private readonly s: Stream,
    private readonly lang: number,
    private readonly rules: Lang,
  ) {}

  private readonly atoms = new Map<
    number,
    { values: { value: bigint; end: number }[]; joins: number[]; points: number[] }
  >();

  /** The language's atoms at `pos`: its number words (with their values), `pos` with the end of each connector word, and the end of each decimal word. */
  private at(pos: number): { values: { value: bigint; end: number }[]; joins: number[]; points: number[] } {
    let found = this.atoms.get(pos);
    if (found) return found;
    found = { values: [], joins: [pos], points: [] };
    for (const { atom, end } of this.s.atomsAt(pos)) {
      if (atom.lang !== this.lang) continue;
      if (atom.point) found.points.push(end);
      else if (atom.value === null) found.joins.push(end);
      else found.values.push({ value: atom.value, end });
    }
    this.atoms.set(pos, found);
    return found;
  }

  /** `p` with each decimal tail after it: a decimal word, then unit words read digit by digit or one number below a hundred (zwei Komma vier, dos coma veinticinco). */
  private decimals(p: Parse): Parse[] {
    const out: Parse[] = [];
    if (p.value.s > 0) return out;
    for (const j of this.joins(p.end)) {
      for (const point of this.at(j).points) {
        const after = this.s.wordStart.has(point) ? [point] : this.joins(point);
        for (const k of after) {
          const digits = this.digits(k, 1);
          const tails = [...(digits ? [digits] : []), ...this.below100(k)];
          for (const t of tails) {
            const frac = t === digits ? t.value.n.toString().padStart(t.atoms, "0") : t.value.n.toString();
            const value = decOf(p.value.n.toString(), frac);
            if (value)
              out.push({
                end: t.end,
                value,
                atoms: p.atoms + 1 + t.atoms,
                words: p.words + 1 + t.words,
                power: p.power,
              });
          }
        }
      }
    }
    return out;
  }

  private values(pos: number): { value: bigint; end: number }[] {
    return this.at(pos).values;
  }

  /** Whether a reading at `pos` could be kept: a word of four letters or more starts there, or another atom of the language (a number word, a decimal word, a numeral) follows one (a numeral at `pos` always could). */
  worthReading(pos: number): boolean {
    if (this.s.text[pos] === NUMERAL) return true;
    return this.values(pos).some(
      (a) =>
        a.end - pos >= MIN_SINGLE_LETTERS ||
        this.joins(a.end, true).some(
          (j) =>
            j < this.s.text.length &&
            (this.values(j).length > 0 || this.at(j).points.length > 0 || this.s.text[j] === NUMERAL),
        ),
    );
  }

  /** `pos` and every end of a connector word at `pos`: where the next atom may start; none after a comma, but after a power of a thousand or more (to tusen, fire hundre). */
  private joins(pos: number, afterPower = false): number[] {
    return this.s.afterComma.has(pos) && !afterPower ? [] : this.at(pos).joins;
  }

  private below100(pos: number): Parse[] {
    const out: Parse[] = [];
    const tensFirst = this.rules.order !== "ut";
    const unitsFirst = this.rules.order !== "tu";
    for (const a of this.values(pos)) {
      if (a.value < 1n || a.value > 99n) continue;
      out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: 0 });
      const round = a.value % 10n === 0n && a.value >= 20n;
      const unit = a.value <= 9n;
      if (!(round && tensFirst) && !(unit && unitsFirst)) continue;
      for (const j of this.joins(a.end)) {
        for (const b of this.values(j)) {
          const fits = round
            ? b.value >= 1n && b.value <= 19n && a.value + b.value < 100n
            : b.value >= 20n && b.value <= 90n && b.value % 10n === 0n;
          if (fits) out.push({ end: b.end, value: decInt(a.value + b.value), atoms: 2, words: 2, power: 0 });
        }
      }
    }
    return out;
  }

  private chunk(pos: number): Parse[] {
    const numeral = this.s.text[pos] === NUMERAL ? this.s.numerals.get(pos) : undefined;
    if (numeral) return [{ end: pos + 1, value: numeral, atoms: 1, words: 0, power: 0 }];
    const out = this.below100(pos);
    for (const a of this.values(pos)) {
      if (a.value === 0n || (a.value > 100n && a.value < 1000n && a.value % 100n !== 0n))
        out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: 0 });
      if (a.value < 100n || a.value > 900n || a.value % 100n !== 0n) continue;
      out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: 0 });
      for (const j of this.joins(a.end))
        for (const b of this.below100(j))
          out.push({ ...b, value: plus(decInt(a.value), b.value), atoms: b.atoms + 1, words: b.words + 1 });
    }
    return out;
  }

  /**
   * Every parse at `pos`, whatever its power, built by power ascending: the chunks; then for each
   * power p, the terms of power p (a multiplier read below p times a word for 10^p, the word alone,
   * a word of a group such as két|ezer, or the word before its multiplier) each followed or not by
   * a rest below 10^p. Remembered by position: a text costs one computation per position.
   */
  private all(pos: number): Parse[] {
    const known = this.memo.get(pos);
    if (known) return known;
    const out: Parse[] = this.chunk(pos).flatMap((c) => [c, ...this.decimals(c)]);
    const byPower = new Map<number, Parse[]>();
    const term = (t: Parse) => byPower.set(t.power, [...(byPower.get(t.power) ?? []), t]);
    for (const a of this.values(pos)) {
      const power = powerOf(a.value);
      if (a.value >= 1000n && power === null)
        term({
          end: a.end,
          value: decInt(a.value),
          atoms: 1,
          words: 1,
          power: a.value.toString().length - a.value.toString().replace(/0+$/, "").length,
        });
      else if (power !== null) {
        term({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power });
        if (!this.rules.powerFirst) continue;
        for (const j of this.joins(a.end)) {
          for (const m of this.number(j, power))
            if (m.value.n > 1n || m.value.s > 0)
              term({ end: m.end, value: shift(m.value, power), atoms: m.atoms + 1, words: m.words + 1, power });
        }
      }
    }
    for (const power of [...new Set([...this.rules.powers, ...byPower.keys()])].sort((x, y) => x - y)) {
      const bound = shift(decInt(1), power);
      const terms = byPower.get(power) ?? [];
      if (this.rules.powers.includes(power)) {
        for (const m of out) {
          if (m.power >= power) continue;
          for (const j of this.joins(m.end)) {
            for (const w of this.values(j)) {
              if (powerOf(w.value) !== power || (m.power === 0 && !less(m.value, bound))) continue;
              terms.push({ end: w.end, value: shift(m.value, power), atoms: m.atoms + 1, words: m.words + 1, power });
            }
          }
        }
      }
      for (const t of terms) {
        out.push(t, ...this.decimals(t));
        if (power < 2) continue;
        for (const j of this.joins(t.end, power >= 3)) {
          for (const r of this.number(j, power))
            if (less(r.value, bound))
              out.push({
                end: r.end,
                value: plus(t.value, r.value),
                atoms: t.atoms + r.atoms,
                words: t.words + r.words,
                power,
              });
        }
      }
    }
    this.memo.set(pos, out);
    return out;
  }

  /** Every number at `pos` whose powers are all below `ceiling`. */
  number(pos: number, ceiling: number): Parse[] {
    return this.all(pos).filter((r) => r.power < ceiling);
  }

  /** `fewest` (three unless said) or more unit words (0-9) from `pos`, read digit by digit; each a whole word unless the script is written without spaces. */
  digits(pos: number, fewest = MIN_DIGIT_WORDS): Parse | null {
    let text = "";
    let at = pos;
    while (text.length < MAX_DIGIT_WORDS) {
      const unit = this.values(at).find((a) => a.value <= 9n && (this.rules.glued || this.s.wordEnd.has(a.end)));
      if (!unit) break;
      text += unit.value.toString();
      at = unit.end;
    }
    const value = text.length >= fewest ? decOf(text) : null;
    return value ? { end: at, value, atoms: text.length, words: text.length, power: 0 } : null;
  }
}

const WORD = /[\p{L}\p{M}]+(?:['\u2019\u02bc][\p{L}\p{M}]+)*|[0-9]+(?:[.,][0-9]+)?/gu;
const JOINER = /^[\s\-\u00ad\u2010\u2011]*$|^\s*,\s*$/u;

/** `text` cut into runs of words apart only by spaces, hyphens or soft hyphens, or one comma (to tusen, fire hundre); an apostrophe inside a word (п'ятсот) is part of it. */
function runs(text: string): Word[][] {
  const out: Word[][] = [];
  let current: Word[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const gap = text.slice(last, m.index);
    if (current.length > 0 && !JOINER.test(gap)) {
      out.push(current);
      current = [];
    }
    current.push({ text: m[0], at: m.index, comma: current.length > 0 && gap.includes(",") });
    last = m.index + m[0].length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Every number written in the words of a lexicon language in `text` (a normal form from normal-forms.ts). */
export function readRbnf(text: string, lexicon: Lexicon = defaultLexicon()): Reading[] {
  const out: Reading[] = [];
  for (const words of runs(text)) {
    if (!words.some((w) => /\p{L}/u.test(w.text))) continue;
    const s = new Stream(words, lexicon);
    const parsers = new Map<number, LangParser>();
    const parser = (lang: number) => {
      let p = parsers.get(lang);
      if (!p) parsers.set(lang, (p = new LangParser(s, lang, lexicon.langs[lang]!)));
      return p;
    };
    // Each language reads from where its last reading ended, so one language's long reading does not hide another's (ok, mil ochocientos).
    const until = new Map<number, number>();
    for (let pos = 0; pos < s.text.length; pos++) {
      if (!s.wordStart.has(pos) && !GLUED.test(s.text[pos]!)) continue;
      const langs = new Set<number>();
      const next = s.text[pos] === NUMERAL && s.wordStart.has(pos + 1) ? pos + 1 : pos;
      for (const { atom } of s.atomsAt(next))
        if ((s.wordStart.has(pos) || lexicon.langs[atom.lang]!.glued) && pos >= (until.get(atom.lang) ?? 0))
          langs.add(atom.lang);
      for (const lang of langs) {
        const rules = lexicon.langs[lang]!;
        const p = parser(lang);
        if (!p.worthReading(pos)) continue;
        const parses = [...p.number(pos, Infinity), p.digits(pos)].filter((r): r is Parse => {
          if (r === null || r.words === 0) return false;
          if (r.atoms === 1 && r.end - pos < MIN_SINGLE_LETTERS) return false;
          const whole = s.wordStart.has(pos) && s.wordEnd.has(r.end);
          return whole || (rules.glued && r.atoms > 1);
        });
        const end = Math.max(pos, ...parses.map((r) => r.end));
        const seen = new Set<string>();
        for (const r of parses.filter((r) => r.end === end)) {
          if (seen.has(decKey(r.value))) continue;
          seen.add(decKey(r.value));
          out.push({ value: r.value, start: s.origin[pos]!, end: s.origin[end]! });
        }
        if (end > pos) until.set(lang, end);
      }
    }
  }
  return out;
}

/** For one word `form` of language `lang`: the values (by decKey) of each number the grammar reads from position `from`, by where it ends (the lexicon builder's and its test's check). */
export function spansOf(form: string, lang: number, lexicon: Lexicon): (from: number) => Map<number, Set<string>> {
  const s = new Stream([{ text: form, at: 0, comma: false }], lexicon);
  const p = new LangParser(s, lang, lexicon.langs[lang]!);
  return (from) => {
    const out = new Map<number, Set<string>>();
    for (const r of p.number(from, Infinity)) {
      const keys = out.get(r.end) ?? new Set<string>();
      out.set(r.end, keys.add(decKey(r.value)));
    }
    return out;
  };
}
