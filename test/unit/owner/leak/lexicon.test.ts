/**
 * The number lexicon (src/owner/leak/lexicon.ts, decision 0440): it is what scripts/number-lexicon.mjs
 * builds from the CLDR spellout rules in cldr-rbnf, its grammar (words-rbnf.ts) reads every spelling
 * it was built from, and spellings of numbers it was not built from (any number below ten million,
 * in any of its languages' cardinal rule sets) too, apart from the languages the report names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildLexicon, formOf, languages, lexiconModule, LEXICON_FILE, RBNF_ROOT, type Built } from "../../../../scripts/lexicon/lexicon.js";
import { Formatter, ruleSets, type SpelloutJson } from "../../../../scripts/lexicon/rbnf.js";
import { decInt, decKey } from "../../../../src/owner/leak/decimal.js";
import { numberViews } from "../../../../src/owner/leak/views.js";
import { defaultLexicon, readRbnf, spansOf } from "../../../../src/owner/leak/words-rbnf.js";

const ROOT = join(import.meta.dirname, "../../../..");

let built: Built[];
beforeAll(() => {
  built = buildLexicon();
}, 120_000);

describe("the number lexicon", () => {
  it("is what scripts/number-lexicon.mjs writes from cldr-rbnf (run it after updating cldr-rbnf)", () => {
    expect(readFileSync(join(ROOT, LEXICON_FILE), "utf8")).toBe(lexiconModule(built));
  });

  it("reads every spelling of every number it was built from, in every language", () => {
    expect(built.length).toBeGreaterThanOrEqual(70);
    expect(built.filter((b) => b.missed.length > 0).map((b) => b.line.split("|")[0])).toEqual([]);
  });
});

/** Every locale's cardinal and numbering rule sets, with the language's index in the lexicon. */
function spellers(): { lang: number; id: string; f: Formatter; set: string }[] {
  const lexicon = defaultLexicon();
  const out: { lang: number; id: string; f: Formatter; set: string }[] = [];
  for (const [id, locales] of languages()) {
    const lang = lexicon.langs.findIndex((l) => l.id === id);
    if (lang < 0) continue;
    for (const locale of locales) {
      const json = (JSON.parse(readFileSync(join(RBNF_ROOT, "rbnf", `${locale}.json`), "utf8")) as { rbnf: { rbnf: { SpelloutRules?: SpelloutJson } } }).rbnf.rbnf.SpelloutRules;
      if (!json) continue;
      const f = new Formatter(ruleSets(json), locale);
      for (const set of f.names().filter((n) => /^%spellout-(numbering|cardinal)(?!.*(year|ordinal))/.test(n))) out.push({ lang, id, f, set });
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
      fc.property(fc.constantFrom(...all.flatMap((s, i) => (PARTIAL.has(s.id) ? [] : [i]))), fc.integer({ min: 100, max: 9_999_999 }), (i, n) => {
        const { lang, f, set } = all[i]!;
        const spelled = f.format(BigInt(n), set);
        fc.pre(spelled !== null);
        const form = formOf(spelled!);
        expect(spansOf(form, lang, lexicon)(0).get([...form].length)).toContain(String(n));
        // One word shorter than four letters is not read alone (readRbnf): stu, sto, mil.
        fc.pre(/[\s-]/.test(spelled!) || [...form].length >= 4);
        const read = numberViews(`my floor: ${spelled}.`).flatMap((view) => readRbnf(view).map((r) => decKey(r.value)));
        expect(read).toContain(decKey(decInt(n)));
      }),
      { numRuns: 400 },
    );
  });
});
