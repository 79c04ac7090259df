/** Numbers spelled the way people write them, for the leak gate's tests (test/unit/owner/leak/). */

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** `n` (below a billion) in English words, as a person writes it: "two thousand four hundred and five", tens and units joined by `sep`. */
export function inWords(n: number, sep: string): string {
  const below100 = (k: number) =>
    k < 20 ? ONES[k]! : TENS[Math.floor(k / 10)]! + (k % 10 ? `${sep}${ONES[k % 10]}` : "");
  const below1000 = (k: number) =>
    [k >= 100 ? `${ONES[Math.floor(k / 100)]} hundred` : "", k % 100 ? below100(k % 100) : ""]
      .filter(Boolean)
      .join(" and ");
  if (n === 0) return "zero";
  const parts = [
    [1_000_000, "million"],
    [1000, "thousand"],
    [1, ""],
  ] as const;
  return parts
    .filter(([unit]) => Math.floor(n / unit) % 1000 > 0)
    .map(([unit, word]) => `${below1000(Math.floor(n / unit) % 1000)}${word ? ` ${word}` : ""}`)
    .join(" ");
}

const ROMAN: [number, string][] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

/** `n` (1-3999) as a Roman numeral in the usual subtractive form. */
export function inRoman(n: number): string {
  let out = "";
  for (const [value, letters] of ROMAN) for (; n >= value; n -= value) out += letters;
  return out;
}

const KANA = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"];

/** `n` (below a hundred million) read aloud in hiragana, with the sound changes of standard Japanese (さんびゃく, はっせん). */
export function inKana(n: number): string {
  const section = (k: number) => {
    const [th, hu, te, un] = [Math.floor(k / 1000), Math.floor(k / 100) % 10, Math.floor(k / 10) % 10, k % 10];
    const thousands =
      th === 0 ? "" : th === 1 ? "せん" : th === 3 ? "さんぜん" : th === 8 ? "はっせん" : `${KANA[th]}せん`;
    const hundreds =
      hu === 0
        ? ""
        : hu === 1
          ? "ひゃく"
          : hu === 3
            ? "さんびゃく"
            : hu === 6
              ? "ろっぴゃく"
              : hu === 8
                ? "はっぴゃく"
                : `${KANA[hu]}ひゃく`;
    return thousands + hundreds + (te === 0 ? "" : te === 1 ? "じゅう" : `${KANA[te]}じゅう`) + KANA[un];
  };
  const high = Math.floor(n / 10000);
  return (high ? `${high === 1 ? "いち" : section(high)}まん` : "") + section(n % 10000);
}
