/**
 * Arithmetic that names a number (docs/ROOMS.md "never_disclose", decision 0442): a bounded
 * evaluator over the numbers a view states, in digits or words, so "1200 times 2", "4800 / 2",
 * "2000 + 400", "twice twelve hundred", "half of 4800" and "20% of 12000" read 2400. Grammar:
 *   expr    = [prefix] operand { op operand }      at most MAX_OPERANDS operands
 *   op      = + | spaced - or − | × x * | spaced / or ÷ | plus | minus | times | multiplied by | divided by
 *   operand = a number the other readers read; "20%" or "20 percent" before "of" multiplies by 0.2
 *   prefix  = half [of] | twice | double | triple | a third of | a quarter of
 * Precedence as usual (× ÷ before + -), exact decimals throughout; a result that is negative or
 * not a finite decimal is not a reading. So that honest text stays honest: a chain followed by a
 * word other than a currency code or a word a sentence goes on with (and, is, for...) is a
 * measure, not a sum (60 x 40 cm, 12 x 200 g, 2 - 3 weeks); x or ×
 * between numbers both above 12 is a size (60x40), not a product; and a slash without spaces
 * divides only a number of 100 or more by one of 12 or less, alone (4800/2, not the date 12/5).
 * No powers, no parentheses.
 *
 * Bound: operands are the readings already made (one pass over them), at most MAX_OPERANDS per
 * chain and MAX_CHOICES combinations of their alternative values; each operand below 10^15.
 */
import { ISO_4217 } from "../../protocol/index.js";
import { decInt, decKey, decOf, divide, less, minus, plus, product, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";
import { skeleton } from "./views.js";

/** Most operands in one chain. */
export const MAX_OPERANDS = 4;
const MAX_CHOICES = 16;
const MAX_OPERAND = decOf("1000000000000000")!;
const SMALL_FACTOR = decInt(12);

/** x: a times sign that may be a size (60x40); d: a slash without spaces, which may be a date or a ratio (12/5). */
type Op = "+" | "-" | "*" | "/" | "x" | "d";

/** An operator word or sign, matched against the skeleton of the text between two operands. */
const OPS: [RegExp, Op][] = [
  [/^\s*\+\s*$/, "+"],
  [/^\s+[-\u2212]\s+$|^\s*\u2212\s*$/, "-"],
  [/^\s*[*]\s*$/, "*"],
  [/^\s*[x\u00d7]\s*$/, "x"],
  [/^\s+\/\s+$|^\s*\u00f7\s*$/, "/"],
  [/^\/$/, "d"],
  ...(
    [
      ["plus", "+"],
      ["minus", "-"],
      ["times", "*"],
      ["multiplied by", "*"],
      ["divided by", "/"],
    ] as const
  ).map(([word, op]): [RegExp, Op] => [new RegExp(`^\\s+${skeleton(word).replace(/ /g, "\\s+")}\\s+$`), op]),
];
const PERCENT_OF = new RegExp(`^\\s*(?:%|${skeleton("percent")}|${skeleton("per cent")})\\s+${skeleton("of")}\\s+$`);
const PREFIXES: [RegExp, Dec, Dec][] = (
  [
    ["half of", 1, 2],
    ["half", 1, 2],
    ["twice", 2, 1],
    ["double", 2, 1],
    ["triple", 3, 1],
    ["a third of", 1, 3],
    ["a quarter of", 1, 4],
  ] as const
).map(([word, times, over]) => [new RegExp(`(?<![\\p{L}\\p{N}])${skeleton(word).replace(/ /g, "\\s+")}\\s+$`, "u"), decInt(times), decInt(over)]);
const CODES = new Set(ISO_4217.map((c) => c.toLowerCase()));

/** The numbers of a view without overlaps: at each place the longest reading, with every value read there. */
interface Operand {
  start: number;
  end: number;
  values: Dec[];
}

function operands(readings: readonly Reading[]): Operand[] {
  const sorted = [...readings].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Operand[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.start < last.end) {
      if (r.start === last.start && r.end === last.end && !last.values.some((v) => decKey(v) === decKey(r.value))) last.values.push(r.value);
      continue;
    }
    out.push({ start: r.start, end: r.end, values: [r.value] });
  }
  return out;
}

/** The value of `values` joined by `ops`, × and ÷ first; null when a step is not a non-negative finite decimal. */
function evaluate(values: Dec[], ops: Op[]): Dec | null {
  const terms: Dec[] = [values[0]!];
  const signs: Op[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const v = values[i + 1]!;
    if (op === "*" || op === "x" || op === "/" || op === "d") {
      const last = terms.pop()!;
      const next = op === "/" || op === "d" ? divide(last, v) : product(last, v);
      if (next === null) return null;
      terms.push(next);
    } else {
      terms.push(v);
      signs.push(op);
    }
  }
  let total: Dec | null = terms[0]!;
  for (let i = 0; i < signs.length && total !== null; i++) total = signs[i] === "+" ? plus(total, terms[i + 1]!) : minus(total, terms[i + 1]!);
  return total;
}

/** Every combination of one value per operand, at most MAX_CHOICES. */
function choices(chain: Operand[]): Dec[][] {
  let out: Dec[][] = [[]];
  for (const o of chain) out = out.flatMap((pick) => o.values.map((v) => [...pick, v])).slice(0, MAX_CHOICES);
  return out;
}

/** English words that go on a sentence after a number without being its unit: conjunctions, copulas, prepositions of a sum. */
const GOES_ON = new Set(["and", "or", "but", "so", "then", "is", "are", "was", "were", "be", "will", "would", "for", "to", "at", "as", "not", "please", "ok", "okay", "max", "min", "tops", "total", "in", "on", "if", "that", "which", "it", "i", "we", "you"]);

/** Whether what follows a chain ends it as a sum: nothing, punctuation, a currency code, or a word the sentence goes on with; not a unit word (cm, weeks, strollers). */
function endsClean(after: string): boolean {
  const word = /^\s*(\p{L}+)/u.exec(after);
  return word === null || CODES.has(word[1]!) || GOES_ON.has(word[1]!);
}

/** The results of the arithmetic in `view` over its `readings`. */
export function readArithmetic(view: string, readings: readonly Reading[]): Reading[] {
  const list = operands(readings);
  const out: Reading[] = [];
  const gapOp = (a: Operand, b: Operand): Op | "%" | null => {
    if (b.start - a.end > 16) return null;
    const gap = skeleton(view.slice(a.end, b.start));
    if (PERCENT_OF.test(gap)) return "%";
    return OPS.find(([re]) => re.test(gap))?.[1] ?? null;
  };
  let i = 0;
  while (i < list.length) {
    const chain = [list[i]!];
    const ops: (Op | "%")[] = [];
    while (chain.length < MAX_OPERANDS && i + chain.length < list.length) {
      const op = gapOp(chain.at(-1)!, list[i + chain.length]!);
      if (op === null) break;
      ops.push(op);
      chain.push(list[i + chain.length]!);
    }
    const head = chain[0]!;
    const before = view.slice(Math.max(0, head.start - 16), head.start);
    const prefix = /\p{L}\s*$/u.test(before) ? PREFIXES.find(([re]) => re.test(skeleton(before))) : undefined;
    const last = chain.at(-1)!;
    const sized = ops.includes("x") && chain.every((o) => o.values.every((v) => less(SMALL_FACTOR, v)));
    const dated = ops.includes("d") && (chain.length > 2 || chain[0]!.values.some((v) => less(v, decInt(100))) || chain[1]!.values.some((v) => less(SMALL_FACTOR, v)));
    const bounded = chain.every((o) => o.values.every((v) => less(v, MAX_OPERAND)));
    if ((chain.length > 1 || prefix) && endsClean(view.slice(last.end)) && !sized && !dated && bounded) {
      for (const values of choices(chain)) {
        const scaled = values.map((v, k) => (ops[k] === "%" ? divide(v, decInt(100))! : v));
        let value = evaluate(scaled, ops.map((op) => (op === "%" ? "*" : op)));
        if (value !== null && prefix) value = divide(product(value, prefix[1]), prefix[2]);
        if (value !== null) out.push({ value, start: head.start, end: last.end });
      }
    }
    i += chain.length;
  }
  return out;
}
