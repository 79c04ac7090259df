/**
 * Fractions and decimals in number words (src/owner/leak/words-en.ts, words-rbnf.ts): "and a half",
 * "and a quarter", "and three quarters" after a number or a scale, "point" and each language's
 * decimal word from its CLDR rules; never an honest half hour read as another number.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inWords } from "../../../support/spell-numbers.js";

const reads = (text: string, value: string) => valueCounts(text).has(value);

const FRACTION: Record<string, number> = {
  "and a half": 0.5,
  "and one half": 0.5,
  "and a quarter": 0.25,
  "and three quarters": 0.75,
};

describe("English fractions", () => {
  it.each([
    ["two and a half thousand", "2500"],
    ["one and a half thousand", "1500"],
    ["twenty-three and three quarters hundred", "2375"],
    ["a million and a half", "1500000"],
    ["two thousand and a half", "2500"],
    ["2 and a half thousand", "2500"],
    ["twelve and a quarter", "12.25"],
  ])("reads %j as %s", (text, value) => {
    expect(reads(`my floor is ${text}.`, value)).toBe(true);
  });

  it("reads any number below a thousand with a fraction, alone or before a scale (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom(...Object.keys(FRACTION)),
        fc.constantFrom(["", 1], [" thousand", 1000], [" million", 1_000_000]),
        (n, fraction, [scale, times]) => {
          const value = (n + FRACTION[fraction]!) * (times as number);
          expect(reads(`it is ${inWords(n, "-")} ${fraction}${scale} at most`, String(value))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  describe("when a fraction is an honest measure of something else", () => {
    it.each([
      ["two and a half hours", "2400"],
      ["I can wait two and a half weeks", "2500"],
      ["two and a half thousand people", "2400"],
      ["a half", "0.5"],
      ["and a half", "0.5"],
    ])("does not read %j as %s", (text, value) => {
      expect(reads(text, value)).toBe(false);
    });
  });
});
