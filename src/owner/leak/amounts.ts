/**
 * An amount stated in a major and a minor unit together (docs/ROOMS.md "never_disclose"): a whole
 * number, then a major unit (a currency's name in the common languages, its sign or its ISO 4217
 * code) or nothing, then maybe a joining word or mark, then a number in minor units
 * (notations.ts's minor readings): "three thousand dollars and twenty-five cents", "$3000 and 25¢",
 * "3000 euros et 25 centimes", "3000 NTD 25 cents" are each 3000.25. The minor part must be below
 * one major unit, so "3 dollars and 250 cents" is not read as 5.5 here (arithmetic is not this
 * reader's job).
 */
import { ISO_4217 } from "../../protocol/index.js";
import { less, plus, decInt, type Dec } from "./decimal.js";
import type { Reading } from "./reading.js";

/** Names of major currency units, singular and plural, as folded text writes them (lower case, accents kept and bare). */
const MAJOR_NAMES = [
  "dollars?",
  "bucks?",
  "euros?",
  "pounds?(?: sterling)?",
  "quid",
  "yen",
  "yuan",
  "renminbi",
  "kuai",
  "francs?",
  "rupees?",
  "pesos?",
  "reais",
  "real",
  "rubles?",
  "roubles?",
  "рубл(?:ь|я|ей)",
  "won",
  "baht",
  "ringgit",
  "dong",
  "kron(?:a|or|e|er)",
  "zlot(?:y|ys|ych)",
  "lira",
  "lire",
  "rand",
  "shekels?",
  "dinars?",
  "dirhams?",
  "riyals?",
  "rials?",
  "d[oó]lares",
  "d[oó]lar",
  "dollari",
  "dollaro",
  "euri",
  "yuanes",
  "franken",
  "pfund",
  "rupias?",
  "liras?",
  "forint",
  "koruna",
  "lei",
  "leu",
];
const CODES = ISO_4217.map((c) => c.toLowerCase()).join("|");
/** Between the major and the minor number: a unit (name, sign or code) and a joining word or mark, each optional, nothing else. */
const JOIN = new RegExp(
  `^\\s*(?:(?:${MAJOR_NAMES.join("|")}|${CODES})(?![\\p{L}\\p{N}])|\\p{Sc})?\\s*(?:,|&|\\+|and|plus|et|y|e|und|en|och|og|i|и|va)?\\s*$`,
  "u",
);
/** How far before a minor reading its major number may end. */
const MAX_JOIN = 32;
const ONE: Dec = decInt(1);

/** Each whole number among `stated` followed, within a unit and a joining word, by one of `minor` (a reading in minor units, already in major units) below one unit: their sum, spanning both. */
export function readCompoundAmounts(view: string, stated: readonly Reading[], minor: readonly Reading[]): Reading[] {
  const out: Reading[] = [];
  for (const m of minor) {
    if (!less(m.value, ONE)) continue;
    for (const a of stated) {
      if (a.value.s !== 0 || a.end > m.start || m.start - a.end > MAX_JOIN) continue;
      if (JOIN.test(view.slice(a.end, m.start)))
        out.push({ value: plus(a.value, m.value), start: a.start, end: m.end });
    }
  }
  return out;
}
