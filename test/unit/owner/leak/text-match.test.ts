/** Words on the never_disclose list (src/owner/leak/text-match.ts): case, width, diacritics, look-alikes, separators inside the word. */
import { describe, expect, it } from "vitest";
import { textCount, textNeedle, textViews } from "../../../../src/owner/leak/text-match.js";

const found = (entry: string, text: string) => textCount(textViews(text), textNeedle(entry)!) > 0;

describe("textCount", () => {
  it.each([
    ["upper case", "MY FLOOR"],
    ["full-width letters", "\uff26\uff2c\uff2f\uff2f\uff32"],
    ["zero-width characters inside", "fl\u200bo\u200do\u2060r"],
    ["a bidi override inside", "fl\u202eoor"],
    ["diacritics", "fl\u00f3\u00f6r"],
    ["combining marks", "flo\u0301or"],
    ["Cyrillic look-alikes", "fl\u043e\u043er"],
    ["Greek look-alikes", "FL\u039f\u039fR"],
    ["digits for letters", "fl00r"],
    ["dots between the letters", "f.l.o.o.r"],
    ["a hyphen inside", "fl-oor"],
    ["spaced letters", "f l o o r"],
    ["stars between the letters", "f*l*o*o*r"],
    ["full stops and spaces between the letters", "f. l. o. o. r."],
    ["ROT13", "Sybbe"],
  ])("finds 'floor' written with %s", (_, text) => {
    expect(found("floor", text)).toBe(true);
  });

  it("finds a phrase with its apostrophe and spaces changed", () => {
    for (const text of ["Sara\u2019s address", "SARAS ADDRESS", "sarasaddress", "Sara's  address"])
      expect(found("Sara's address", text)).toBe(true);
  });

  describe("when the word is not there", () => {
    it.each(["the flow of the room", "if loo rolls", "a flat fee", "for lorries"])(
      "does not find 'floor' in %j",
      (text) => {
        expect(found("floor", text)).toBe(false);
      },
    );

    it("does not look for the ROT13 of a word shorter than five letters, which is too often a word (bar is one)", () => {
      expect(found("bar", "one more")).toBe(false);
      expect(found("Sara", "Fnen")).toBe(false);
    });
  });
});
