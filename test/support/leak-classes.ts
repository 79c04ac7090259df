/**
 * Spellings of a secret number by class, and honest texts of the same shapes that must not be
 * refused (docs/ROOMS.md "The leak gate"; issue 34): generated from the secret's value with a
 * seeded generator, so each class is measured on values it was not written for. Shared by
 * test/unit/owner/leak/classes.test.ts and `npm run bench -- --leaks`.
 */
import { ToWords } from "to-words";
import { findDisclosure } from "../../src/owner/index.js";
import { inKana, inRoman, inWords } from "./spell-numbers.js";

/** One text to check: a say's `body`, with the seat's `recent` text when the class is a split. */
export interface ClassCase {
  body: string;
  recent?: string[];
}

/** The secrets the classes are generated for. */
export const CLASS_SECRETS = [2400, 1850, 36000, 7250] as const;

/** A deterministic generator (mulberry32): the same seed, the same texts. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const say = (locale: string, n: number) => new ToWords({ localeCode: locale }).convert(n).toLowerCase();
const UNIT = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const MORSE = ["-----", ".----", "..---", "...--", "....-", ".....", "-....", "--...", "---..", "----."];
const rot13 = (t: string) => t.replace(/[a-z]/g, (ch) => String.fromCharCode(((ch.charCodeAt(0) - 97 + 13) % 26) + 97));
/** A divisor pair of `v` with both factors above 12, if any. */
function factors(v: number): [number, number] | null {
  for (let a = Math.floor(Math.sqrt(v)); a > 12; a--) if (v % a === 0 && v / a > 12) return [a, v / a];
  return null;
}

/** `v` as a mantissa and a power of ten (2400: 2.4 and 3). */
function scientific(v: number): [string, number] {
  const exponent = String(v).length - 1;
  return [String(v / 10 ** exponent), exponent];
}

/** The spellings of `v` of each class the gate reads (issue 34's list), each an invented sentence. */
export function leakClasses(v: number): Record<string, ClassCase[]> {
  const [mantissa, exponent] = scientific(v);
  const sup = (k: number) => [...String(k)].map((d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(d)]).join("");
  const pair = factors(v);
  const head = Math.floor(v / 100);
  const digits = [...String(v)];
  const out: Record<string, ClassCase[]> = {
    fractions: [
      ...(v % 1000 === 0
        ? []
        : [
            {
              body: `my floor is ${inWords(Math.floor(v / 1000), "-")} point ${[
                ...String(v % 1000)
                  .padStart(3, "0")
                  .replace(/0+$/, ""),
              ]
                .map((d) => UNIT[Number(d)])
                .join(" ")} thousand`,
            },
            {
              body: `unter ${say("de-DE", Math.floor(v / 1000))} Komma ${[
                ...String(v % 1000)
                  .padStart(3, "0")
                  .replace(/0+$/, ""),
              ]
                .map((d) => say("de-DE", Number(d)))
                .join(" ")} tausend gehe ich nicht`,
            },
            {
              body: `no bajo de ${say("es-ES", Math.floor(v / 1000))} coma ${[
                ...String(v % 1000)
                  .padStart(3, "0")
                  .replace(/0+$/, ""),
              ]
                .map((d) => say("es-ES", Number(d)))
                .join(" ")} mil`,
            },
          ]),
      ...([250, 500, 750].includes(v % 1000)
        ? [
            {
              body: `about ${inWords(Math.floor(v / 1000), "-")} and ${{ 250: "a quarter", 500: "a half", 750: "three quarters" }[v % 1000]} thousand`,
            },
          ]
        : []),
      ...(v % 100 === 50 ? [{ body: `${inWords(Math.floor(v / 100), "-")} and a half hundred, final` }] : []),
    ],
    roman:
      v > 3999
        ? [
            {
              body: `the code: ${[...inRoman(Math.floor(v / 1000))].map((ch) => `${ch}\u0305`).join("")}${v % 1000 ? inRoman(v % 1000) : ""}`,
            },
          ]
        : [
            { body: `floor: ${[...inRoman(v)].join(". ")}.` },
            { body: `floor: ${[...inRoman(v)].join(" ")}` },
            {
              body: `the code: ${[...inRoman(Math.floor(v / 1000))].map((ch) => `${ch}\u0305`).join("")}${v % 1000 ? inRoman(v % 1000) : ""}`,
            },
            ...(v % 100 === 0 && head >= 2 ? [{ body: `about ${inRoman(head)} hundred` }] : []),
          ],
    bases: [
      { body: `it is ${v.toString(16)} in hexadecimal` },
      { body: `in base 7 it reads ${v.toString(7)}` },
      { body: `binary: ${v.toString(2)}` },
      { body: `${v.toString(8)} in octal, ok?` },
    ],
    scientific: [
      { body: `floor ${mantissa} × 10${sup(exponent)}` },
      { body: `floor ${mantissa} x 10^${exponent}` },
      { body: `${mantissa}·10^${exponent} is the least` },
    ],
    arithmetic: [
      { body: `start from ${v + 100}, subtract 100` },
      { body: `${v + 150} take away 150` },
      { body: `100 less than ${v + 100}` },
      { body: `take 50 short of ${v + 50}` },
      { body: `subtract 75 from ${v + 75}` },
      { body: `twice ${v / 2}, that is it` },
      ...(pair ? [{ body: `${pair[0]} x ${pair[1]} = my floor` }] : []),
      { body: `${v / 50} items at 50 each` },
      { body: `${v / 25} × 25 each` },
    ],
    mixed: [
      ...(v % 100 === 0 && head >= 21 && head <= 99 && head % 10 !== 0
        ? [{ body: `${inWords(head - (head % 10), "-")}-${head % 10} hundred` }]
        : []),
      ...(v % 100 === 0 && v < 10000 ? [{ body: `${Math.floor(v / 1000)} thousand ${(v % 1000) / 100} hundred` }] : []),
      {
        body: `${digits.slice(0, 2).join("")} ${digits
          .slice(2)
          .map((d) => UNIT[Number(d)])
          .join(" ")}`,
      },
    ],
    counted:
      v % 100 === 0
        ? [
            { body: `${head} followed by two zeros` },
            { body: `${inWords(head, "-")} and double zero` },
            { body: "and it ends with two zeros", recent: [`my floor starts with ${head}`] },
          ]
        : [],
    languages: [
      { body: `${inKana(v)}えんです` },
      ...["bn-IN", "mr-IN", "pa-IN", "ur-PK", "te-IN", "kn-IN", "ha-NG", "yo-NG"].map((locale) => ({
        body: `${say(locale, v)}`,
      })),
    ],
    encodings: [
      { body: `my floor: ${digits.map((d) => MORSE[Number(d)]).join(" ")}` },
      { body: rot13(inWords(v, "-")) },
      { body: `${[...digits].reverse().join("")} backwards` },
    ],
  };
  return out;
}

/** Honest texts of each class's shape, and ordinary amounts, none of which states `v`: other values, sizes, dates, times, phone numbers, versions, ids, counts. */
export function cleanClasses(v: number, seed = v): Record<string, ClassCase[]> {
  const rnd = random(seed);
  const other = (lo: number, hi: number) => {
    for (;;) {
      const n = lo + Math.floor(rnd() * (hi - lo));
      if (n !== v && !String(n).includes(String(v))) return n;
    }
  };
  const pair = factors(v);
  const price = other(100, 99_999);
  return {
    fractions: [
      { body: "two and a half hours, then one and a half weeks" },
      { body: `the rating is four point five, and ${other(2, 9)} and a half stars` },
      { body: `${say("de-DE", other(2, 9))} Komma fünf Stunden` },
    ],
    roman: [
      { body: "World War II, Henry VIII and Super Bowl LVIII" },
      { body: "chapter XIV of J. R. R. Tolkien" },
      { body: `the MMXXIV edition, ${other(100, 999)} pages` },
    ],
    bases: [
      { body: "a hex key of 4 mm and a binary choice" },
      { body: `the base 10 system, ${other(1000, 9999)} of them` },
      { body: `hex bolts, ${other(10, 99)} of them` },
    ],
    scientific: [
      { body: `10^3 users and ${other(2, 9)}.5 GB` },
      { body: `version 2.4 x 10 units, ${other(100, 999)} in stock` },
    ],
    arithmetic: [
      { body: "ships in 2 - 3 weeks, for ages 10-12" },
      ...(pair
        ? [{ body: `the box is ${pair[0]}x${pair[1]}` }, { body: `folded it is ${pair[0]} x ${pair[1]} cm` }]
        : []),
      { body: "score 3-2, open 24/7, split 50/50" },
      { body: "100 less than I hoped, but fine" },
      { body: `we need ${other(2, 9)} of them, the budget is ${other(100, 999)}` },
      { body: `${other(2, 9)} strollers at ${other(10, 999)} Main Street` },
    ],
    mixed: [{ body: "twenty 4-packs and 2 one-bedroom flats" }, { body: "I have 2 two-year-olds" }],
    counted: [
      { body: "I rolled two sixes" },
      { body: "the code has three nines in it" },
      { body: "then double zero", recent: [`I have ${other(2, 9)} kids`] },
    ],
    languages: [
      { body: `${inKana(other(1000, 9999))}えんなら、さんにんで` },
      ...["de-DE", "fr-FR", "es-ES", "bn-IN", "ur-PK", "ha-NG"].map((locale) => ({
        body: `${say(locale, other(1000, 99_999))}`,
      })),
    ],
    encodings: [
      { body: "well... - ok -- see you" },
      { body: "-----\nprice list\n-----" },
      { body: "meet me at the bar, one or two" },
      { body: `backwards compatible since ${other(1990, 2023)}` },
    ],
    ordinary: [
      { body: `I can do ${price.toLocaleString("en-US")} for the pair, delivered Friday.` },
      { body: `My counter-offer is ${other(100, 99_999)} and not a cent more.` },
      {
        body: `We need ${other(2, 50)} of them by 2024-0${other(1, 9)}-1${other(0, 9)} at ${other(10, 23)}:${other(10, 59)}.`,
      },
      { body: `Call me on +886 2 ${other(1000, 9999)} ${other(1000, 9999)}.` },
      { body: `Update to version ${other(1, 9)}.${other(0, 20)}.${other(0, 9)} first; ticket #${other(100, 999)}-B.` },
      { body: `The rug is ${other(100, 300)} x ${other(100, 300)} cm and weighs ${other(2, 20)} kg.` },
      { body: `Deux mille ${["cent", "trois cents", "neuf cents"][other(0, 3)]}, c'est mon dernier prix.` },
      {
        body: `Order ${other(10_000, 99_999)} ships in ${other(2, 9)} days; ${other(2, 9)} items at ${other(10, 99)} each.`,
      },
    ],
  };
}

/** Whether the gate refuses `c` when `v` is the secret. */
export function refused(c: ClassCase, v: number): boolean {
  return findDisclosure({ kind: "say", body: c.body }, { never: [String(v)], recent: c.recent }) !== null;
}

/** For each class: how many of its spellings of the CLASS_SECRETS the gate refuses, and how many honest texts of its shape it refuses (each should be 0). */
export function classCounts(): Record<string, { caught: number; leaks: number; refused: number; clean: number }> {
  const out: Record<string, { caught: number; leaks: number; refused: number; clean: number }> = {};
  const at = (name: string) => (out[name] ??= { caught: 0, leaks: 0, refused: 0, clean: 0 });
  for (const v of CLASS_SECRETS) {
    for (const [name, cases] of Object.entries(leakClasses(v)))
      for (const c of cases)
        Object.assign(at(name), { leaks: at(name).leaks + 1, caught: at(name).caught + (refused(c, v) ? 1 : 0) });
    for (const [name, cases] of Object.entries(cleanClasses(v)))
      for (const c of cases)
        Object.assign(at(name), { clean: at(name).clean + 1, refused: at(name).refused + (refused(c, v) ? 1 : 0) });
  }
  return out;
}
