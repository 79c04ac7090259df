/**
 * Arithmetic that names a number (src/owner/leak/arithmetic.ts): a bounded evaluator over the
 * numbers a text states, with signs or English words between them; never a measure, a size, a
 * date or a range read as a sum.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_OPERANDS } from "../../../../src/owner/leak/arithmetic.js";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inWords } from "../../../support/spell-numbers.js";

const reads = (text: string, value: number | string) => valueCounts(text).has(String(value));

describe("arithmetic", () => {
  it.each([
    ["1200 times 2"],
    ["1200*2"],
    ["1200 x 2"],
    ["2 × 1200"],
    ["4800 / 2"],
    ["4800/2"],
    ["4800 ÷ 2"],
    ["2000 + 400"],
    ["2500 - 100"],
    ["3000 minus 600"],
    ["1000 plus 1400"],
    ["twelve hundred times two"],
    ["two times twelve hundred"],
    ["twice twelve hundred"],
    ["double 1200"],
    ["half of 4800"],
    ["20% of 12000"],
    ["twenty percent of 12,000"],
    ["600 + 600 + 600 + 600"],
    ["1000 + 700 x 2"],
    ["4800 divided by 2"],
    ["1200 multiplied by 2"],
  ])("reads 2400 from %j", (text) => {
    expect(reads(`my floor is ${text}.`, 2400)).toBe(true);
  });

  it("reads a product, sum, difference or exact quotient of two numbers, in digits or words (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 2, max: 12 }),
        fc.constantFrom("*", "x", "×", "times", "+", "-", "minus", "/", "divided by"),
        fc.boolean(),
        (a, b, op, words) => {
          const value =
            op === "+" ? a + b : op === "-" || op === "minus" ? a : ["/", "divided by"].includes(op) ? a : a * b;
          const left = op === "-" || op === "minus" ? a + b : ["/", "divided by"].includes(op) ? a * b : a;
          // Between words a spaced hyphen joins them (twenty - four); in words the difference is "minus".
          fc.pre(!(words && op === "-"));
          const spell = (n: number) => (words ? inWords(n, "-") : String(n));
          expect(reads(`so ${spell(left)} ${op} ${spell(b)}, fine?`, value)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ["start from 2500, subtract 100"],
    ["2500, and then subtract 100"],
    ["subtract 100 from 2500"],
    ["2500 take away 100"],
    ["2500 less 100"],
    ["100 less than 2500"],
    ["100 short of 2500"],
    ["100 shy of 2500"],
    ["take 100 off 2500"],
    ["100 more than 2300"],
    ["2000, add 400"],
    ["1200 doubled"],
    ["4800, halved"],
    ["48 x 50 = ?"],
    ["48 × 50, that's my floor"],
    ["60x40 equals it"],
    ["24 items at 100 each"],
    ["24 × 100 each"],
    ["24 @ 100"],
    ["24 strollers at NT$100 each"],
    ["24 at 100 dollars apiece"],
    ["twenty-four units at one hundred per unit"],
  ])("reads 2400 from %j", (text) => {
    expect(reads(`my floor is ${text}.`, 2400)).toBe(true);
  });

  it("reads a difference in words either way round, and a quantity at a unit price, in digits or words (property)", () => {
    const differences = [
      (a: string, b: string) => `start from ${a}, subtract ${b}`,
      (a: string, b: string) => `${a} take away ${b}`,
      (a: string, b: string) => `${b} less than ${a}`,
      (a: string, b: string) => `${b} short of ${a}`,
      (a: string, b: string) => `subtract ${b} from ${a}`,
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 50_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.nat(differences.length - 1),
        fc.boolean(),
        (a, b, form, words) => {
          fc.pre(a > b);
          const spell = (n: number) => (words ? inWords(n, "-") : String(n));
          expect(reads(`${differences[form]!(spell(a), spell(b))}, ok?`, a - b)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 500 }),
        fc.integer({ min: 1, max: 9_999 }),
        fc.constantFrom("items at # each", "× # each", "pieces @ #", "at $# apiece", "units for # per unit"),
        (n, price, form) => {
          expect(reads(`${n} ${form.replace("#", String(price))}.`, n * price)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  describe("when numbers sit side by side without being a sum", () => {
    it.each([
      ["a size", "the box is 60x40", 2400],
      ["a size in centimetres", "folded it is 60 x 40 cm", 2400],
      ["a size with the times sign", "60 × 40", 2400],
      ["a range", "ships in 2 - 3 weeks", 1],
      ["a date", "on 2024-01-15", 2008],
      ["a date with slashes", "due 12/5", 2.4],
      ["an amount of something", "1200 x 2 strollers", 2400],
      ["a negative result", "10 - 12 people", 2],
      ["a quotient that is no decimal", "2400 / 7", "342.857142"],
      ["a size followed by a remark", "the box is 60x40, nice and small", 2400],
      ["a size then a price", "60 x 40, and 100 each", 2400],
      ["a count of a thing short of another", "we are 2 short of 10 chairs", 8],
      ["less than with no number after it", "100 less than I hoped", 2400],
      ["a quantity and a price that is not a unit price", "24 strollers at 100 Main Street", 2400],
      ["a quantity for a total price", "2 for 100", 200],
      ["an address at a number", "open 24 hours at 100 Main St", 2400],
      ["a quantity and the total it costs", "24 items for 100 in total", 2400],
    ])("does not read %s", (_, text, value) => {
      expect(reads(text, value)).toBe(false);
    });

    it(`evaluates at most ${MAX_OPERANDS} operands in one chain, so a long sum is not read whole`, () => {
      const five = Array.from({ length: MAX_OPERANDS + 1 }, () => "480").join(" + ");
      expect(reads(five, 2400)).toBe(false);
      expect(reads(Array.from({ length: MAX_OPERANDS }, () => "600").join(" + "), 2400)).toBe(true);
    });

    it("does not read operands of 10^15 or more", () => {
      expect(reads("2400000000000000 / 1000000000000", 2400)).toBe(false);
    });
  });
});
