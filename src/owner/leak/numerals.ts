/**
 * Numbers written with digits, in text folded by numberText (fold.ts): a grammar over runs of digit
 * groups joined by one separator each (, . space ' ’ _ -). A run is read left to right as numbers:
 *   grouped  = 1-3 digits, then groups of exactly 3 after the same separator (2,400  2 400  2.400
 *              2'400  1,234,567), or Indian lakh grouping (2,40,000), or any groups joined by _
 *              (24_00, as in program text), or 3+ single digits after the same separator but a dot
 *              (2-4-0-0; 2.4.0.0 is a version or an address);
 *   decimal  = a grouped number, then "." or "," (not its grouping separator) and digits (2400.00,
 *              2.400,00); "2.400" is read both ways (2400 and 2.4), "24.000" only as 24000;
 *   chain    = 2 to 6 neighbouring numbers joined by a space, ', ’, _ or - read as one (24 00,
 *              0912 345 678), since that is how digits are split to pass a check; a run of three
 *              or more plain groups with 8 or more digits (02 2400 1234, 2024-01-15) is a phone
 *              number or a date, read only whole, never its parts.
 * A number's value is compared, never its digits: "324,000" reads 324000 and nothing else.
 * Shorthand (2.4k, 2k4, 1.2m, 3bn) and exponents (2.4e3, 2.4 × 10^3, 1.25·10⁴) are read separately.
 */
import { decOf, shift, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";

const RUN = /[0-9]+(?:[,.' _\u2019-][0-9]+)*/g;
const GROUPING = new Set([",", ".", "'", " ", "_", "\u2019"]);
const CHAIN = new Set([" ", "'", "\u2019", "_", "-"]);
const DECIMAL = new Set([".", ","]);
const MAX_CHAIN = 6;
/** A run of at least PHONE_GROUPS plain groups with at least PHONE_DIGITS digits is one number (a phone number, a date), never its parts. */
const [PHONE_GROUPS, PHONE_DIGITS] = [3, 8];

interface Num {
  from: number;
  to: number;
  digits: string;
  frac: string | null;
}

/** The last group index of the longest grouped number starting at group `i`. */
function groupedEnd(groups: string[], seps: string[], i: number): number {
  const n = groups.length;
  const len = (k: number) => groups[k]!.length;
  let best = i;
  if (len(i) <= 3 && i + 1 < n && GROUPING.has(seps[i]!) && seps[i] !== "_") {
    let j = i;
    while (j + 1 < n && seps[j] === seps[i] && len(j + 1) === 3) j++;
    best = Math.max(best, j);
  }
  if (len(i) <= 2 && seps[i] === ",") {
    let j = i;
    while (j + 1 < n && seps[j] === "," && len(j + 1) === 2) j++;
    if (j > i && j + 1 < n && seps[j] === "," && len(j + 1) === 3) best = Math.max(best, j + 1);
  }
  if (seps[i] === "_") {
    let j = i;
    while (j + 1 < n && seps[j] === "_") j++;
    best = Math.max(best, j);
  }
  if (len(i) === 1 && seps[i] !== ".") {
    let j = i;
    while (j + 1 < n && seps[j] === seps[i] && len(j + 1) === 1) j++;
    if (j - i >= 2) best = Math.max(best, j);
  }
  return best;
}

/** The numbers of one run of `groups` joined by `seps`, and every extra reading of them. */
function readRun(groups: string[], seps: string[], offsets: number[]): Reading[] {
  const out: Reading[] = [];
  const nums: Num[] = [];
  const span = (from: number, to: number) => ({ start: offsets[from]!, end: offsets[to]! + groups[to]!.length });
  const push = (value: Dec | null, from: number, to: number) => {
    if (value) out.push({ value, ...span(from, to) });
  };
  let i = 0;
  while (i < groups.length) {
    const j = groupedEnd(groups, seps, i);
    const grouping = j > i ? seps[i] : undefined;
    const digits = groups.slice(i, j + 1).join("");
    const sep = seps[j];
    const spelled = j > i && groups.slice(i, j + 1).every((g) => g.length === 1);
    let to = j;
    let frac: string | null = null;
    if (j + 1 < groups.length && sep !== undefined && DECIMAL.has(sep) && sep !== grouping && !spelled) {
      frac = groups[j + 1]!;
      to = j + 1;
    }
    push(decOf(digits, frac ?? ""), i, to);
    if (
      j === i + 1 &&
      frac === null &&
      grouping !== undefined &&
      DECIMAL.has(grouping) &&
      !spelled &&
      groups[j] !== "000"
    )
      push(decOf(groups[i]!, groups[j]!), i, j);
    nums.push({ from: i, to, digits, frac });
    i = to + 1;
  }
  const plain =
    nums.every((n) => n.from === n.to && n.frac === null) &&
    nums.slice(1).every((n, k) => CHAIN.has(seps[nums[k]!.to]!));
  if (plain && nums.length >= PHONE_GROUPS && nums.reduce((sum, n) => sum + n.digits.length, 0) >= PHONE_DIGITS) {
    const whole = decOf(nums.map((n) => n.digits).join(""));
    return whole ? [{ value: whole, ...span(0, groups.length - 1) }] : [];
  }
  for (let a = 0; a < nums.length; a++) {
    let digits = nums[a]!.digits;
    for (let b = a + 1; b < nums.length && b - a < MAX_CHAIN; b++) {
      const prev = nums[b - 1]!;
      const next = nums[b]!;
      if (prev.frac !== null || next.frac !== null || !CHAIN.has(seps[prev.to]!)) break;
      digits += next.digits;
      push(decOf(digits), nums[a]!.from, next.to);
    }
  }
  return out;
}

const MULTIPLIER: Record<string, number> = { k: 3, m: 6, mn: 6, mm: 6, b: 9, bn: 9 };
// Each starts only where a run of digits starts, so a long run is tried once, not once per digit.
const SHORTHAND = /(?<![0-9])([0-9]+)(?:[.,]([0-9]+))? ?(k|mn|mm|m|bn|b)([0-9]{1,3})?(?![\p{L}\p{N}])/gu;
const EXPONENT = /(?<![0-9])([0-9]+)(?:\.([0-9]+))?e\+?([0-9]{1,2})(?![\p{L}\p{N}])/gu;
/** A mantissa times a power of ten: 2.4 × 10^3, 1,25·10^4, 2.4*10**3, 2.4 x 10³ (folded to 10^3), 2.4 times 10 to the power of 3. */
const SCIENTIFIC =
  /(?<![0-9.,])([0-9]+)(?:[.,]([0-9]+))?\s*(?:[x\u00d7*\u00b7\u22c5\u2219]|times)\s*10\s*(?:\^|\*\*|to the(?: power(?: of)?)?)\s*([+-]?)([0-9]{1,2})(?:st|nd|rd|th)?(?![0-9])/gu;

/** Shorthand with a multiplier: 2.4k, 2k4 (2.4k), 2.4 k, 1.2m, 3bn; exponents: 2.4e3, 2.4 × 10^3. */
function readShorthand(text: string): Reading[] {
  const out: Reading[] = [];
  for (const m of text.matchAll(SHORTHAND)) {
    const [, whole, frac, unit, tail] = m;
    if (frac !== undefined && tail !== undefined) continue;
    const value = decOf(whole!, frac ?? tail ?? "");
    if (value) out.push({ value: shift(value, MULTIPLIER[unit!]!), start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(EXPONENT)) {
    const value = decOf(m[1]!, m[2] ?? "");
    if (value) out.push({ value: shift(value, Number(m[3])), start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(SCIENTIFIC)) {
    const value = decOf(m[1]!, m[2] ?? "");
    if (value)
      out.push({
        value: shift(value, (m[3] === "-" ? -1 : 1) * Number(m[4])),
        start: m.index,
        end: m.index + m[0].length,
      });
  }
  return out;
}

/** Every reading of every number written with digits in `text` (folded by numberText). */
export function readNumerals(text: string): Reading[] {
  const out: Reading[] = [];
  for (const m of text.matchAll(RUN)) {
    const groups: string[] = [];
    const seps: string[] = [];
    const offsets: number[] = [];
    const re = /[0-9]+/g;
    let g: RegExpExecArray | null;
    while ((g = re.exec(m[0])) !== null) {
      if (groups.length > 0) seps.push(m[0][g.index - 1]!);
      groups.push(g[0]);
      offsets.push(m.index + g.index);
    }
    out.push(...readRun(groups, seps, offsets));
  }
  out.push(...readShorthand(text));
  return out;
}
