/**
 * Builds the number lexicon of the leak gate (src/owner/leak/lexicon.ts, read by words-rbnf.ts;
 * decisions 0440 and 0474) from the Unicode CLDR spellout rules in cldr-rbnf, and for the languages
 * CLDR has no spellout rules for, from the converters of to-words: for every language but those
 * the gate reads with grammars of its own (English: words-en.ts; Chinese, Japanese, Cantonese:
 * words-cjk.ts), every cardinal and numbering rule set spells 0-999, the powers 10^2..10^12 times
 * sample multipliers, and sample sums over them (rbnf.ts); the builder keeps the words of 0-19, the
 * tens and the hundreds, then learns from the spellings the grammar does not yet read: the power
 * words (tausend, тысячи), the forms a word takes before another (veinti-, két-), the connector
 * words (und, y, og) and whether units come before tens; a spelling of 0-999 it still cannot read is
 * kept whole. A spelling of a sample above 999 it cannot read is reported (missed), never guessed.
 * Each language's decimal words (Komma, virgule, দশমিক) are taken from its CLDR `x.x` rule, or from
 * to-words' spelling of 2.5 less those of 2 and 5.
 */
import { readdirSync, readFileSync } from "node:fs";
import { LOCALES, ToWords } from "to-words";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { decKey, decInt } from "../../src/owner/leak/decimal.js";
import { foldText } from "../../src/owner/leak/fold.js";
import { skeletonOf } from "../../src/owner/leak/normal-forms.js";
import { compileLexicon, spansOf, type Order } from "../../src/owner/leak/words-rbnf.js";
import { Formatter, ruleSets, type SpelloutJson } from "./rbnf.js";

const require = createRequire(import.meta.url);
/** The generated module, from the checkout's root. */
export const LEXICON_FILE = "src/owner/leak/lexicon.ts";
/** Where cldr-rbnf is installed. */
export const RBNF_ROOT = dirname(require.resolve("cldr-rbnf/package.json"));

/** Languages read by grammars of their own (words-en.ts, words-cjk.ts), and the root rules. */
const OWN_GRAMMAR = new Set(["en", "zh", "ja", "yue", "und", "root"]);
/** to-words' codes for languages CLDR has under another (nb is CLDR's no, Norwegian Bokmål; np is Nepali, ne). */
const SAME_LANGUAGE: Record<string, string> = { nb: "no", np: "ne" };
/** Where to-words is installed. */
const TO_WORDS_ROOT = dirname(dirname(dirname(require.resolve("to-words"))));
const RULE_SET = /^%spellout-(numbering|cardinal)(?!.*(year|ordinal))/;
const POWERS = [2, 3, 4, 5, 6, 7, 8, 9, 12];
const MULTIPLIERS = [...Array.from({ length: 21 }, (_, i) => i + 1), 25, 40, 99, 100, 101, 200, 999].map(BigInt);
const GROUPS = [1000n, 2000n, 21000n, 300000n, 1000000n, 2000000n];
const RESTS = [1n, 7n, 21n, 100n, 101n, 400n, 999n];
/** Longest connector word learned (und, och, и). */
const MAX_CONNECTOR = 4;
/** Rounds of votes before the builder keeps what is left whole. */
const ITERATIONS = 6;

/** A number to learn from, with the high part `a` and low part `b` it is the sum of (b = 0: a times a power, `power`). */
interface Sample {
  n: bigint;
  a: bigint;
  b: bigint;
  power?: number;
}

/** The multipliers a power is learned from: below 10 for the hundred and for powers a language may not name (10^4: 만; ten hundred is a thousand), any for 10^3, 10^6, 10^9, 10^12. */
function multipliers(power: number): bigint[] {
  const most = power % 3 === 0 ? 999n : 9n;
  return MULTIPLIERS.filter((k) => k <= most);
}

/** The samples, ascending: 0-999, then powers times multipliers, then sums of groups and rests. */
function samples(): Sample[] {
  const out: Sample[] = [];
  for (let n = 0n; n < 1000n; n++) {
    const low = n < 100n ? n % 10n : n % 100n;
    out.push({ n, a: n - low, b: low });
  }
  for (const power of POWERS)
    for (const k of multipliers(power)) out.push({ n: k * 10n ** BigInt(power), a: k, b: 0n, power });
  for (const g of GROUPS) for (const r of RESTS) out.push({ n: g + r, a: g, b: r });
  return out;
}

/** A spelling as the lexicon keeps it: folded, with everything but letters, marks and digits dropped, and the marks a skeleton drops (a combining tilde the letter before has no precomposed form with) too. */
export function formOf(spelled: string): string {
  return [...foldText(spelled).replace(/[^\p{L}\p{M}\p{N}]/gu, "")].filter((ch) => skeletonOf(ch) !== "").join("");
}

/** The language of a locale (de-CH and de are one language). */
function languageOf(locale: string): string {
  return locale.split(/[-_]/)[0]!;
}

/** What a language is learned from: the spellings of each sample, and its decimal words. */
interface Spelled {
  forms: Map<bigint, Set<string>>;
  points: Set<string>;
}

/** Adds `spelled` (one spelling of `n`) to `out` when its form is one the lexicon can keep (letters only, one code unit each). */
function addSpelling(out: Map<bigint, Set<string>>, n: bigint, form: string): void {
  if (form !== "" && !/[0-9]/.test(form) && [...form].every((ch) => skeletonOf(ch).length === 1))
    out.set(n, (out.get(n) ?? new Set()).add(form));
}

/** The words between the two numbers of a rule for decimals (`x.x`: "←← Komma →→"), or null when the rule is no such pair. */
function pointOf(rule: string): string | null {
  const m = /^←[^←]*←([^←→$[\]]*)→[^→]*→→?;?\s*$/u.exec(rule);
  const form = m ? formOf(m[1]!) : "";
  return form === "" ? null : form;
}

/** Every spelling of each sample in the cardinal and numbering rule sets of `locales`, and their decimal words. */
function spellings(locales: string[], list: Sample[]): Spelled {
  const out: Spelled = { forms: new Map(), points: new Set() };
  for (const locale of locales) {
    const json = JSON.parse(readFileSync(join(RBNF_ROOT, "rbnf", `${locale}.json`), "utf8")) as {
      rbnf: { rbnf: { SpelloutRules?: SpelloutJson } };
    };
    const rules = json.rbnf.rbnf.SpelloutRules;
    if (!rules) continue;
    const f = new Formatter(ruleSets(rules), locale);
    const folded = new Map<string, string>();
    for (const set of f.names().filter((name) => RULE_SET.test(name))) {
      for (const [key, text] of Array.isArray(rules[set]) ? rules[set] : []) {
        const point = key === "x.x" || key === "x,x" ? pointOf(text) : null;
        if (point !== null) out.points.add(point);
      }
      for (const { n } of list) {
        const spelled = f.format(n, set);
        if (spelled === null) continue;
        let form = folded.get(spelled);
        if (form === undefined) folded.set(spelled, (form = formOf(spelled)));
        addSpelling(out.forms, n, form);
      }
    }
  }
  return out;
}

/** Every spelling of each sample by the to-words converters of `locales`, and their decimal words (the spelling of 2.5 less those of 2 and 5). */
function toWordsSpellings(locales: string[], list: Sample[]): Spelled {
  const out: Spelled = { forms: new Map(), points: new Set() };
  for (const locale of locales) {
    const t = new ToWords({ localeCode: locale });
    for (const { n } of list) addSpelling(out.forms, n, formOf(t.convert(Number(n))));
    const [whole, part, both] = [t.convert(2), t.convert(5), t.convert(2.5)];
    if (both.startsWith(whole) && both.endsWith(part) && both.length > whole.length + part.length) {
      const point = formOf(both.slice(whole.length, both.length - part.length));
      if (point !== "") out.points.add(point);
    }
  }
  return out;
}

/** What the builder knows of one language. */
interface Knowledge {
  id: string;
  atoms: Map<bigint, Set<string>>;
  connectors: Set<string>;
  points: Set<string>;
  order: Order;
  powerFirst: boolean;
  /** The spellings ("n:form") the grammar has read: adding words never takes a reading away, so each is parsed until it reads. */
  read: Set<string>;
}

/** `k` as one lexicon line (words-rbnf.ts compileLexicon). */
function lineOf(k: Knowledge): string {
  const entries = [...k.atoms.entries()]
    .filter(([, forms]) => forms.size > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([value, forms]) => `${value}=${[...forms].sort().join(",")}`);
  return `${k.id}|${k.order}${k.powerFirst ? "+pm" : ""}|${[...k.connectors].sort().join(",")}|${entries.join(";")}|${[...k.points].sort().join(",")}`;
}

/** One language's reading of its spellings: which samples it reads whole, and the parse spans of one spelling. */
function reader(k: Knowledge): Reader {
  const lexicon = compileLexicon([lineOf(k)]);
  return {
    reads: (form: string, n: bigint) => {
      const key = `${n}:${form}`;
      if (k.read.has(key)) return true;
      const read =
        spansOf(
          form,
          0,
          lexicon,
        )(0)
          .get([...form].length)
          ?.has(decKey(decInt(n))) ?? false;
      if (read) k.read.add(key);
      return read;
    },
    spans: (form: string) => spansOf(form, 0, lexicon),
  };
}

/** A vote for what would let the grammar read `form` as the sum `s` (keys "atom:value:form", "conn:form", "order:tu|ut"), counted into `votes`. */
function proposeSum(
  s: Sample,
  form: string,
  r: Reader,
  connectors: ReadonlySet<string>,
  votes: Map<string, number>,
): void {
  const vote = (key: string): void => {
    votes.set(key, (votes.get(key) ?? 0) + 1);
  };
  const chars = [...form];
  const spans = r.spans(form);
  const is = (from: number, to: number, v: bigint) =>
    spans(from)
      .get(to)
      ?.has(decKey(decInt(v))) ?? false;
  const text = (from: number, to: number) => chars.slice(from, to).join("");
  const len = chars.length;
  const base = (v: bigint) => v < 20n || (v < 100n && v % 10n === 0n) || (v < 1000n && v % 100n === 0n);
  for (let i = 1; i < len; i++) {
    if (is(i, len, s.b)) {
      for (let j = i; j >= Math.max(1, i - MAX_CONNECTOR); j--) {
        if (!is(0, j, s.a)) continue;
        vote("order:tu");
        if (j < i) vote(`conn:${text(j, i)}`);
        return;
      }
    }
    if (s.n < 100n && is(0, i, s.b)) {
      for (let j = i; j <= Math.min(len - 1, i + MAX_CONNECTOR); j++) {
        if (!is(j, len, s.a)) continue;
        vote("order:ut");
        if (j > i) vote(`conn:${text(i, j)}`);
        return;
      }
    }
  }
  for (let i = len - 1; i > 0; i--) {
    if (!is(i, len, s.b)) continue;
    const c = [...connectors].find((c) => text(i - [...c].length, i) === c);
    const j = c === undefined ? i : i - [...c].length;
    if (j > 0) {
      vote(`atom:${s.a}:${text(0, j)}`);
      return;
    }
  }
  if (s.n >= 1000n || !base(s.b)) return;
  for (let i = 1; i < len; i++) {
    if (!is(0, i, s.a)) continue;
    const c = [...connectors].find((c) => text(i, i + [...c].length) === c);
    const j = c !== undefined && i + [...c].length < len ? i + [...c].length : i;
    if (!spans(j).has(len)) {
      vote(`atom:${s.b}:${text(j, len)}`);
      return;
    }
  }
}

/** What would let the grammar read `form` as `s.a` times 10^`s.power`: the power's word after a multiplier it reads (or alone, for 1), else a multiplier below 10 before a power word it knows (két|ezer). */
function proposePower(s: Sample, form: string, r: Reader, k: Knowledge): [bigint, string] | null {
  const chars = [...form];
  const spans = r.spans(form);
  const power = 10n ** BigInt(s.power!);
  const is = (from: number, to: number, v: bigint) =>
    spans(from)
      .get(to)
      ?.has(decKey(decInt(v))) ?? false;
  for (let i = chars.length - 1; i >= 0; i--)
    if ((i === 0 && s.a === 1n) || (i > 0 && is(0, i, s.a))) return [power, chars.slice(i).join("")];
  for (let i = 1; i < chars.length; i++) {
    if (s.a > 1n && is(i, chars.length, s.a)) {
      k.powerFirst = true;
      return [power, chars.slice(0, i).join("")];
    }
  }
  if (s.a > 9n) return null;
  for (let i = 1; i < chars.length; i++) if (is(i, chars.length, power)) return [s.a, chars.slice(0, i).join("")];
  return null;
}

/** What building found for one language: its line, and the samples above 999 it does not read. */
export interface Built {
  line: string;
  missed: bigint[];
}

interface Reader {
  reads: (form: string, n: bigint) => boolean;
  spans: (form: string) => (from: number) => Map<number, Set<string>>;
}

/** Rounds of votes over the sums in `list` not yet read, accepting what at least two spellings ask for, until nothing changes. */
function learnSums(k: Knowledge, list: Sample[], spelled: Map<bigint, Set<string>>, orders: Set<string>): void {
  let open = list.flatMap((s) => [...(spelled.get(s.n) ?? [])].map((form) => ({ s, form })));
  for (let round = 0; round < ITERATIONS && open.length > 0; round++) {
    const r = reader(k);
    open = open.filter(({ s, form }) => !r.reads(form, s.n));
    const votes = new Map<string, number>();
    for (const { s, form } of open) proposeSum(s, form, r, k.connectors, votes);
    let changed = false;
    for (const [key, count] of votes) {
      if (count < 2) continue;
      const [kind, value, form] = key.split(":") as [string, string, string | undefined];
      if (kind === "order" && !orders.has(value)) {
        orders.add(value);
        k.order = orders.has("ut") ? (orders.has("tu") ? "both" : "ut") : "tu";
        changed = true;
      } else if (kind === "conn" && !k.connectors.has(value)) {
        k.connectors.add(value);
        changed = true;
      } else if (kind === "atom" && form) {
        const forms = k.atoms.get(BigInt(value)) ?? new Set<string>();
        if (!forms.has(form)) {
          k.atoms.set(BigInt(value), forms.add(form));
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}

/** Adds `form` to the words of `value`. */
function addAtom(k: Knowledge, value: bigint, form: string): void {
  k.atoms.set(value, (k.atoms.get(value) ?? new Set()).add(form));
}

/** Learns one language from `source`'s spellings of the samples. */
function learn(id: string, source: (list: Sample[]) => Spelled): Built | null {
  const list = samples();
  const { forms: spelled, points } = source(list);
  if (spelled.size === 0) return null;
  const k: Knowledge = {
    id,
    atoms: new Map(),
    connectors: new Set(),
    points,
    order: "tu",
    powerFirst: false,
    read: new Set(),
  };
  const orders = new Set<string>();
  for (const { n } of list)
    if (n < 20n || (n < 100n && n % 10n === 0n) || (n < 1000n && n % 100n === 0n))
      for (const form of spelled.get(n) ?? []) addAtom(k, n, form);
  let r = reader(k);
  for (const top of [100n, 1000n]) {
    const small = list.filter((s) => s.n < top);
    learnSums(k, small, spelled, orders);
    r = reader(k);
    for (const s of small) for (const form of spelled.get(s.n) ?? []) if (!r.reads(form, s.n)) addAtom(k, s.n, form);
    r = reader(k);
  }
  const powers = list.filter((s) => s.power !== undefined);
  for (const s of powers) {
    for (const form of spelled.get(s.n) ?? []) {
      // The word for a hundred is learned even where the hundreds are words of their own (zweihundert), for 24 hundred (vierundzwanzighundert).
      const read = r.reads(form, s.n);
      if (read && s.power !== 2) continue;
      const found = proposePower(s, form, r, k);
      if (read && (found === null || found[0] !== 100n)) continue;
      addAtom(k, ...(found ?? [s.n, form]));
      r = reader(k);
    }
  }
  const sums = list.filter((s) => s.n >= 1000n && s.b > 0n);
  learnSums(k, sums, spelled, orders);
  const final = reader(k);
  const missed = list
    .filter((s) => [...(spelled.get(s.n) ?? [])].some((form) => !final.reads(form, s.n)))
    .map((s) => s.n);
  return { line: lineOf(k), missed };
}

/** The locales cldr-rbnf has spellout rules for, by language (those with grammars of their own left out). */
export function languages(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of readdirSync(join(RBNF_ROOT, "rbnf"))
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const locale = file.slice(0, -".json".length);
    const lang = languageOf(locale);
    if (!OWN_GRAMMAR.has(lang)) out.set(lang, [...(out.get(lang) ?? []), locale]);
  }
  return out;
}

/** The locales to-words has converters for, by language, for the languages CLDR has no spellout rules for (and those with grammars of their own left out). */
export function toWordsLanguages(): Map<string, string[]> {
  const cldr = languages();
  const out = new Map<string, string[]>();
  for (const locale of Object.keys(LOCALES).sort()) {
    const lang = languageOf(locale);
    if (!OWN_GRAMMAR.has(lang) && !cldr.has(SAME_LANGUAGE[lang] ?? lang) && lang !== "en")
      out.set(lang, [...(out.get(lang) ?? []), locale]);
  }
  return out;
}

/** Every language's line and what it misses: CLDR's languages, then to-words' others. */
export function buildLexicon(): Built[] {
  const out: Built[] = [];
  for (const [id, locales] of languages()) {
    const built = learn(id, (list) => spellings(locales, list));
    if (built) out.push(built);
  }
  for (const [id, locales] of toWordsLanguages()) {
    const built = learn(id, (list) => toWordsSpellings(locales, list));
    if (built) out.push(built);
  }
  return out;
}

/** The version of to-words the lexicon's other languages are built from. */
export function toWordsVersion(): string {
  return (JSON.parse(readFileSync(join(TO_WORDS_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The version of cldr-rbnf the lexicon is built from. */
export function rbnfVersion(): string {
  return (JSON.parse(readFileSync(join(RBNF_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The text of src/owner/leak/lexicon.ts for `built`. */
export function lexiconModule(built: Built[]): string {
  return [
    "/**",
    ` * The number words of ${built.length} languages, generated by scripts/number-lexicon.mjs from the Unicode CLDR`,
    ` * spellout rules (cldr-rbnf ${rbnfVersion()}, Unicode License v3) and, for languages CLDR has no spellout rules`,
    ` * for, the converters of to-words ${toWordsVersion()} (MIT); read by words-rbnf.ts. Do not edit:`,
    " * test/unit/owner/leak/lexicon.test.ts fails when this file is not what the script writes.",
    " * A line: language|order|connectors|value=form,form;...|decimal words, where order is tu (tens before units),",
    " * ut or both, with +pm when a power comes before its multiplier (scripts/lexicon/lexicon.ts).",
    " */",
    "",
    "/** One line per language. */",
    "export const LEXICON: readonly string[] = [",
    ...built.map((b) => `  ${JSON.stringify(b.line)},`),
    "];",
    "",
  ].join("\n");
}
