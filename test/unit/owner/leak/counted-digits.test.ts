/**
 * Digits said as counted words (src/owner/leak/words-en.ts): "two zeros", "three 9s", "a pair of
 * zeros", "double zero" after the digits before them ("24 followed by two zeros") or in a later
 * message (split.ts); never dice, a score or a count read as digits of a secret.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDisclosure } from "../../../../src/owner/index.js";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inWords } from "../../../support/spell-numbers.js";

const reads = (text: string, value: string) => valueCounts(text).has(value);
const UNIT = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const PLURAL = ["zeros", "ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines"];

/** `count` times the digit `d` said as a counted group, in one of the ways people say it. */
function counted(d: number, count: number, form: number): string {
  if (form === 0) return `${UNIT[count]} ${PLURAL[d]}`;
  if (form === 1) return `${count} ${d}s`;
  if (count === 2 && form === 2) return `a pair of ${PLURAL[d]}`;
  return `${["", "", "double", "triple", "quadruple"][count]} ${UNIT[d]}`;
}

describe("counted digits", () => {
  it.each([
    ["24 followed by two zeros", "2400"],
    ["twenty-four and two zeros", "2400"],
    ["two four, double zero", "2400"],
    ["24 with a pair of zeros", "2400"],
    ["24 then two 0s", "2400"],
    ["one eight five, then double zero", "18500"],
    ["three 6s", "666"],
  ])("reads %j as %s", (text, value) => {
    expect(reads(`my floor: ${text}.`, value)).toBe(true);
  });

  it("reads any number's digits followed by a counted group (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 2, max: 4 }),
        fc.nat(3),
        fc.constantFrom(" followed by ", " then ", ", ", " and "),
        fc.boolean(),
        (head, d, count, form, join, words) => {
          const said = counted(d, count, form);
          fc.pre(!(words && join === ", ")); // a comma after words is where a counted group starts a new item, read too, but a whole number in words joins only by a word
          const text = `${words ? inWords(head, "-") : String(head)}${join}${said}`;
          expect(reads(`so: ${text}.`, `${head}${String(d).repeat(count)}`)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads a counted group in a later message as the digits that end a split secret", () => {
    for (const [recent, body] of [
      ["my floor starts with 24", "and ends with two zeros"],
      ["it begins twenty-four", "then double zero"],
      ["first 18", "then a pair of fives"],
    ] as const) {
      expect(
        findDisclosure({ kind: "say", body }, { never: [body.includes("five") ? "1855" : "2400"], recent: [recent] }),
        body,
      ).toMatchObject({ form: "split" });
    }
  });

  describe("when counted words are dice, a score or a count", () => {
    it.each([
      ["I rolled two sixes", "2400"],
      ["we need 24 and two of them spare", "2400"],
      ["two zeros", "2400"],
      ["the code has three nines in it", "2400"],
      ["24 guests, two of them zero-waste", "2400"],
      ["I have 2 two-year-olds", "22"],
    ])("does not read %j as %s", (text, value) => {
      expect(reads(text, value)).toBe(false);
    });

    it("does not chain an amount after a count over messages", () => {
      expect(
        findDisclosure({ kind: "say", body: "and two sixes" }, { never: ["2400"], recent: ["I rolled 24 times"] }),
      ).toBeNull();
    });
  });
});
