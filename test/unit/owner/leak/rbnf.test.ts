/** The RBNF formatter the lexicon is built with (scripts/lexicon/rbnf.ts): spellings ICU gives for the same rules. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RBNF_ROOT } from "../../../../scripts/lexicon/lexicon.js";
import { Formatter, ruleSets, type SpelloutJson } from "../../../../scripts/lexicon/rbnf.js";

const formatter = (locale: string) => {
  const json = JSON.parse(readFileSync(join(RBNF_ROOT, "rbnf", `${locale}.json`), "utf8")) as {
    rbnf: { rbnf: { SpelloutRules: SpelloutJson } };
  };
  return new Formatter(ruleSets(json.rbnf.rbnf.SpelloutRules), locale);
};
const spell = (locale: string, set: string, n: number) =>
  formatter(locale)
    .format(BigInt(n), set)
    ?.replace(/\u00ad/g, "");

describe("the RBNF formatter", () => {
  it.each([
    ["en", "%spellout-numbering", 2400, "two thousand four hundred"],
    ["en", "%spellout-numbering-verbose", 101, "one hundred and one"],
    ["en", "%spellout-numbering", 2_400_000, "two million four hundred thousand"],
    ["fr", "%spellout-cardinal-masculine", 71, "soixante-et-onze"],
    ["fr", "%spellout-cardinal-masculine", 80, "quatre-vingts"],
    ["fr", "%spellout-cardinal-masculine", 81, "quatre-vingt-un"],
    ["fr", "%spellout-cardinal-masculine", 200, "deux cents"],
    ["fr", "%spellout-cardinal-masculine", 201, "deux cent un"],
    ["fr", "%spellout-cardinal-masculine", 2400, "deux mille quatre cents"],
    ["de", "%spellout-numbering", 21, "einundzwanzig"],
    ["de", "%spellout-numbering", 2400, "zweitausendvierhundert"],
    ["es", "%spellout-numbering", 21, "veintiuno"],
    ["es", "%spellout-numbering", 100, "cien"],
    ["es", "%spellout-numbering", 101, "ciento uno"],
    ["ru", "%spellout-numbering", 2000, "две тысячи"],
    ["ru", "%spellout-numbering", 5000, "пять тысяч"],
    ["ru", "%spellout-cardinal-masculine-genitive", 2400, "двух тысяч четырехсот"],
    ["hu", "%spellout-cardinal", 2400, "kétezernégyszáz"],
  ])("spells %s %s %i as %j", (locale, set, n, expected) => {
    expect(spell(locale, set, n)).toBe(expected);
  });

  describe("when a number needs a rule the formatter does not read", () => {
    it("says so (null) rather than spell it wrong: a set that does not exist, a negative number", () => {
      expect(formatter("en").format(5n, "%no-such-set")).toBeNull();
      expect(formatter("en").format(-5n, "%spellout-numbering")).toBeNull();
    });
  });
});
