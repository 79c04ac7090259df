/**
 * A formatter for Unicode CLDR rule-based number format (RBNF) spellout rules, as cldr-rbnf ships
 * them (rbnf/<locale>.json, "SpelloutRules"), for whole numbers >= 0: the ICU rule syntax with
 * substitutions << >> == (and named rule sets in them, <%set< >%set> =%set=, and >>> for the rule
 * before), optional text [..] and [..|..], radix bases (60/20), the roll-back of a rule whose base
 * is no multiple of its divisor, and $(cardinal,..)$ / $(ordinal,..)$ plural forms chosen with
 * Intl.PluralRules. Used at build time only (scripts/lexicon/lexicon.ts), never at run time.
 */

/** One rule after bracket expansion: its base, divisor and text with substitutions. */
interface Rule {
  base: bigint;
  divisor: bigint;
  text: string;
}

/** The rule sets of one locale: name (with its % or %%) to rules, ascending by base. */
export type RuleSets = Map<string, Rule[]>;

/** The cldr-rbnf JSON of a locale: rule set name to [base, text] pairs. */
export type SpelloutJson = Record<string, [string, string][]>;

const MAX_DEPTH = 64;

/** The highest power of `radix` at most `base` (ICU's divisor of a rule), or 1 for base 0. */
function divisorOf(base: bigint, radix: bigint): bigint {
  if (base < 1n) return 1n;
  let d = 1n;
  while (d * radix <= base) d *= radix;
  return d;
}

/** The rules of one rule set, brackets expanded as ICU does: a base that is a multiple of its divisor gets the text without the bracket, and base + 1 the text with it. */
function compileSet(pairs: [string, string][]): Rule[] {
  const rules: Rule[] = [];
  for (const [key, raw] of pairs) {
    const m = /^([0-9]+)(?:\/([0-9,]+))?$/.exec(key);
    if (!m) continue;
    const base = BigInt(m[1]!);
    const divisor = divisorOf(base, BigInt((m[2] ?? "10").replace(/,/g, "")));
    const text = raw.replace(/;$/, "").replace(/^'/, "");
    const open = text.indexOf("[");
    const close = open < 0 ? -1 : text.indexOf("]", open);
    if (close < 0) {
      rules.push({ base, divisor, text });
      continue;
    }
    const inside = text.slice(open + 1, close);
    const bar = inside.indexOf("|");
    const withText = text.slice(0, open) + (bar < 0 ? inside : inside.slice(0, bar)) + text.slice(close + 1);
    const without = text.slice(0, open) + (bar < 0 ? "" : inside.slice(bar + 1)) + text.slice(close + 1);
    if (base > 0n && base % divisor === 0n) {
      rules.push({ base, divisor, text: without });
      rules.push({ base: base + 1n, divisor, text: withText });
    } else rules.push({ base, divisor, text: withText });
  }
  return rules.sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
}

/** The rule sets of a locale's SpelloutRules. */
export function ruleSets(json: SpelloutJson): RuleSets {
  const sets: RuleSets = new Map();
  for (const [name, pairs] of Object.entries(json)) if (name.startsWith("%")) sets.set(name, compileSet(pairs));
  return sets;
}

const TOKEN = /←([^←]*)←(←?)|→([^→]*)→(→?)|=([^=]*)=|\$\((cardinal|ordinal),((?:[a-z]+\{[^}]*\})+)\)\$/gu;

/** Spells numbers with one locale's rule sets. */
export class Formatter {
  private readonly plural: Record<"cardinal" | "ordinal", Intl.PluralRules>;

  constructor(
    private readonly sets: RuleSets,
    locale: string,
  ) {
    this.plural = {
      cardinal: new Intl.PluralRules(locale, { type: "cardinal" }),
      ordinal: new Intl.PluralRules(locale, { type: "ordinal" }),
    };
  }

  /** The names of the locale's rule sets. */
  names(): string[] {
    return [...this.sets.keys()];
  }

  private readonly memo = new Map<string, string | null>();

  /** `n` spelled with rule set `set`; null when a rule the number needs is not an integer rule this formatter reads. */
  format(n: bigint, set: string, depth = 0): string | null {
    const key = `${set}:${n}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    const spelled = this.spell(n, set, depth);
    this.memo.set(key, spelled);
    return spelled;
  }

  private spell(n: bigint, set: string, depth: number): string | null {
    const rules = this.sets.get(set);
    if (!rules || depth > MAX_DEPTH || n < 0n) return null;
    let at = -1;
    for (let i = 0; i < rules.length; i++) if (rules[i]!.base <= n) at = i;
    if (at < 0) return null;
    let rule = rules[at]!;
    if (at > 0 && /→/.test(rule.text) && n % rule.divisor === 0n && rule.base % rule.divisor !== 0n)
      rule = rules[--at]!;
    return this.apply(rule, at, rules, n, set, depth);
  }

  private apply(rule: Rule, at: number, rules: Rule[], n: bigint, set: string, depth: number): string | null {
    let failed = false;
    const out = rule.text.replace(
      TOKEN,
      (
        _,
        lName: string | undefined,
        lTriple: string,
        rName: string | undefined,
        rTriple: string,
        sName: string | undefined,
        kind: "cardinal" | "ordinal" | undefined,
        forms: string | undefined,
      ) => {
        let piece: string | null;
        if (lName !== undefined) piece = this.sub(n / rule.divisor, lName, set, depth, lTriple !== "");
        else if (rName !== undefined) {
          const rest = n % rule.divisor;
          piece =
            rTriple !== "" && rName === ""
              ? at > 0
                ? this.apply(rules[at - 1]!, at - 1, rules, rest, set, depth + 1)
                : null
              : this.sub(rest, rName, set, depth, false);
        } else if (sName !== undefined) piece = sName.startsWith("%") ? this.format(n, sName, depth + 1) : null;
        else {
          const category = this.plural[kind!].select(Number(n / rule.divisor));
          const choices = Object.fromEntries([...forms!.matchAll(/([a-z]+)\{([^}]*)\}/g)].map((f) => [f[1]!, f[2]!]));
          piece = choices[category] ?? choices.other ?? null;
        }
        if (piece === null) failed = true;
        return piece ?? "";
      },
    );
    return failed ? null : out;
  }

  private sub(n: bigint, name: string, set: string, depth: number, triple: boolean): string | null {
    if (triple || (name !== "" && !name.startsWith("%"))) return null;
    return this.format(n, name === "" ? set : name, depth + 1);
  }
}
