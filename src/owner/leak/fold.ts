/**
 * How the leak gate folds text before reading it (docs/ROOMS.md "never_disclose"): Unicode NFKC
 * (full-width and mathematical forms, compatibility digits and spaces meet their plain forms),
 * case folded, invisible format and default-ignorable characters removed (zero-width spaces and
 * joiners, bidi controls); for numbers also the decimal digits of every script read as ASCII
 * digits (Unicode keeps each script's 0-9 contiguous, so a digit's value is its distance from its
 * script's zero), the Arabic decimal and thousands separators as "." and ",", dashes as "-", and a
 * superscript exponent of 10 kept apart from it (10³ is 10^3, not 103).
 */

/** `text` folded for comparison: NFKC, case folded, invisible characters removed. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "");
}

let zeros: number[] | null = null;

/** The code points of every script's digit zero, ascending (computed once, on the first non-ASCII digit). */
function digitZeros(): number[] {
  if (zeros) return zeros;
  const found: number[] = [];
  const digit = /\p{Nd}/u;
  for (let cp = 0x80; cp <= 0x1ffff; cp++) {
    if (!digit.test(String.fromCodePoint(cp))) continue;
    const last = found.at(-1);
    if (last === undefined || cp - last >= 10) found.push(cp);
  }
  zeros = found;
  return found;
}

/** The value 0-9 of decimal digit `ch` of any script. */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x80) return cp - 0x30;
  const all = digitZeros();
  let zero = all[0]!;
  for (const z of all) if (z <= cp) zero = z;
  return cp - zero;
}

const SUPERSCRIPT = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
/** A power of ten written with a superscript exponent (10³, 10⁻²), which NFKC would fold into the digits 103. */
const POWER_OF_TEN = new RegExp(`(?<![0-9])10([\u207a\u207b]?[${SUPERSCRIPT}]+)`, "gu");

/** `text` folded as foldText does, with every script's decimal digits as ASCII digits, Arabic separators as "." and ",", dashes as "-", and 10 with a superscript exponent as 10^3. */
export function numberText(text: string): string {
  return foldText(
    text.replace(
      POWER_OF_TEN,
      (_, exponent: string) =>
        `10^${[...exponent].map((ch) => (ch === "\u207b" ? "-" : ch === "\u207a" ? "" : String(SUPERSCRIPT.indexOf(ch)))).join("")}`,
    ),
  )
    .replace(/\p{Nd}/gu, (ch) => (ch >= "0" && ch <= "9" ? ch : String(digitValue(ch))))
    .replace(/\u066b/g, ".")
    .replace(/\u066c/g, ",")
    .replace(/[\u2010-\u2015\u2212\ufe63]/g, "-");
}
