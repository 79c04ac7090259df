/**
 * A never_disclose entry that is not a number (docs/ROOMS.md): found as a substring of the text
 * folded by foldText (case, width, Unicode form, invisible characters), or of its loose form,
 * where both sides also lose diacritics (flóor), read look-alike Cyrillic and Greek letters as
 * Latin (flооr with Cyrillic о), read digits and @ $ | ! inside a word as letters (fl00r, $ara),
 * read l as i (1 and l look alike), drop punctuation and symbols (f.l.o.o.r, fl-oor, Sara's),
 * and join letters spelled out one by one (f l o o r): the steps of the gate's pipeline (normal-forms.ts).
 * A needle of several words also matches with its spaces dropped (sarasaddress), and one of five
 * letters or more in ROT13 (sybbe).
 */
import { rot13 } from "./decode.js";
import { foldText } from "./fold.js";
import { joinSpelled, skeleton, unleet } from "./normal-forms.js";

/** `folded` (from foldText) in its loose form: the pipeline's skeleton of its letters (normal-forms.ts), punctuation and symbols dropped, spaces collapsed, spelled letters and digits joined. */
function looseText(folded: string): string {
  const bare = skeleton(unleet(folded))
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
  return joinSpelled(bare, true);
}

/** A text entry ready to search for: its folded and loose forms. */
export interface TextNeedle {
  folded: string;
  loose: string[];
}

/** Fewest ASCII letters an entry has for its ROT13 to be looked for too (a shorter word's ROT13 is too often a word: bar, one). */
const MIN_ROT13 = 5;

/** `entry` as a needle; null when folding leaves nothing to find. Its loose forms include its ROT13 (sybbe for floor) when it has MIN_ROT13 letters or more. */
export function textNeedle(entry: string): TextNeedle | null {
  const folded = foldText(entry);
  if (folded === "") return null;
  const looses = [
    looseText(folded),
    ...((folded.match(/[a-z]/g)?.length ?? 0) >= MIN_ROT13 ? [looseText(rot13(folded))] : []),
  ];
  const forms = new Set(looses.flatMap((loose) => [loose, loose.replace(/ /g, "")]).filter((s) => s !== ""));
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
