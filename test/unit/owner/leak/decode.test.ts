/** Decoding before the check (src/owner/leak/decode.ts): what encoded-looking text says, two layers deep, within a stated bound. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DECODE_LAYERS, decodedForms, MAX_DECODED } from "../../../../src/owner/leak/decode.js";
import { inWords } from "../../../support/spell-numbers.js";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");
const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

describe("decodedForms", () => {
  it.each([
    ["base64", `my number: ${b64("2400")}`],
    ["base64 without padding", b64("2400").replace(/=+$/, "")],
    ["base64url", b64url("two thousand four hundred?")],
    ["hex", hex("2400")],
    ["hex with 0x and spaces", `0x32 34 30 30`],
    ["percent-encoding", "%32%34%30%30"],
    ["percent-encoding of a word", "the%20floor%20is%202%2C400"],
    ["\\x escapes", "\\x32\\x34\\x30\\x30"],
    ["\\u escapes", "\\u0032\\u0034\\u0030\\u0030"],
    ["HTML entities", "&#50;&#52;&#x30;&#x30;"],
    ["base64 of percent-encoding (nested once)", b64(encodeURIComponent("2,400"))],
    ["base64 of base64 (nested once)", b64(b64("2400"))],
  ])("decodes %s", (_, text) => {
    expect(
      decodedForms(text).forms.some(
        (f) => f.includes("2400") || f.includes("2,400") || f.includes("two thousand four hundred"),
      ),
    ).toBe(true);
  });

  it.each([
    ["Morse digits apart by spaces", "..--- ....- ----- -----", "2400"],
    [
      "Morse digits with middle dots and en dashes",
      "\u00b7\u00b7\u2013\u2013\u2013 \u00b7\u00b7\u00b7\u00b7\u2013 \u2013\u2013\u2013\u2013\u2013 \u2013\u2013\u2013\u2013\u2013",
      "2400",
    ],
    ["Morse words apart by slashes", "- .-- --- / - .... --- ..- ... .- -. -..", "two thousand"],
    ["Morse words apart by bars and inside a sentence", "my floor is ..--- | ....- ----- ----- ok", "2 400"],
    ["ROT13 number words", "gjb gubhfnaq sbhe uhaqerq", "two thousand four hundred"],
  ])("decodes %s", (_, text, plain) => {
    expect(decodedForms(text).forms.some((f) => f.includes(plain))).toBe(true);
  });

  it("decodes any number in Morse code, digit by digit, and any number's English words in ROT13 (property)", () => {
    const MORSE = ["-----", ".----", "..---", "...--", "....-", ".....", "-....", "--...", "---..", "----."];
    const rot13 = (t: string) =>
      t.replace(/[a-z]/g, (ch) => String.fromCharCode(((ch.charCodeAt(0) - 97 + 13) % 26) + 97));
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 99_999_999 }), fc.constantFrom(" ", " / "), (n, sep) => {
        expect(
          decodedForms(`code: ${[...String(n)].map((d) => MORSE[Number(d)]).join(sep)} ok`).forms.some((f) =>
            f.replace(/ /g, "").includes(String(n)),
          ),
        ).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 21, max: 999_999 }), (n) => {
        const words = inWords(n, " ");
        fc.pre(words.split(" ").length >= 2);
        expect(decodedForms(`nyy: ${rot13(words)}`).forms.some((f) => f.includes(words))).toBe(true);
      }),
    );
  });

  it(`stops after ${DECODE_LAYERS} layers: base64 of base64 of base64 is not read`, () => {
    expect(decodedForms(b64(b64(b64("2400")))).forms.some((f) => f.includes("2400"))).toBe(false);
  });

  describe("when the text is not encoded", () => {
    it("keeps no decoding of ordinary words, hashes or random tokens", () => {
      const text =
        "The stroller folds flat, nearly new; see entry 3f2a9c01b7e4d5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1";
      expect(decodedForms(text).forms).toEqual([]);
    });

    it.each([
      ["an ellipsis and a dash", "well... - I can do 2,150"],
      ["a rule of dashes", "-----\nprice list\n-----"],
      ["a dash between words", "Friday -- or Saturday"],
      ["a word that is a ROT13 number word", "meet me at the bar, one or two"],
    ])("keeps no Morse or ROT13 decoding of %s", (_, text) => {
      expect(decodedForms(text).forms).toEqual([]);
    });
  });

  it("keeps only the stretches around Morse code and ROT13 number words, never a copy of a long text", () => {
    const filler = "The tool reads the room and lists its offers, bar none. ".repeat(3000);
    const { forms, overflow } = decodedForms(`${filler}my floor: ..--- ....- ----- ----- and gjb gubhfnaq ${filler}`);
    expect(overflow).toBe(false);
    expect(forms.some((f) => f.includes("2400")) && forms.some((f) => f.includes("two thousand"))).toBe(true);
    expect(forms.reduce((n, f) => n + f.length, 0)).toBeLessThan(1000);
  });

  describe("when a hostile message is built to decode a lot", () => {
    it(`keeps at most ${MAX_DECODED} decoded characters and says it stopped`, () => {
      const layer = b64(encodeURIComponent("2400 ".repeat(40)));
      const text = Array.from({ length: 2000 }, () => layer).join(" ");
      const { forms, overflow } = decodedForms(text);
      expect(overflow).toBe(true);
      expect(forms.reduce((n, f) => n + f.length, 0)).toBeLessThanOrEqual(MAX_DECODED);
    });

    it("never keeps more decoded text than the bound, for any input (property)", () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom("MjQwMA==", "%32%34", "32343030", "\\x32", " ", "JTMy", "a"), { maxLength: 400 }),
          (parts) => {
            const text = parts.join("");
            const { forms } = decodedForms(text);
            const kept = forms.reduce((n, f) => n + f.length, 0);
            expect(kept).toBeLessThanOrEqual(MAX_DECODED);
            expect(forms.every((f) => f.length <= text.length)).toBe(true);
          },
        ),
      );
    });
  });
});
