/** Numbers written with digits (src/owner/leak/numerals.ts): any grouping, any script, decimals, shorthand; read by value, never by substring. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decKey } from "../../../../src/owner/leak/decimal.js";
import { numberText } from "../../../../src/owner/leak/fold.js";
import { readNumerals } from "../../../../src/owner/leak/numerals.js";

const values = (text: string) => new Set(readNumerals(numberText(text)).map((r) => decKey(r.value)));

/** The zero of some scripts' decimal digits: ASCII, full-width, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, Tibetan, Myanmar, Mongolian. */
const ZEROS = [0x30, 0xff10, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xf20, 0x1040, 0x1810, 0x1d7ce];
const SEPARATORS = [",", ".", " ", "\u2009", "\u202f", "\u00a0", "'", "\u2019", "_"];

/** `n` with its digits grouped by threes with `sep` and written in the script whose zero is `zero`. */
function spell(n: number, sep: string, zero: number): string {
  const grouped = n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return grouped.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

describe("readNumerals", () => {
  it.each([
    ["2,400", "2400"],
    ["2 400", "2400"],
    ["2.400", "2400"],
    ["2\u2009400", "2400"],
    ["2\u202f400", "2400"],
    ["2'400", "2400"],
    ["2\u2019400", "2400"],
    ["2_400", "2400"],
    ["24_00", "2400"],
    ["2400.00", "2400"],
    ["2,400.00", "2400"],
    ["2.400,00", "2400"],
    ["2 400,50", "2400.5"],
    ["2,40,000", "240000"],
    ["1.234.567,89", "1234567.89"],
    ["NT$2400", "2400"],
    ["2400TWD", "2400"],
    ["\uff12\uff14\uff10\uff10", "2400"],
    ["\u0662\u0664\u0660\u0660", "2400"],
    ["\u0968\u096a\u0966\u0966", "2400"],
    ["\u0e52\u0e54\u0e50\u0e50", "2400"],
    ["\u0662\u066c\u0664\u0660\u0660", "2400"],
    ["2.4k", "2400"],
    ["2.4K", "2400"],
    ["2,4k", "2400"],
    ["2k4", "2400"],
    ["2.4 k", "2400"],
    ["1.2m", "1200000"],
    ["2.4e3", "2400"],
    ["2-4-0-0", "2400"],
    ["2 4 0 0", "2400"],
    ["24 00", "2400"],
    ["0912 345 678", "912345678"],
  ])("reads %j as %s", (text, value) => {
    expect(values(text)).toContain(value);
  });

  it("reads 2.400 both ways, since both are written", () => {
    expect(values("2.400")).toEqual(new Set(["2400", "2.4"]));
  });

  describe("when the digits merely contain another number", () => {
    it.each([
      ["324,000", "324000"],
      ["324000", "324000"],
      ["2,400,000", "2400000"],
      ["2 400 000", "2400000"],
      ["12 400", "12400"],
      ["24.00", "24"],
      ["24,000", "24000"],
    ])("reads %j only as %s", (text, value) => {
      expect(values(text)).toEqual(new Set([value]));
    });

    it("does not read 2400 out of 32400 or 240000", () => {
      for (const text of ["32400", "240000", "1 240 000", "24.001", "2kg of 400"])
        expect(values(text)).not.toContain("2400");
    });

    it("reads a phone number or a date of three groups or more only whole, and dots between single digits as a version", () => {
      for (const text of [
        "02 2400 1234",
        "+886 2 2400 1234",
        "02-2400-1234",
        "2400-01-15",
        "version 2.4.0.0",
        "at 10.2.4.0.0",
      ])
        expect(values(text)).not.toContain("2400");
      expect(values("02 2400 1234")).toEqual(new Set(["224001234"]));
    });
  });

  it("reads any integer grouped by any separator in any script as exactly its value (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 999_999_999 }),
        fc.constantFrom(...SEPARATORS),
        fc.constantFrom(...ZEROS),
        (n, sep, zero) => {
          const read = values(spell(n, sep, zero));
          expect(read).toContain(String(n));
          for (const v of read) expect(v === String(n) || v.includes(".")).toBe(true);
        },
      ),
    );
  });

  it("never reads another integer's spelling as a given integer (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.constantFrom(...SEPARATORS),
        fc.constantFrom(...ZEROS),
        (secret, other, sep, zero) => {
          fc.pre(secret !== other);
          expect(values(`I offer ${spell(other, sep, zero)} for it`)).not.toContain(String(secret));
        },
      ),
    );
  });
});
