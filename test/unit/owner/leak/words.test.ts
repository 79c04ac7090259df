/** Number words (src/owner/leak/words-en.ts, words-cjk.ts): small grammars, read by value. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decKey } from "../../../../src/owner/leak/decimal.js";
import { numberText } from "../../../../src/owner/leak/fold.js";
import { readCjk, readKana } from "../../../../src/owner/leak/words-cjk.js";
import { readEnglish } from "../../../../src/owner/leak/words-en.js";
import { entryValues } from "../../../../src/owner/leak/numbers.js";
import { inKana, inWords } from "../../../support/spell-numbers.js";

const english = (text: string) => new Set(readEnglish(numberText(text)).map((r) => decKey(r.value)));
const cjk = (text: string) => new Set(readCjk(numberText(text)).map((r) => decKey(r.value)));
const kana = (text: string) => new Set(readKana(numberText(text)).map((r) => decKey(r.value)));

const DIGITS_ZH = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/** `n` (below a hundred million) in Chinese numerals, with 零 for skipped places as written. */
function inChinese(n: number): string {
  const section = (k: number) => {
    let out = "";
    let zero = false;
    for (const [unit, mark] of [
      [1000, "千"],
      [100, "百"],
      [10, "十"],
      [1, ""],
    ] as const) {
      const d = Math.floor(k / unit) % 10;
      if (d === 0) {
        zero = out !== "";
        continue;
      }
      out += (zero ? "零" : "") + DIGITS_ZH[d] + mark;
      zero = false;
    }
    return out;
  };
  if (n === 0) return "零";
  const high = Math.floor(n / 10000);
  const low = n % 10000;
  return (high ? `${section(high)}万` : "") + (high && low && low < 1000 ? "零" : "") + (low ? section(low) : "");
}

describe("readEnglish", () => {
  it.each([
    ["two thousand four hundred", "2400"],
    ["Two Thousand, Four Hundred", "2400"],
    ["two thousand and four hundred", "2400"],
    ["twenty-four hundred", "2400"],
    ["twenty four hundred", "2400"],
    ["24 hundred", "2400"],
    ["2 thousand 4 hundred", "2400"],
    ["2.4 thousand", "2400"],
    ["two point four thousand", "2400"],
    ["two four zero zero", "2400"],
    ["two four oh oh", "2400"],
    ["twentyfourhundred", "2400"],
    ["two-thousand-four-hundred", "2400"],
    ["a thousand", "1000"],
    ["four hundred and twenty", "420"],
    ["one million two hundred thousand", "1200000"],
    ["twenty-four hundred thousand", "2400000"],
    ["three lakh", "300000"],
    ["2.4 grand", "2400"],
  ])("reads %j as %s", (text, value) => {
    expect(english(text)).toContain(value);
  });

  describe("when the words say another number", () => {
    it.each([
      ["two thousand four hundred and fifty", "2450"],
      ["twenty-two thousand four hundred", "22400"],
      ["three hundred twenty-four thousand", "324000"],
    ])("reads %j only as %s", (text, value) => {
      expect(english(text)).toEqual(new Set([value]));
    });

    it("reads nothing in text without number words", () => {
      expect(english("the stroller folds flat and is nearly new")).toEqual(new Set());
    });
  });
});

describe("digits and words mixed in one number", () => {
  const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

  it.each([
    ["twenty-4 hundred", "2400"],
    ["twenty 4 hundred", "2400"],
    ["2 thousand 4 hundred", "2400"],
    ["2 thousand four hundred", "2400"],
    ["two thousand 4 hundred", "2400"],
    ["24 hundred", "2400"],
    ["24 zero zero", "2400"],
    ["2 four 0 0", "2400"],
  ])("reads %j as %s", (text, value) => {
    expect(english(text)).toContain(value);
  });

  it("reads a tens word with a digit, before hundred or thousand, and a number's digits in words and numerals (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(["hundred", 100], ["thousand", 1000]),
        fc.constantFrom("-", " "),
        (tens, unit, [scale, times], sep) => {
          expect(english(`about ${TENS[tens]}${sep}${unit} ${scale} of them`)).toContain(
            String((tens * 10 + unit) * (times as number)),
          );
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 99_999_999 }), fc.infiniteStream(fc.boolean()), (n, words) => {
        const digits = String(n).split("");
        const said = digits.map((d) =>
          words.next().value
            ? ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][Number(d)]!
            : d,
        );
        fc.pre(said.filter((d) => /[a-z]/.test(d)).length >= 2);
        expect(english(`code ${said.join(" ")} ok`)).toContain(String(n));
      }),
    );
  });

  describe("when digits and words are a count and a thing", () => {
    it.each([
      ["I have 2 two-year-olds", "22"],
      ["twenty 4-packs", "24"],
      ["2 one-bedroom flats", "21"],
    ])("does not read %j as %s", (text, value) => {
      expect(english(text)).not.toContain(value);
    });
  });
});

describe("every number in words (property)", () => {
  it("reads any number below a billion written in English words as that number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom(" ", "-"), (n, sep) => {
        expect(english(`it is ${inWords(n, sep)} dollars`)).toContain(String(n));
      }),
    );
  });

  it("reads any number below a hundred million written in Chinese numerals as that number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        expect(cjk(`價格${inChinese(n)}元`)).toContain(String(n));
      }),
    );
  });
});

describe("readCjk", () => {
  it.each([
    ["二千四百", "2400"],
    ["两千四百", "2400"],
    ["兩千四百", "2400"],
    ["兩千四", "2400"],
    ["两千四", "2400"],
    ["贰仟肆佰", "2400"],
    ["貳仟肆佰元", "2400"],
    ["2千4百", "2400"],
    ["2.4千", "2400"],
    ["二點四千", "2400"],
    ["二四〇〇", "2400"],
    ["二千四百円です", "2400"],
    ["弐千四百", "2400"],
    ["三百五", "350"],
    ["两万四", "24000"],
    ["二千零四", "2004"],
    ["一万二千四百", "12400"],
    ["二千四百万", "24000000"],
    ["一亿二千万", "120000000"],
    ["ニ千四百", "2400"],
    ["ハ千ー百", "8100"],
  ])("reads %j as %s", (text, value) => {
    expect(cjk(text)).toContain(value);
  });

  describe("when the numerals say another number", () => {
    it.each([
      ["二千四百五十", "2450"],
      ["三十二万四千", "324000"],
      ["一万二千四百", "12400"],
    ])("reads %j only as %s", (text, value) => {
      expect(cjk(text)).toEqual(new Set([value]));
    });

    it("reads katakana that look like numerals only beside a unit: ハート and ニコニコ are words", () => {
      expect(cjk("ハート、ニコニコ、コーヒー")).toEqual(new Set());
    });
  });
});

describe("readKana", () => {
  it.each([
    ["にせんよんひゃく", "2400"],
    ["ニセンヨンヒャク", "2400"],
    ["にせんよんひゃくえんです", "2400"],
    ["さんびゃくごじゅう", "350"],
    ["はっせんろっぴゃく", "8600"],
    ["いちまんにせん", "12000"],
    ["キューセン", "9000"],
    ["にせん よんひゃく", "2400"],
  ])("reads %j as %s", (text, value) => {
    expect(kana(text)).toContain(value);
  });

  it("reads any number below a hundred million read aloud in hiragana or katakana (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 11, max: 99_999_999 }), fc.boolean(), (n, katakana) => {
        const said = inKana(n);
        fc.pre(!/^(?:じゅう|ひゃく|せん|いちまん)$/.test(said));
        const written = katakana
          ? said.replace(/[\u3041-\u3096]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60))
          : said;
        expect(kana(`ねだんは${written}えんです`)).toContain(String(n));
      }),
    );
  });

  describe("when kana spell a word, not a number", () => {
    it.each(["さんにん", "いちご", "しごと", "せんせい", "こんにちは", "にほんご", "ごご", "にいさん", "ひゃくえん"])(
      "reads no number of two places or more from %j",
      (text) => {
        expect([...kana(text)].filter((v) => Number(v) >= 10)).toEqual([]);
      },
    );
  });
});

describe("entryValues", () => {
  it.each([
    ["2400", ["2400"]],
    ["2,400", ["2400", "2.4"]],
    ["NT$2,400", ["2400", "2.4"]],
    ["2400 TWD", ["2400"]],
    ["2400元", ["2400"]],
    ["two thousand four hundred", ["2400"]],
    ["二千四百", ["2400"]],
    ["2400.50", ["2400.5"]],
  ])("reads the entry %j as one number", (entry, keys) => {
    expect(entryValues(entry)).toEqual(new Set(keys));
  });

  it.each(["floor", "Sara's address", "2400 Main St", "room 12"])("keeps %j as text", (entry) => {
    expect(entryValues(entry)).toBeNull();
  });
});
