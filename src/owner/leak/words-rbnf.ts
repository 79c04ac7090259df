/**
 * Number words in the languages of the Unicode CLDR spellout rules, read with one grammar over a
 * lexicon generated from those rules (lexicon.ts, by scripts/number-lexicon.mjs from cldr-rbnf;
 * decision 0440). The lexicon gives, per language, the words of its numbers (each with its value),
 * the connector words it puts between them (und, y, og, et...) and whether it writes units before
 * tens (vierundzwanzig). The grammar, in text folded by numberText and compared by skeleton
 * (views.ts), where spaces, hyphens and soft hyphens between words may be there or not:
 *   number   = term { [conn] term }                 powers strictly falling, each rest below the power before
 *   term     = [multiplier [conn]] power | chunk      power: a word for 10^k (hundert, mille, тысячи, 만);
 *              or power [conn] multiplier where the language puts it first (elfu mbili)
 *   multiplier = number with powers below this one (two hundred | thousand, 이천사백 | 만)
 *   chunk    = hundreds [conn] below100 | hundreds | whole | below100 | numeral
 *   below100 = direct | round [conn] small | unit [conn] tens   round: 20, 30 ... 90; small: 1-19 (soixante-quinze,
 *              ოცდაათი); units before tens where the language writes them so
 *   digits   = three or more unit words, each a whole word, read digit by digit
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
import { skeletonOf } from "./views.js";

/** Whether a language writes tens before units (twenty-one), units before tens (einundzwanzig), or both. */
export type Order = "tu" | "ut" | "both";

interface Atom {
  lang: number;
  /** The atom's value; null for a connector. */
  value: bigint | null;
}

interface Node {
  next: Map<string, Node>;
  atoms: Atom[];
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

/** A compiled lexicon: its languages and a trie of the skeletons of their words. */
export interface Lexicon {
  langs: Lang[];
  root: Node;
}

const GLUED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}]/u;
/** The character that stands for a numeral in a stream of letters. */
const NUMERAL = "\u0000";
const MAX_DIGIT_WORDS = 64;
const MIN_DIGIT_WORDS = 3;
const MIN_SINGLE_LETTERS = 4;

/** The exponent k when `v` is 10^k (k >= 2), else null. */
function powerOf(v: bigint): number | null {
  if (v < 100n) return null;
  let k = 0;
  for (let x = v; x > 1n; x /= 10n) {
    if (x % 10n !== 0n) return null;
    k++;
  }
  return k;
}

/**
 * Compiles lexicon lines: `lang|order|connectors|entries`, connectors comma-separated, entries
 * `value=form,form;...` with forms folded and without separators (scripts/lexicon/lexicon.ts).
 */
export function compileLexicon(lines: readonly string[]): Lexicon {
  const root: Node = { next: new Map(), atoms: [] };
  const add = (form: string, atom: Atom) => {
    let node = root;
    for (const ch of [...form].map(skeletonOf).join("")) {
      let child = node.next.get(ch);
      if (!child) node.next.set(ch, (child = { next: new Map(), atoms: [] }));
      node = child;
    }
    if (!node.atoms.some((a) => a.lang === atom.lang && a.value === atom.value)) node.atoms.push(atom);
  };
  const langs: Lang[] = [];
  lines.forEach((line, lang) => {
    const [id, orders, connectors, entries] = line.split("|") as [string, string, string, string];
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
    langs.push({ id, order, powerFirst: pm === "pm", glued, powers: [...powers].sort((a, b) => a - b) });
  });
  return { langs, root };
}

let compiled: Lexicon | null = null;

/** The lexicon of lexicon.ts, compiled on first use. */
export function defaultLexicon(): Lexicon {
  compiled ??= compileLexicon(LEXICON);
  return compiled;
}

/** A run of words apart only by spaces, hyphens or soft hyphens, as one stream of skeleton letters (a numeral is one NUMERAL character). */
class Stream {
  readonly chars: string[] = [];
  /** For each stream position, its offset in the text; one more for the end. */
  readonly origin: number[] = [];
  readonly wordStart = new Set<number>();
  readonly wordEnd = new Set<number>();
  readonly numerals = new Map<number, Dec>();
  private readonly hits = new Map<number, { atom: Atom; end: number }[]>();

  constructor(
    words: { text: string; at: number }[],
    private readonly root: Node,
  ) {
    for (const word of words) {
      this.wordStart.add(this.chars.length);
      if (/^[0-9]/.test(word.text)) {
        const [whole, frac] = word.text.split(/[.,]/);
        const value = decOf(whole!, frac ?? "");
        if (value) this.numerals.set(this.chars.length, value);
        this.chars.push(NUMERAL);
        this.origin.push(word.at);
      } else {
        let offset = word.at;
        for (const ch of [...word.text]) {
          for (const s of skeletonOf(ch)) {
            this.chars.push(s);
            this.origin.push(offset);
          }
          offset += ch.length;
        }
      }
      this.wordEnd.add(this.chars.length);
      this.origin[this.chars.length] = word.at + word.text.length;
    }
  }

  /** Every atom that starts at `pos`, with where it ends. */
  atomsAt(pos: number): { atom: Atom; end: number }[] {
    let found = this.hits.get(pos);
    if (found) return found;
    found = [];
    let node: Node | undefined = this.root;
    for (let i = pos; i < this.chars.length && node; ) {
      node = node.next.get(this.chars[i]!);
      i++;
      if (node) for (const atom of node.atoms) found.push({ atom, end: i });
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
  private readonly memo = new Map<string, Parse[]>();

  constructor(
    private readonly s: Stream,
    private readonly lang: number,
    private readonly rules: Lang,
  ) {}

  private values(pos: number): { value: bigint; end: number }[] {
    const out: { value: bigint; end: number }[] = [];
    for (const { atom, end } of this.s.atomsAt(pos)) if (atom.lang === this.lang && atom.value !== null) out.push({ value: atom.value, end });
    return out;
  }

  /** `pos` and every end of a connector word at `pos`. */
  private joins(pos: number): number[] {
    const out = [pos];
    for (const { atom, end } of this.s.atomsAt(pos)) if (atom.lang === this.lang && atom.value === null) out.push(end);
    return out;
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
          const fits = round ? b.value >= 1n && b.value <= 19n && a.value + b.value < 100n : b.value >= 20n && b.value <= 90n && b.value % 10n === 0n;
          if (fits) out.push({ end: b.end, value: decInt(a.value + b.value), atoms: 2, words: 2, power: 0 });
        }
      }
    }
    return out;
  }

  private chunk(pos: number): Parse[] {
    const numeral = this.s.chars[pos] === NUMERAL ? this.s.numerals.get(pos) : undefined;
    if (numeral) return [{ end: pos + 1, value: numeral, atoms: 1, words: 0, power: 0 }];
    const out = this.below100(pos);
    for (const a of this.values(pos)) {
      if (a.value === 0n || (a.value > 100n && a.value < 1000n && a.value % 100n !== 0n)) out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: 0 });
      if (a.value < 100n || a.value > 900n || a.value % 100n !== 0n) continue;
      out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: 0 });
      for (const j of this.joins(a.end)) for (const b of this.below100(j)) out.push({ ...b, value: plus(decInt(a.value), b.value), atoms: b.atoms + 1, words: b.words + 1 });
    }
    return out;
  }

  /** Terms at `pos` whose power is below `ceiling`; a chunk only when below 10^ceiling. */
  private terms(pos: number, ceiling: number): Parse[] {
    const out: Parse[] = [];
    const bound = Number.isFinite(ceiling) ? shift(decInt(1), ceiling) : null;
    for (const c of this.chunk(pos)) if (bound === null || less(c.value, bound)) out.push(c);
    for (const a of this.values(pos)) {
      const power = powerOf(a.value);
      if (a.value >= 1000n && power === null) {
        const zeros = a.value.toString().length - a.value.toString().replace(/0+$/, "").length;
        if (zeros < ceiling) out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power: zeros });
      } else if (power !== null && power < ceiling) {
        out.push({ end: a.end, value: decInt(a.value), atoms: 1, words: 1, power });
        if (!this.rules.powerFirst) continue;
        for (const j of this.joins(a.end)) {
          for (const m of this.number(j, power)) if (m.value.n > 1n || m.value.s > 0) out.push({ end: m.end, value: shift(m.value, power), atoms: m.atoms + 1, words: m.words + 1, power });
        }
      }
    }
    for (const power of this.rules.powers) {
      if (power >= ceiling) break;
      for (const m of this.number(pos, power)) {
        for (const j of this.joins(m.end)) {
          for (const w of this.values(j)) {
            if (powerOf(w.value) !== power) continue;
            out.push({ end: w.end, value: shift(m.value, power), atoms: m.atoms + 1, words: m.words + 1, power });
          }
        }
      }
    }
    return out;
  }

  /** Every number at `pos` whose powers are all below `ceiling`. */
  number(pos: number, ceiling: number): Parse[] {
    const key = `${pos}:${ceiling}`;
    const known = this.memo.get(key);
    if (known) return known;
    this.memo.set(key, []);
    const out: Parse[] = [];
    for (const t of this.terms(pos, ceiling)) {
      out.push(t);
      if (t.power < 2) continue;
      const bound = shift(decInt(1), t.power);
      for (const j of this.joins(t.end)) {
        for (const r of this.number(j, t.power)) {
          if (less(r.value, bound)) out.push({ end: r.end, value: plus(t.value, r.value), atoms: t.atoms + r.atoms, words: t.words + r.words, power: t.power });
        }
      }
    }
    this.memo.set(key, out);
    return out;
  }

  /** Three or more unit words (0-9) from `pos`, read digit by digit; each a whole word unless the script is written without spaces. */
  digits(pos: number): Parse | null {
    let text = "";
    let at = pos;
    while (text.length < MAX_DIGIT_WORDS) {
      const unit = this.values(at).find((a) => a.value <= 9n && (this.rules.glued || this.s.wordEnd.has(a.end)));
      if (!unit) break;
      text += unit.value.toString();
      at = unit.end;
    }
    const value = text.length >= MIN_DIGIT_WORDS ? decOf(text) : null;
    return value ? { end: at, value, atoms: text.length, words: text.length, power: 0 } : null;
  }
}

const WORD = /[\p{L}\p{M}]+|[0-9]+(?:[.,][0-9]+)?/gu;
const JOINER = /^[\s\-\u00ad\u2010\u2011]*$/u;

/** `text` cut into runs of words apart only by spaces, hyphens or soft hyphens. */
function runs(text: string): { text: string; at: number }[][] {
  const out: { text: string; at: number }[][] = [];
  let current: { text: string; at: number }[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    if (current.length > 0 && !JOINER.test(text.slice(last, m.index))) {
      out.push(current);
      current = [];
    }
    current.push({ text: m[0], at: m.index });
    last = m.index + m[0].length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Every number written in the words of a lexicon language in `text` (a view from views.ts). */
export function readRbnf(text: string, lexicon: Lexicon = defaultLexicon()): Reading[] {
  const out: Reading[] = [];
  for (const words of runs(text)) {
    if (!words.some((w) => /\p{L}/u.test(w.text))) continue;
    const s = new Stream(words, lexicon.root);
    const parsers = new Map<number, LangParser>();
    const parser = (lang: number) => {
      let p = parsers.get(lang);
      if (!p) parsers.set(lang, (p = new LangParser(s, lang, lexicon.langs[lang]!)));
      return p;
    };
    let pos = 0;
    while (pos < s.chars.length) {
      const langs = new Set<number>();
      const next = s.chars[pos] === NUMERAL && s.wordStart.has(pos + 1) ? pos + 1 : pos;
      for (const { atom } of s.atomsAt(next)) if (s.wordStart.has(pos) || lexicon.langs[atom.lang]!.glued) langs.add(atom.lang);
      let furthest = pos;
      for (const lang of langs) {
        const rules = lexicon.langs[lang]!;
        const p = parser(lang);
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
        furthest = Math.max(furthest, end);
      }
      pos = furthest > pos ? furthest : pos + 1;
    }
  }
  return out;
}

/** For one word `form` of language `lang`: the values (by decKey) of each number the grammar reads from position `from`, by where it ends (the lexicon builder's and its test's check). */
export function spansOf(form: string, lang: number, lexicon: Lexicon): (from: number) => Map<number, Set<string>> {
  const s = new Stream([{ text: form, at: 0 }], lexicon.root);
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
