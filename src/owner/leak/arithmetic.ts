/**
 * Arithmetic that names a number (docs/ROOMS.md "never_disclose", decisions 0442 and 0476): a
 * bounded evaluator over the numbers a view states, in digits or words, so "1200 times 2", "4800 /
 * 2", "2000 + 400", "start from 2500, subtract 100", "100 short of 2500", "twice twelve hundred",
 * "half of 4800", "20% of 12000" and "24 items at 100 each" read 2400. Grammar:
 *   expr     = [prefix] operand { op operand } [postfix]     at most MAX_OPERANDS operands
 *            | operand reversed operand                      (B less than A is A - B)
 *            | subtract-word operand "from" operand           (subtract B from A)
 *   op       = [lead] (+ | spaced - or − | × x * | spaced / or ÷ | plus | add | minus | less |
 *              subtract | take away | take off | deduct | knock off | times | multiplied by |
 *              multiply by | divided by | divide by)     lead: a comma, "and", "then" (", then subtract")
 *   reversed = less than | fewer than | short of | shy of | off | more than
 *   operand  = a number the other readers read; "20%" or "20 percent" before "of" multiplies by 0.2
 *   prefix   = half [of] | twice | double | triple | a third of | a quarter of
 *   postfix  = doubled | halved | tripled | quadrupled
 *   total    = quantity [up to three words] (at | @ | for | x | × | * | times) [currency] price
 *              [a word] (each | apiece | a piece | per <word> | ea)      quantity × price; "@"
 *              needs no "each" (24 @ 100)
 * Precedence as usual (× ÷ before + -), exact decimals throughout; a result that is negative or
 * not a finite decimal is not a reading. So that honest text stays honest: a chain followed by a
 * word other than a currency code or a word a sentence goes on with (and, is, for...) is a
 * measure, not a sum (60 x 40 cm, 12 x 200 g, 2 - 3 weeks); x or × between numbers both above 12
 * is a size (60x40), not a product, unless what follows says it is arithmetic (= , equals, makes,
 * comes to, that's, which is); and a slash without spaces divides only a number of 100 or more by
 * one of 12 or less, alone (4800/2, not the date 12/5). No powers, no parentheses.
 *
 * Bound: operands are the readings already made (one pass over them), at most MAX_OPERANDS per
 * chain and MAX_CHOICES combinations of their alternative values; each operand below 10^15.
 */
import { ISO_4217 } from "../../protocol/index.js";
import { decInt, decKey, decOf, divide, less, minus, plus, product, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";
import { skeleton } from "./normal-forms.js";

/** Most operands in one chain. */
export const MAX_OPERANDS = 4;
const MAX_CHOICES = 16;
const MAX_OPERAND = decOf("1000000000000000")!;
const SMALL_FACTOR = decInt(12);
/** Most characters between two operands of a chain (", and then subtract "), and between a quantity and its unit price ("items of the red kind at NT$"). */
const [MAX_GAP, MAX_TOTAL_GAP] = [24, 40];

/** x: a times sign that may be a size (60x40); d: a slash without spaces, which may be a date or a ratio (12/5); r-, r+: the operands the other way round (100 less than 2500). */
type Op = "+" | "-" | "*" | "/" | "x" | "d" | "r-" | "r+";

/** A regular expression source for `words` matched against skeletons: each word by its skeleton, spaces as any run of spaces. */
const words = (phrase: string): string => skeleton(phrase).replace(/ /g, "\\s+");
const alternatives = (list: readonly (readonly [string, Op])[]): [RegExp, Op][] =>
  list.map(([w, op]) => [new RegExp(`^\\s*(?:[,;:]\\s*)?(?:(?:and|then)\\s+){0,2}${words(w)}\\s+$`), op]);

/** An operator word or sign, matched against the skeleton of the text between two operands. */
const OPS: [RegExp, Op][] = [
  [/^\s*\+\s*$/, "+"],
  [/^\s+[-\u2212]\s+$|^\s*\u2212\s*$/, "-"],
  [/^\s*[*]\s*$/, "*"],
  [/^\s*[x\u00d7]\s*$/, "x"],
  [/^\s+\/\s+$|^\s*\u00f7\s*$/, "/"],
  [/^\/$/, "d"],
  ...alternatives([
    ["plus", "+"],
    ["add", "+"],
    ["minus", "-"],
    ["less", "-"],
    ["subtract", "-"],
    ["take away", "-"],
    ["take off", "-"],
    ["deduct", "-"],
    ["knock off", "-"],
    ["times", "*"],
    ["multiplied by", "*"],
    ["multiply by", "*"],
    ["divided by", "/"],
    ["divide by", "/"],
  ]),
  ...(
    [
      ["less than", "r-"],
      ["fewer than", "r-"],
      ["short of", "r-"],
      ["shy of", "r-"],
      ["off", "r-"],
      ["more than", "r+"],
    ] as const
  ).map(([w, op]): [RegExp, Op] => [new RegExp(`^\\s+${words(w)}\\s+$`), op]),
];
const PERCENT_OF = new RegExp(`^\\s*(?:%|${skeleton("percent")}|${skeleton("per cent")})\\s+${skeleton("of")}\\s+$`);
/** "from" between two operands after a word that subtracts (subtract 100 from 2500). */
const FROM = new RegExp(`^\\s+${words("from")}\\s+$`);
const SUBTRACT_FROM = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${["subtract", "take away", "take", "deduct", "remove"].map(words).join("|")})\\s+$`,
  "u",
);
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
).map(([word, times, over]) => [
  new RegExp(`(?<![\\p{L}\\p{N}])${words(word)}\\s+$`, "u"),
  decInt(times),
  decInt(over),
]);
const POSTFIXES: [RegExp, Dec, Dec][] = (
  [
    ["doubled", 2, 1],
    ["halved", 1, 2],
    ["tripled", 3, 1],
    ["quadrupled", 4, 1],
  ] as const
).map(([word, times, over]) => [
  new RegExp(`^\\s*,?\\s*${words(word)}(?![\\p{L}\\p{N}])`, "u"),
  decInt(times),
  decInt(over),
]);
/** What after a size's x says it is a product after all: an equals sign or a word that gives a result. */
const STATED = new RegExp(
  `^\\s*[,;:]?\\s*(?:=|(?:${["equals", "makes", "comes to", "gives", "that's", "that is", "which is", "which makes"].map(words).join("|")})(?![\\p{L}\\p{N}]))`,
  "u",
);
const CODES = new Set(ISO_4217.map((c) => c.toLowerCase()));
/** Between a quantity and a unit price: up to three words, then at, @, for or a times sign, then maybe a currency sign or code. */
const PER_GAP = new RegExp(
  `^\\s*(?:\\p{L}+\\s+){0,3}(?:(${words("at")}|${words("for")}|${words("times")}|[x\u00d7*])|@)\\s*(?:\\p{L}{0,3}\\p{Sc}|\\p{L}{3}\\s)?\\s*$`,
  "u",
);
/** After a unit price: maybe one word (a currency), then each, apiece, a piece, per something or ea. */
const PER_TAIL = new RegExp(
  `^\\s*(?:\\p{Sc}\\s*)?(?:\\p{L}+\\s+)?(?:${["each", "apiece", "a piece", "ea"].map(words).join("|")}|${words("per")}\\s+\\p{L}+)(?![\\p{L}\\p{N}])`,
  "u",
);

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
      if (r.start === last.start && r.end === last.end && !last.values.some((v) => decKey(v) === decKey(r.value)))
        last.values.push(r.value);
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
  for (let i = 0; i < signs.length && total !== null; i++)
    total = signs[i] === "+" ? plus(total, terms[i + 1]!) : minus(total, terms[i + 1]!);
  return total;
}

/** Every combination of one value per operand, at most MAX_CHOICES. */
function choices(chain: Operand[]): Dec[][] {
  let out: Dec[][] = [[]];
  for (const o of chain) out = out.flatMap((pick) => o.values.map((v) => [...pick, v])).slice(0, MAX_CHOICES);
  return out;
}

/** English words that go on a sentence after a number without being its unit: conjunctions, copulas, prepositions of a sum. */
const GOES_ON = new Set([
  "and",
  "or",
  "but",
  "so",
  "then",
  "is",
  "are",
  "was",
  "were",
  "be",
  "will",
  "would",
  "for",
  "to",
  "at",
  "as",
  "not",
  "please",
  "ok",
  "okay",
  "max",
  "min",
  "tops",
  "total",
  "in",
  "on",
  "if",
  "that",
  "which",
  "it",
  "i",
  "we",
  "you",
]);

/** Whether what follows a chain ends it as a sum: nothing, punctuation, a currency code, or a word the sentence goes on with; not a unit word (cm, weeks, strollers). */
function endsClean(after: string): boolean {
  const word = /^\s*(\p{L}+)/u.exec(after);
  return word === null || CODES.has(word[1]!) || GOES_ON.has(word[1]!);
}

/** The results of the arithmetic in `view` over its `readings`. */
export function readArithmetic(view: string, readings: readonly Reading[]): Reading[] {
  const list = operands(readings);
  const out: Reading[] = [];
  const gapOp = (a: Operand, b: Operand, first: boolean): Op | "%" | null => {
    if (b.start - a.end > MAX_GAP) return null;
    const gap = skeleton(view.slice(a.end, b.start));
    if (PERCENT_OF.test(gap)) return "%";
    if (first && FROM.test(gap) && SUBTRACT_FROM.test(skeleton(view.slice(Math.max(0, a.start - 16), a.start))))
      return "r-";
    return OPS.find(([re]) => re.test(gap))?.[1] ?? null;
  };
  let i = 0;
  while (i < list.length) {
    const chain = [list[i]!];
    const ops: (Op | "%")[] = [];
    while (chain.length < MAX_OPERANDS && i + chain.length < list.length) {
      const op = gapOp(chain.at(-1)!, list[i + chain.length]!, chain.length === 1);
      // The other way round is read between two operands only (100 less than 2500), never inside a longer chain.
      if (op === null || ((op === "r-" || op === "r+") && chain.length > 1)) break;
      ops.push(op);
      chain.push(list[i + chain.length]!);
      if (op === "r-" || op === "r+") break;
    }
    const head = chain[0]!;
    const before = view.slice(Math.max(0, head.start - 16), head.start);
    const prefix = /\p{L}\s*$/u.test(before) ? PREFIXES.find(([re]) => re.test(skeleton(before))) : undefined;
    const last = chain.at(-1)!;
    const tail = skeleton(view.slice(last.end, last.end + 24));
    const postfix = POSTFIXES.map(([re, times, over]) => ({ m: re.exec(tail), times, over })).find((p) => p.m !== null);
    const after = postfix ? tail.slice(postfix.m![0].length) + view.slice(last.end + 24) : view.slice(last.end);
    const stated = STATED.test(skeleton(after.slice(0, 24)));
    const sized = ops.includes("x") && chain.every((o) => o.values.every((v) => less(SMALL_FACTOR, v))) && !stated;
    const dated =
      ops.includes("d") &&
      (chain.length > 2 ||
        chain[0]!.values.some((v) => less(v, decInt(100))) ||
        chain[1]!.values.some((v) => less(SMALL_FACTOR, v)));
    const bounded = chain.every((o) => o.values.every((v) => less(v, MAX_OPERAND)));
    const factors: [Dec, Dec][] = [
      ...(prefix ? [[prefix[1], prefix[2]] as [Dec, Dec]] : []),
      ...(postfix ? [[postfix.times, postfix.over] as [Dec, Dec]] : []),
    ];
    if ((chain.length > 1 || factors.length > 0) && (stated || endsClean(after)) && !sized && !dated && bounded) {
      for (const picked of choices(chain)) {
        const reversed = ops[0] === "r-" || ops[0] === "r+";
        const values = reversed
          ? [picked[1]!, picked[0]!]
          : picked.map((v, k) => (ops[k] === "%" ? divide(v, decInt(100))! : v));
        let value = evaluate(
          values,
          ops.map((op) => (op === "%" ? "*" : op === "r-" ? "-" : op === "r+" ? "+" : op)),
        );
        for (const [times, over] of factors) if (value !== null) value = divide(product(value, times), over);
        if (value !== null) out.push({ value, start: head.start, end: last.end });
      }
    }
    i += chain.length;
  }
  return [...out, ...totals(view, list)];
}

/** The totals of a quantity at a unit price (24 items at 100 each, 24 × 100 each, 24 @ 100): quantity × price, for each pair of neighbouring operands. */
function totals(view: string, list: readonly Operand[]): Reading[] {
  const out: Reading[] = [];
  for (let k = 0; k + 1 < list.length; k++) {
    const [quantity, price] = [list[k]!, list[k + 1]!];
    if (price.start - quantity.end > MAX_TOTAL_GAP) continue;
    const gap = PER_GAP.exec(skeleton(view.slice(quantity.end, price.start)));
    // "@" is a unit price by itself; at, for, x and times are one only before each, apiece or per.
    if (!gap || (gap[1] !== undefined && !PER_TAIL.test(skeleton(view.slice(price.end, price.end + 32))))) continue;
    for (const q of quantity.values) {
      if (q.s !== 0 || !less(q, MAX_OPERAND)) continue;
      for (const p of price.values)
        if (less(p, MAX_OPERAND)) out.push({ value: product(q, p), start: quantity.start, end: price.end });
    }
  }
  return out;
}
