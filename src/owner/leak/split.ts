/**
 * A secret split over messages (docs/ROOMS.md "never_disclose", decisions 0316 and 0443): the free
 * text of this message read with the seat's recent free text, two ways.
 *   joined  = the texts joined as written and with a space, scanned as one (24 | 00, fl | oor, base64
 *             in two halves): a new occurrence the recent text alone did not hold is a split;
 *   numbers = the numbers the texts state, in order (numberText's view; at each place its longest
 *             reading), read across the boundaries between texts, so fragments inside sentences
 *             count too: "my floor starts with 24" then "and ends with 00". A chain runs from the
 *             last number of one text through the first number of each later text (a text in
 *             between with no number is passed over; one the chain goes on past must state just
 *             that number) and ends in this message:
 *               digits = up to MAX_CHAIN numbers written in digits or said digit by digit (two
 *                        zeros, double zero), the first also a whole number in words
 *                        (twenty-four), whose digits, put together, are the secret's; every
 *                        piece after the first starts with 0 or is one digit (00, 0, 4), which an
 *                        amount on its own is not, so "2 kids" then "400 is my max" is two amounts,
 *                        not 2400;
 *               words  = numbers written in words, each after the first below the power of ten
 *                        the sum so far ends in, at least a thousand ("two thousand" then "four
 *                        hundred").
 * Bound: one reading of each text, and chains of at most MAX_CHAIN pieces from each number.
 */
import { decKey, decOf, plus, shift, less, decInt, type Dec } from "./decimal.js";
import { numberText } from "./fold.js";
import { statedNumbers } from "./numbers.js";
import { scanText, type Secret } from "./scan.js";

/** Most pieces in one chain. */
export const MAX_CHAIN = 6;

/** One number a text states: its digits as written or said one by one (two zeros; null when written in words or another notation) and its value. */
interface Piece {
  digits: string | null;
  value: Dec;
}

/** The numbers `text` states, in order: at each place the longest reading (the first of equal ones). */
function piecesOf(text: string): Piece[] {
  const view = numberText(text);
  const readings = statedNumbers(view).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Piece[] = [];
  let end = 0;
  for (const r of readings) {
    if (r.start < end) continue;
    const written = view.slice(r.start, r.end);
    const digits =
      r.digits ??
      (/^[0-9][0-9,.' _\u2019-]*$/.test(written) && r.value.s === 0 ? written.replace(/[^0-9]/g, "") : null);
    out.push({ digits, value: r.value });
    end = r.end;
  }
  return out;
}

/** The power of ten (at least 3) the integer `d` ends in, or 0. */
function trailingPower(d: Dec): number {
  if (d.s > 0 || d.n === 0n) return 0;
  let k = 0;
  for (let n = d.n; n % 10n === 0n; n /= 10n) k++;
  return k >= 3 ? k : 0;
}

/** The values of the number chains over `texts` that end in one of the texts from index `from` on. */
function chainValues(texts: readonly string[], from: number): Set<string> {
  const pieces = texts.map(piecesOf);
  const out = new Set<string>();
  for (let a = 0; a < texts.length - 1; a++) {
    const first = pieces[a]!.at(-1);
    if (!first) continue;
    let digits = first.digits ?? (first.value.s === 0 ? first.value.n.toString() : null);
    let sum: Dec | null = first.digits === null ? first.value : null;
    let count = 1;
    for (let b = a + 1; b < texts.length && count < MAX_CHAIN; b++) {
      const here = pieces[b]!;
      const piece = here[0];
      if (!piece) continue;
      count++;
      digits =
        digits !== null && piece.digits !== null && (piece.digits.startsWith("0") || piece.digits.length === 1)
          ? digits + piece.digits
          : null;
      const power = sum === null ? 0 : trailingPower(sum);
      sum =
        sum !== null && piece.digits === null && power > 0 && less(piece.value, shift(decInt(1), power))
          ? plus(sum, piece.value)
          : null;
      if (b >= from) {
        const value = digits === null ? null : decOf(digits);
        if (value) out.add(decKey(value));
        if (sum) out.add(decKey(sum));
      }
      if ((digits === null && sum === null) || here.length > 1) break;
    }
  }
  return out;
}

/** How far the joined reading looks back from the start of each of this message's texts, and on into it (to the first sentence end past this): a reading across a boundary longer than this is not a split. */
export const JOIN_REACH = 1000;

/** Where `joined` may be cut at or before `at` without cutting a word: just after a whitespace, or 0. */
function cutBefore(joined: string, at: number): number {
  if (at <= 0) return 0;
  const space = joined.slice(0, at + 1).search(/\s\S*$/u);
  return space < 0 ? 0 : space + 1;
}

/** Where `joined` may be cut at or after `at` without cutting a number: at the first sentence end (". ", "! ", "? " or a line break), or its end. */
function cutAfter(joined: string, at: number): number {
  if (at >= joined.length) return joined.length;
  const end = /[.!?]\s|\n/gu;
  end.lastIndex = at;
  const m = end.exec(joined);
  return m ? m.index + 1 : joined.length;
}

/** The first of `secrets` that `current` (this message's free texts) states only together with `recent` (the seat's recent free text, oldest first): its position in `secrets`, or "unread" when the joined text decodes past the bound; null when none. */
export function splitSecret(
  current: readonly string[],
  recent: readonly string[],
  secrets: readonly Secret[],
): number | "unread" | null {
  if (current.length === 0 || recent.length + current.length < 2) return null;
  const texts = [...recent, ...current];
  for (const joiner of ["", " "]) {
    const joined = texts.join(joiner);
    let at = 0;
    for (let k = 0; k < texts.length; k++) {
      if (k > 0) at += joiner.length;
      const boundary = at;
      at += texts[k]!.length;
      if (k < recent.length || k === 0) continue;
      // Each of this message's texts was scanned alone, so an occurrence here that the text before the boundary lacks crosses it.
      const from = cutBefore(joined, boundary - JOIN_REACH);
      const before = scanText(joined.slice(from, boundary), secrets);
      const after = scanText(joined.slice(from, cutAfter(joined, boundary + JOIN_REACH)), secrets);
      if (after.overflow) return "unread";
      const hit = after.counts.findIndex((c, i) => c > before.counts[i]!);
      if (hit >= 0) return hit;
    }
  }
  const chained = chainValues(texts, recent.length);
  const hit = secrets.findIndex((s) => "values" in s && [...s.values].some((v) => chained.has(v)));
  return hit >= 0 ? hit : null;
}
