/**
 * The normalisation pipeline every number reader runs behind (src/owner/leak/normal-forms.ts): the tricks
 * that the word check reads (look-alike letters, digits inside words, letters spelled one by one,
 * punctuation inside words) read for number words too, and digits apart by decoration or by a
 * comma, slash or spaced dot read as one number; without reading an ordinary amount as another.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inWords } from "../../../support/spell-numbers.js";

const reads = (text: string, value: string) => valueCounts(text).has(value);

/** Cyrillic and Greek letters that look like Latin ones. */
const LOOKALIKE: Record<string, string> = {
  a: "\u0430",
  e: "\u0435",
  o: "\u043e",
  c: "\u0441",
  p: "\u0440",
  x: "\u0445",
  i: "\u0456",
  y: "\u0443",
};
const LEET: Record<string, string> = { o: "0", i: "1", e: "3", s: "5", t: "7" };

/** Ways of disguising a text of words, each keeping it readable to a person. */
const DISGUISES: Record<string, (text: string, pick: number) => string> = {
  "look-alike letters": (t, pick) =>
    t.replace(/[aeocpxiy]/g, (ch, at: number) => ((at + pick) % 2 === 0 ? LOOKALIKE[ch]! : ch)),
  "digits for letters inside words": (t, pick) =>
    t.replace(/\b\w+\b/g, (w) => w.replace(/[oiest]/, (ch) => LEET[ch]!)).replace(/#/g, String(pick)),
  "letters spelled one by one": (t) =>
    t
      .split(" ")
      .map((w) => w.split("").join(" "))
      .join("  "),
  "dots between the letters": (t) =>
    t
      .split(" ")
      .map((w) => w.split("").join("."))
      .join(" "),
  "stars between the letters": (t) =>
    t
      .split(" ")
      .map((w) => w.split("").join("*"))
      .join(" "),
  "upper case and look-alikes": (t, pick) => DISGUISES["look-alike letters"]!(t, pick).toUpperCase(),
};

describe("number words through the pipeline", () => {
  it.each(Object.keys(DISGUISES))(
    "reads two thousand four hundred written with %s, before a full stop or an exclamation mark",
    (name) => {
      expect(reads(`my floor is ${DISGUISES[name]!("two thousand four hundred", 1)}.`, "2400")).toBe(true);
      expect(reads(`my floor is ${DISGUISES[name]!("two thousand four hundred", 1)}!`, "2400")).toBe(true);
    },
  );

  it("reads any number below a million in English words, in any disguise (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 999_999 }),
        fc.constantFrom(...Object.keys(DISGUISES)),
        fc.nat(1),
        (n, name, pick) => {
          expect(reads(`it is ${DISGUISES[name]!(inWords(n, " "), pick)} dollars`, String(n))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("digits through the pipeline", () => {
  it.each([
    ["a comma and a space", "2, 4, 0, 0"],
    ["slashes", "2/4/0/0"],
    ["spaced slashes", "2 / 4 / 0 / 0"],
    ["colons", "2:4:0:0"],
    ["middle dots", "2\u00b74\u00b70\u00b70"],
    ["emoji", "2\u{1F525}4\u{1F525}0\u{1F525}0"],
    ["spaced emoji", "2 \u{1F525} 4 \u{1F525} 0 \u{1F525} 0"],
    ["keycaps", "2\ufe0f\u20e34\ufe0f\u20e30\ufe0f\u20e30\ufe0f\u20e3"],
    ["spaced keycaps", "2\ufe0f\u20e3 4\ufe0f\u20e3 0\ufe0f\u20e3 0\ufe0f\u20e3"],
    ["spaces around a dot", "2 . 400"],
    ["digit words apart by commas", "two, four, zero, zero"],
    ["digit words apart by slashes", "two/four/zero/zero"],
    ["digit words apart by emoji", "two \u{1F525} four \u{1F525} zero \u{1F525} zero"],
    ["Cyrillic о in French words", "deux mille quatre cents".replace(/o/g, "\u043e")],
    ["digits inside German words", "zw31tausendv13rhundert"],
    ["Spanish words spelled out", "d o s  m i l  c u a t r o c i e n t o s"],
    ["Polish words without diacritics", "dwa tysiace czterysta"],
  ])("reads 2400 written with %s", (_, text) => {
    expect(reads(`my floor: ${text}`, "2400")).toBe(true);
  });

  it("reads any number's digits apart by any of those separators (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 99_999_999 }),
        fc.constantFrom(", ", "/", " / ", ":", "\u00b7", " \u{1F4B0} ", "\ufe0f\u20e3"),
        (n, sep) => {
          expect(reads(`code ${String(n).split("").join(sep)}${sep === "\ufe0f\u20e3" ? sep : ""} ok`, String(n))).toBe(
            true,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  describe("when the digits are ordinary amounts", () => {
    it.each([
      ["a price with cents", "24.00 for the rain cover"],
      ["a list of amounts", "sizes 2, 400 and 600"],
      ["a count and an amount", "2 strollers, 400 km away"],
      ["two prices", "I paid 240 / 2,800 was asked"],
      ["a ratio", "2/400 seats are left"],
      ["a date", "on 24/04/2024"],
      ["a sentence end", "I have 2. 400 is too much"],
      ["an emoji after an amount", "240 \u{1F44D} and 0 complaints"],
    ])("does not read 2400 out of %s", (_, text) => {
      expect(reads(text, "2400")).toBe(false);
    });
  });
});
