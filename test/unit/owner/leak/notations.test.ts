/** Other notations of a number (src/owner/leak/notations.ts): Roman numerals, bases 16, 8 and 2, minor units; read by value. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inRoman, inWords } from "../../../support/spell-numbers.js";

const reads = (text: string, value: string, digits: number[] = []) => valueCounts(text, digits).has(value);

describe("Roman numerals", () => {
  it.each([
    ["upper case", "MMCD"],
    ["lower case", "mmcd"],
    ["the Unicode Roman numeral letters", "\u216f\u216f\u216d\u216e"],
    ["additive fours", "MMCCCC"],
  ])("reads 2400 written in %s", (_, text) => {
    expect(reads(`floor: ${text}.`, "2400")).toBe(true);
  });

  it("reads any number from 4 to 3999 written as a Roman numeral of three letters or more, in either case (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 3999 }), fc.boolean(), (n, lower) => {
        const roman = inRoman(n);
        fc.pre(roman.length >= 3);
        expect(reads(`the year ${lower ? roman.toLowerCase() : roman} was`, String(n))).toBe(true);
      }),
    );
  });
});

describe("Roman numerals beyond a bare word", () => {
  it.each([
    ["letters apart by full stops and spaces", "M. M. C. D."],
    ["letters apart by spaces", "M M C D"],
    ["letters apart by full stops", "M.M.C.D"],
    ["letters apart by hyphens", "M-M-C-D"],
    ["a numeral before hundred", "XXIV hundred"],
    ["numerals before thousand and hundred", "II thousand IV hundred"],
    ["a vinculum on the thousands", "I\u0305I\u0305CD"],
    ["a macron on the thousands", "I\u0304I\u0304CD"],
  ])("reads 2400 written as %s", (_, text) => {
    expect(reads(`floor: ${text}`, "2400")).toBe(true);
  });

  it("reads a Roman numeral spelled letter by letter, before a scale, or with a vinculum (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 3999 }), fc.constantFrom(". ", " ", ".", "-"), (n, sep) => {
        const roman = inRoman(n);
        fc.pre(roman.length >= 3);
        expect(reads(`the year ${roman.split("").join(sep)} was`, String(n))).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 399 }),
        fc.constantFrom(["hundred", 100], ["thousand", 1000]),
        (n, [scale, times]) => {
          const roman = inRoman(n);
          fc.pre(roman.length >= 2);
          expect(reads(`about ${roman} ${scale} of them`, String(n * (times as number)))).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3999 }), fc.integer({ min: 0, max: 999 }), (high, low) => {
        const over = inRoman(high)
          .split("")
          .map((ch) => `${ch}\u0305`)
          .join("");
        expect(reads(`value ${over}${low === 0 ? "" : inRoman(low)} here`, String(high * 1000 + low))).toBe(true);
      }),
    );
  });
});

describe("numbers in a base named in words", () => {
  const forms = [
    (d: string, b: number) => `${d} in base ${b}`,
    (d: string, b: number) => `in base ${b} it reads ${d}`,
    (d: string, b: number) => `base-${b}: ${d}`,
    (d: string, b: number) =>
      b === 16 ? `${d} in hexadecimal` : b === 2 ? `binary ${d}` : b === 8 ? `octal, ${d}` : `${d} (base ${b})`,
  ];

  it.each([
    ["960 in hexadecimal"],
    ["960 in hex"],
    ["in base 16 it reads 960"],
    ["the value, in hex, is 960"],
    ["binary 1001 0110 0000"],
    ["4540 in octal"],
    ["6666 in base 7"],
    ["written in base sixteen: 960"],
    ["base-2 100101100000"],
  ])("reads 2400 from %j", (text) => {
    expect(reads(`floor: ${text}.`, "2400")).toBe(true);
  });

  it("reads any number in any base from 2 to 36 named before or after it (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 10_000_000 }),
        fc.integer({ min: 2, max: 36 }),
        fc.nat(forms.length - 1),
        (n, base, form) => {
          const digits = n.toString(base);
          fc.pre(/[0-9]/.test(digits));
          expect(reads(`ok: ${forms[form]!(digits, base)}.`, String(n))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a mantissa times a power of ten", () => {
  it.each([
    ["2.4 × 10³", "2400"],
    ["1.25 x 10^4", "12500"],
    ["1.25·10^4", "12500"],
    ["2.4*10**3", "2400"],
    ["2,4 · 10^3", "2400"],
    ["240000 × 10⁻²", "2400"],
    ["2.4 times 10 to the power of 3", "2400"],
  ])("reads %j as %s", (text, value) => {
    expect(reads(`floor: ${text}`, value)).toBe(true);
  });

  it("reads any mantissa times 10 to a power, with any sign and superscript or caret exponents (property)", () => {
    const SUP = "⁰¹²³⁴⁵⁶⁷⁸⁹";
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(" × ", " x ", "·", "*", " times "),
        fc.boolean(),
        (whole, frac, exponent, sign, superscript) => {
          const power = superscript ? `10${SUP[exponent]}` : `10^${exponent}`;
          expect(
            reads(`it is ${whole}.${frac}${sign}${power} exactly`, String(Number(`${whole}.${frac}e${exponent}`))),
          ).toBe(true);
        },
      ),
    );
  });
});

describe("numbers in base 16, 8 and 2", () => {
  it("reads any number below 2^48 written with 0x, 0o, 0b or a trailing h (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 256n, max: 2n ** 48n }), fc.constantFrom("0x", "0X", "0o", "0b", "h"), (n, form) => {
        const written =
          form === "h"
            ? `${n.toString(16)}h`
            : `${form}${n.toString(form[1]!.toLowerCase() === "x" ? 16 : form[1] === "o" ? 8 : 2)}`;
        fc.pre(form !== "h" || /^[0-9]/.test(written));
        expect(reads(`value ${written} here`, n.toString())).toBe(true);
      }),
    );
  });
});

describe("minor units", () => {
  it.each([
    ["cents", "240000 cents"],
    ["minor units", "240,000 minor units"],
    ["céntimos", "240.000 céntimos"],
    ["the cent sign", "240000¢"],
  ])("reads 2400 written in %s", (_, text) => {
    expect(reads(`floor: ${text}`, "2400")).toBe(true);
  });

  it("reads minor units in the check's currency: 2400000 fils is 2400 dinars (three digits), not only 24000", () => {
    expect(reads("2400000 fils", "2400", [3])).toBe(true);
    expect(reads("2400000 fils", "2400")).toBe(false);
  });
});

describe("digits said to be reversed", () => {
  it.each([
    ["0042 backwards"],
    ["read it backwards: 0042"],
    ["reversed, it is 0042"],
    ["zero zero four two, reversed"],
    ["0042 (right to left)"],
  ])("reads 2400 from %j", (text) => {
    expect(reads(`floor: ${text}.`, "2400")).toBe(true);
  });

  it("reads any number's digits reversed, in digits or words, with the word before or after them (property)", () => {
    const WORD = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 99_999_999 }),
        fc.boolean(),
        fc.constantFrom("backwards", "reversed", "in reverse"),
        fc.boolean(),
        (n, words, word, before) => {
          const reversed = [...String(n)].reverse();
          const written = words ? reversed.map((d) => WORD[Number(d)]).join(" ") : reversed.join("");
          expect(reads(before ? `${word}: ${written}.` : `${written} ${word}.`, String(n))).toBe(true);
        },
      ),
    );
  });

  it("reads no reversal in another clause, or of a number with a point", () => {
    expect(reads("it went backwards. Then 0042 came", "2400")).toBe(false);
    expect(reads("backwards compatible with 4.2", "24")).toBe(false);
    expect(reads("reversed in 2023, we sold 42", "2400")).toBe(false);
  });
});

describe("when letters or digits only look like another notation", () => {
  it("reads no Roman numeral of two letters or out of order, no hours, hash or word as a base, no major units as minor", () => {
    const lookalikes: [text: string, value: string][] = [
      ["a CD for 2", "400"],
      ["5 mm thick", "2000"],
      ["the civic is red", "2400"],
      ["mmcdx", "2400"],
      ["open 24h a day", "36"],
      ["commit 0960a8f", "2400"],
      ["such 960 much", "2400"],
      ["2400 TWD", "24"],
      ["World War II and Henry VIII", "2400"],
      ["Louis XIV hundred years later", "2400"],
      ["J. R. R. Tolkien", "2400"],
      ["a hex key of 4 mm", "2400"],
      ["the base 10 system counts 960 of them", "2400"],
      ["hex bolts, 150 of them", "2400"],
      ["in base 12 the price is 1,850", "2400"],
      ["10^3 users and 2.4 GB", "2400"],
      ["version 2.4 x 10 units", "2400"],
    ];
    for (const [text, value] of lookalikes) expect(reads(text, value), text).toBe(false);
  });
});

describe("an amount in major and minor units together", () => {
  it.each([
    ["words, with dollars and cents", "three thousand dollars and twenty-five cents"],
    ["digits, a sign and the cent sign", "$3000 and 25¢"],
    ["French", "trois mille euros et vingt-cinq centimes"],
    ["an ISO code between", "3000 TWD 25 cents"],
    ["a comma", "3,000 dollars, 25 cents"],
  ])("reads 3000.25 from %s", (_, text) => {
    expect(reads(`my floor is ${text}, firm.`, "3000.25")).toBe(true);
  });

  it("reads any whole amount with any cents below a dollar, in digits or English words (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 99 }),
        fc.boolean(),
        (whole, cents, words) => {
          const say = (n: number) => (words ? inWords(n, " ") : String(n));
          const value = `${whole}.${String(cents).padStart(2, "0")}`.replace(/0$/, "");
          expect(reads(`it is ${say(whole)} dollars and ${say(cents)} cents`, value)).toBe(true);
        },
      ),
    );
  });

  it("adds no minor part of a unit or more, and nothing across another word", () => {
    expect(reads("3 dollars and 250 cents", "5.5")).toBe(false);
    expect(reads("3000 dollars for the crib and 25 cents", "3000.25")).toBe(false);
  });
});
