/**
 * The leak gate's normalisation pipeline (docs/ROOMS.md "never_disclose"): the few views of a text
 * that every reader of the gate runs on, numbers and words alike, so a spelling trick that works
 * on one grammar works on none. For numbers (numberForms):
 *   folded = numberText (fold.ts): NFKC, case, invisible characters, every script's digits;
 *   loose  = the folded view with decoration dropped (keycap marks after a digit, emoji and other
 *            symbols between digits read as one separator), single digits apart by a comma, slash,
 *            colon or middle dot (with or without spaces) and digits around a spaced dot read as
 *            one number's separators, digits and @ $ | ! inside a word read as letters (tw0, f1ve),
 *            punctuation inside a word dropped (f.o.u.r), words apart by a comma, slash or emoji
 *            read as neighbours, and letters spelled out one by one joined (t w o, M. M. C. D.);
 * and every word a grammar compares is compared by its skeleton: diacritics (Latin, Greek and
 * Cyrillic combining marks) dropped, Cyrillic and Greek look-alike letters read as Latin, l read as
 * i (1 and l look alike). text-match.ts builds its loose view from the same steps.
 *
 * Bound: each view is a fixed number of linear passes over the text, and there are at most two.
 */
import { numberText } from "./fold.js";

const LOOKALIKE: Record<string, string> = Object.fromEntries(
  [
    "аa",
    "вb",
    "еe",
    "кk",
    "мm",
    "нh",
    "оo",
    "рp",
    "сc",
    "тt",
    "уy",
    "хx",
    "іi",
    "јj",
    "ѕs",
    "ԁd",
    "һh",
    "ӏi",
    "αa",
    "βb",
    "εe",
    "ζz",
    "ηh",
    "ιi",
    "κk",
    "μm",
    "νv",
    "οo",
    "ρp",
    "τt",
    "υy",
    "χx",
    "ωw",
  ].map((pair) => [pair[0]!, pair[1]!]),
);
const LEET: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
  "@": "a",
  $: "s",
  "|": "i",
  "!": "i",
};

/** `text` as its skeleton: Latin, Greek and Cyrillic diacritics and apostrophes dropped (п'ять, пʼять), look-alike letters as Latin, l as i; one character in, at most one out, so offsets stay close. */
export function skeleton(text: string): string {
  // ASCII has no marks and no look-alikes: only l and the apostrophe change (most text the gate reads, and every short slice arithmetic.ts compares).
  if (!/[^\x00-\x7f]/.test(text)) return text.replace(/l/g, "i").replace(/'/g, "");
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .replace(/[^\x00-\x7f]/g, (ch) => LOOKALIKE[ch] ?? ch)
    .replace(/l/g, "i")
    .replace(/['\u2019\u02bc]/g, "");
}

const skeletons = new Map<string, string>();
/** How many code points skeletonOf remembers (a hostile text cannot grow it past this). */
const MAX_REMEMBERED = 8192;

/** The skeleton of one code point, remembered; a lone mark becomes "". */
export function skeletonOf(ch: string): string {
  let s = skeletons.get(ch);
  if (s !== undefined) return s;
  s = skeleton(ch);
  if (skeletons.size < MAX_REMEMBERED) skeletons.set(ch, s);
  return s;
}

/** `folded` with the digits and @ $ | ! of every word that also has a letter read as letters (fl00r, tw0, $ara); words without a letter are left alone; with `edges` false, @ $ | ! only between letters (a word's closing ! stays punctuation). */
export function unleet(folded: string, edges = true): string {
  const word = edges ? /[\p{L}\p{N}@$|!]+/gu : /[\p{L}\p{N}]+(?:[@$|!]+[\p{L}\p{N}]+)*/gu;
  return folded.replace(word, (w) =>
    /\p{L}/u.test(w) && /[\p{N}@$|!]/u.test(w) ? w.replace(/[0-9@$|!]/g, (ch) => LEET[ch] ?? ch) : w,
  );
}

/** `text` with every run of three or more single letters (or digits, with `digits`) apart by one space, or a full stop and a space, joined (f l o o r, M. M. C. D.). */
export function joinSpelled(text: string, digits: boolean): string {
  const run = digits
    ? /(?<![\p{L}\p{N}])[\p{L}\p{N}](?:\.? [\p{L}\p{N}]){2,}(?![\p{L}\p{N}])/gu
    : /(?<![\p{L}\p{N}])\p{L}(?:\.? \p{L}){2,}(?![\p{L}\p{N}])/gu;
  return text.replace(run, (spelled) => spelled.replace(/\.? /g, ""));
}

const DECORATION = /[\p{Extended_Pictographic}\p{So}]/u.source;

/** The loose view of `folded` (numberText's output) for the number readers. */
export function looseNumberText(folded: string): string {
  const undecorated = folded
    .replace(/([0-9])\p{M}+/gu, "$1")
    .replace(new RegExp(`([0-9])\\s*(?:${DECORATION}\\s*)+(?=[0-9])`, "gu"), "$1-")
    .replace(/(?<![0-9])([0-9])\s*[,/:\u00b7\u2022;|]\s*(?=[0-9](?![0-9]))/g, "$1-")
    .replace(/([0-9]) +\. +(?=[0-9])/g, "$1.");
  const words = skeleton(unleet(undecorated, false))
    .replace(/(?<=\p{L})[\p{P}\p{S}]+(?=\p{L})/gu, "")
    .replace(
      new RegExp(`(?<=\\p{L})(?:\\s*[,/\u00b7\u2022;|]\\s*|\\s+\\.\\s+|\\s*(?:${DECORATION}\\s*)+)(?=\\p{L})`, "gu"),
      " ",
    );
  return joinSpelled(words, false);
}

/** The distinct views of `text` every number reader runs on: folded, then loose. */
export function numberForms(text: string): string[] {
  const folded = numberText(text);
  const loose = looseNumberText(folded);
  return loose === folded ? [folded] : [folded, loose];
}
