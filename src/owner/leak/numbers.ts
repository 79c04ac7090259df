/**
 * Every number a text states, by value (docs/ROOMS.md "never_disclose"): in each normal form of the
 * pipeline (normal-forms.ts), written with digits of any script and any grouping (numerals.ts), in
 * English words (words-en.ts), in Chinese or Japanese numerals or Japanese kana (words-cjk.ts),
 * in the words of the other languages of the CLDR spellout rules and to-words (words-rbnf.ts), as
 * a Roman numeral, in base 16, 8 or 2 or a base named beside it (notations.ts), in minor units
 * (notations.ts), in major and minor units together (amounts.ts), reversed where the text says so (notations.ts), or as arithmetic over those
 * (arithmetic.ts); and whether a never_disclose entry is itself one number.
 */
import { ISO_4217 } from "../../protocol/index.js";
import { readCompoundAmounts } from "./amounts.js";
import { readArithmetic } from "./arithmetic.js";
import { decKey } from "./decimal.js";
import { numberText } from "./fold.js";
import { readMinorUnits, readNotations, readReversals } from "./notations.js";
import { readNumerals } from "./numerals.js";
import type { Reading } from "./reading.js";
import { numberForms } from "./normal-forms.js";
import { readCjk, readKana } from "./words-cjk.js";
import { readEnglish } from "./words-en.js";
import { readRbnf } from "./words-rbnf.js";

/** Every reading in `view` of the readers an entry is compiled with: digits, English words, Chinese and Japanese numerals (and kana). */
function readPlain(view: string): Reading[] {
  return [...readNumerals(view), ...readEnglish(view), ...readCjk(view), ...readKana(view)];
}

/** Every number `view` (a normal form from normal-forms.ts; `skeletal` when it is the loose one) writes down itself, in any notation: no minor units, no arithmetic. */
export function statedNumbers(view: string, skeletal = false): Reading[] {
  return [...readPlain(view), ...readRbnf(view), ...readNotations(view, skeletal)];
}

/** Every reading of every number in `view` (a normal form from normal-forms.ts; `skeletal` when it is the loose one), in no particular order; `minorDigits`: the minor-unit digits of the currency the check knows, if any. */
export function readNumbers(view: string, minorDigits: readonly number[] = [], skeletal = false): Reading[] {
  const stated = statedNumbers(view, skeletal);
  const minor = readMinorUnits(view, stated, minorDigits);
  const amounts = [...minor, ...readCompoundAmounts(view, stated, minor)];
  return [...stated, ...amounts, ...readArithmetic(view, [...stated, ...amounts]), ...readReversals(view, stated)];
}

/** How many readings of each value (by decKey) `text` holds: in whichever view holds the most. */
export function valueCounts(text: string, minorDigits: readonly number[] = []): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [k, view] of numberForms(text).entries()) {
    const here = new Map<string, number>();
    for (const r of readNumbers(view, minorDigits, k > 0)) {
      const key = decKey(r.value);
      here.set(key, (here.get(key) ?? 0) + 1);
    }
    for (const [key, n] of here) counts.set(key, Math.max(n, counts.get(key) ?? 0));
  }
  return counts;
}

const CODES = new Set<string>(ISO_4217.map((c) => c.toLowerCase()));

/** `folded` without a currency sign or ISO 4217 code before or after it ("nt$2,400", "2400 twd", "$2400", "2400元"). */
function withoutCurrency(folded: string): string {
  let text = folded.trim();
  const sign = /^[a-z]{0,3}\p{Sc}\s?/u.exec(text);
  const code = /^([a-z]{3})\s/.exec(text);
  if (sign) text = text.slice(sign[0].length);
  else if (code && CODES.has(code[1]!)) text = text.slice(code[0].length);
  const after = /\s?(\p{Sc}|元|円|块|[a-z]{3})$/u.exec(text);
  if (after && (!/^[a-z]{3}$/.test(after[1]!) || CODES.has(after[1]!))) text = text.slice(0, after.index);
  return text.trim();
}

/** The values (by decKey) `entry` states when the whole of it is one number in digits, English words or Chinese or Japanese numerals, maybe with a currency sign or code; null when it is not a number. */
export function entryValues(entry: string): Set<string> | null {
  const folded = withoutCurrency(numberText(entry));
  const whole = readPlain(folded).filter((r) => r.start === 0 && r.end === folded.length);
  return folded === "" || whole.length === 0 ? null : new Set(whole.map((r) => decKey(r.value)));
}
