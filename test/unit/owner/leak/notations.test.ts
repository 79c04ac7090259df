/** Other notations of a number (src/owner/leak/notations.ts): Roman numerals, bases 16, 8 and 2, minor units; read by value. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { valueCounts } from "../../../../src/owner/leak/numbers.js";
import { inRoman } from "../../../support/spell-numbers.js";

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

describe("numbers in base 16, 8 and 2", () => {
  it("reads any number below 2^48 written with 0x, 0o, 0b or a trailing h (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 256n, max: 2n ** 48n }), fc.constantFrom("0x", "0X", "0o", "0b", "h"), (n, form) => {
        const written = form === "h" ? `${n.toString(16)}h` : `${form}${n.toString(form[1]!.toLowerCase() === "x" ? 16 : form[1] === "o" ? 8 : 2)}`;
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
    ];
    for (const [text, value] of lookalikes) expect(reads(text, value), text).toBe(false);
  });
});
