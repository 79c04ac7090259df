/**
 * A never_disclose entry that is not a number (docs/ROOMS.md): found as a substring of the text
 * folded by foldText (case, width, Unicode form, invisible characters), or of its loose form,
 * where both sides also lose diacritics (flóor), read look-alike Cyrillic and Greek letters as
 * Latin (flооr with Cyrillic о), read digits and @ $ | ! inside a word as letters (fl00r, $ara),
 * read l as i (1 and l look alike), drop punctuation and symbols (f.l.o.o.r, fl-oor, Sara's),
 * and join letters spelled out one by one (f l o o r). A needle of several words also matches
 * with its spaces dropped (sarasaddress).
 */
import { foldText } from "./fold.js";

const LOOKALIKE: Record<string, string> = Object.fromEntries(
  ["аa", "вb", "еe", "кk", "мm", "нh", "оo", "рp", "сc", "тt", "уy", "хx", "іi", "јj", "ѕs", "ԁd", "һh", "ӏi", "αa", "βb", "εe", "ζz", "ηh", "ιi", "κk", "μm", "νv", "οo", "ρp", "τt", "υy", "χx", "ωw"].map(
    (pair) => [pair[0]!, pair[1]!],
  ),
);
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", $: "s", "|": "i", "!": "i" };

/** `folded` (from foldText) in its loose form. */
function looseText(folded: string): string {
  return folded
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .normalize("NFC")
    .replace(/[^\x00-\x7f]/g, (ch) => LOOKALIKE[ch] ?? ch)
    .replace(/[\p{L}\p{N}@$|!]+/gu, (word) => (/\p{L}/u.test(word) && /[\p{N}@$|!]/u.test(word) ? word.replace(/[0-9@$|!]/g, (ch) => LEET[ch] ?? ch) : word))
    .replace(/l/g, "i")
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/(?<![\p{L}\p{N}])[\p{L}\p{N}](?: [\p{L}\p{N}]){2,}(?![\p{L}\p{N}])/gu, (spelled) => spelled.replace(/ /g, ""));
}

/** A text entry ready to search for: its folded and loose forms. */
export interface TextNeedle {
  folded: string;
  loose: string[];
}

/** `entry` as a needle; null when folding leaves nothing to find. */
export function textNeedle(entry: string): TextNeedle | null {
  const folded = foldText(entry);
  if (folded === "") return null;
  const loose = looseText(folded);
  const forms = new Set([loose, loose.replace(/ /g, "")].filter((s) => s !== ""));
  return { folded, loose: [...forms] };
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** A text prepared once for searching: its folded and loose forms. */
export interface TextViews {
  folded: string;
  loose: string;
}

/** `text` prepared for textCount. */
export function textViews(text: string): TextViews {
  const folded = foldText(text);
  return { folded, loose: looseText(folded) };
}

/** How many times `needle` occurs in `views` (folded occurrences, else loose ones). */
export function textCount(views: TextViews, needle: TextNeedle): number {
  const strict = occurrences(views.folded, needle.folded);
  if (strict > 0) return strict;
  return Math.max(0, ...needle.loose.map((n) => occurrences(views.loose, n)));
}
