/**
 * The number lexicon (src/owner/leak/lexicon.ts, decisions 0440 and 0474): it is what
 * scripts/number-lexicon.mjs builds from the CLDR spellout rules in cldr-rbnf and, for languages
 * CLDR has no rules for, from to-words; its grammar (words-rbnf.ts) reads every spelling it was
 * built from, spellings of numbers it was not built from (any number below ten million, in any of
 * its languages' cardinal rule sets or converters) too, apart from the languages the report
 * names, and decimals written with each language's decimal word.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ToWords } from "to-words";
import {
  buildLexicon,
  formOf,
  languages,
  lexiconModule,
  LEXICON_FILE,
  RBNF_ROOT,
  toWordsLanguages,
  type Built,
} from "../../../../scripts/lexicon/lexicon.js";
import { Formatter, ruleSets, type SpelloutJson } from "../../../../scripts/lexicon/rbnf.js";
import { decInt, decKey } from "../../../../src/owner/leak/decimal.js";
import { numberForms } from "../../../../src/owner/leak/normal-forms.js";
import { LEXICON } from "../../../../src/owner/leak/lexicon.js";
import { defaultLexicon, readRbnf, spansOf } from "../../../../src/owner/leak/words-rbnf.js";

const ROOT = join(import.meta.dirname, "../../../..");
/** Each lexicon language's first decimal word, as the lexicon keeps it. */
const LEXICON_POINTS = new Map(
  LEXICON.map((line) => [line.split("|")[0]!, line.split("|")[4]?.split(",")[0]]).filter(
    (e): e is [string, string] => e[1] !== undefined && e[1] !== "",
  ),
);

let built: Built[];
beforeAll(() => {
  built = buildLexicon();
}, 120_000);

describe("the number lexicon", () => {
  it("is what scripts/number-lexicon.mjs writes from cldr-rbnf (run it after updating cldr-rbnf)", () => {
    expect(readFileSync(join(ROOT, LEXICON_FILE), "utf8")).toBe(lexiconModule(built));
  });

  it("reads every spelling of every number it was built from, in every language", () => {
    expect(built.length).toBeGreaterThanOrEqual(85);
    expect(built.filter((b) => b.missed.length > 0).map((b) => b.line.split("|")[0])).toEqual([]);
  });
});

/** One way of spelling numbers: a CLDR rule set of a locale, or a to-words converter; with the language's index in the lexicon. */
interface Speller {
  lang: number;
  id: string;
  spell: (n: number) => string | null;
}

/** Every locale's cardinal and numbering rule sets, and every to-words converter the lexicon was built from. */
function spellers(): Speller[] {
  const lexicon = defaultLexicon();
  const out: Speller[] = [];
  const index = (id: string) => lexicon.langs.findIndex((l) => l.id === id);
  for (const [id, locales] of languages()) {
    const lang = index(id);
    if (lang < 0) continue;
    for (const locale of locales) {
      const json = (
        JSON.parse(readFileSync(join(RBNF_ROOT, "rbnf", `${locale}.json`), "utf8")) as {
          rbnf: { rbnf: { SpelloutRules?: SpelloutJson } };
        }
      ).rbnf.rbnf.SpelloutRules;
      if (!json) continue;
      const f = new Formatter(ruleSets(json), locale);
      for (const set of f.names().filter((n) => /^%spellout-(numbering|cardinal)(?!.*(year|ordinal))/.test(n)))
        out.push({ lang, id, spell: (n) => f.format(BigInt(n), set) });
    }
  }
  for (const [id, locales] of toWordsLanguages()) {
    const lang = index(id);
    for (const locale of locales) {
      const t = new ToWords({ localeCode: locale });
      if (lang >= 0) out.push({ lang, id, spell: (n) => t.convert(n) });
    }
  }
  return out;
}

/** Languages whose large numbers the grammar does not yet read in every rule set (docs/ROOMS.md "Honest limits"). */
const PARTIAL = new Set(["ak", "ee", "ga", "ka", "kl", "my"]);

describe("numbers the lexicon was not built from (property)", () => {
  const all = spellers();

  it("reads a number below ten million spelled by any rule set of any language, as one word run and inside a sentence", () => {
    const lexicon = defaultLexicon();
    fc.assert(
      fc.property(
        fc.constantFrom(...all.flatMap((s, i) => (PARTIAL.has(s.id) ? [] : [i]))),
        fc.integer({ min: 100, max: 9_999_999 }),
        (i, n) => {
          const { lang, spell } = all[i]!;
          const spelled = spell(n);
          fc.pre(spelled !== null);
          const form = formOf(spelled!);
          expect(spansOf(form, lang, lexicon)(0).get([...form].length)).toContain(String(n));
          // One word shorter than four letters is not read alone (readRbnf): stu, sto, mil.
          fc.pre(/[\s-]/.test(spelled!) || [...form].length >= 4);
          const read = numberForms(`my floor: ${spelled}.`).flatMap((view) =>
            readRbnf(view).map((r) => decKey(r.value)),
          );
          expect(read).toContain(decKey(decInt(n)));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("decimals in words (property)", () => {
  const all = spellers();
  const lexicon = defaultLexicon();

  it("reads a number, a language's decimal word from its CLDR x.x rule or its converter, and digits, as that decimal", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...all.flatMap((s, i) => (PARTIAL.has(s.id) || lexicon.langs[s.lang]!.id === "lt" ? [] : [i]))),
        fc.integer({ min: 2, max: 999 }),
        fc.integer({ min: 1, max: 9 }),
        (i, n, d) => {
          const { lang, id, spell } = all[i]!;
          const line = lexicon.langs[lang]!;
          const point = LEXICON_POINTS.get(line.id)!;
          const [whole, digit] = [spell(n), spell(d)];
          fc.pre(whole !== null && digit !== null && point !== undefined);
          const read = numberForms(`so: ${whole} ${point} ${digit}.`).flatMap((view) =>
            readRbnf(view).map((r) => decKey(r.value)),
          );
          expect(read, id).toContain(`${n}.${d}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
