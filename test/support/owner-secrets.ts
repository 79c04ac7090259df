/**
 * An owner's secrets for the tests of what reaches a seat's agent (docs/ROOMS.md "What reaches the
 * agent"): a money floor and cap in TWD minor units, two never_disclose strings, and `leaks`, which
 * finds any of them in a text an agent was given, in every spelling the test can think of: the
 * integers as written, grouped (`,` `.` space `_`), in major units with and without grouping and
 * decimals, and everything the leak gate's own scanner reads (src/owner/leak: any digit script,
 * number words, shorthand, encodings). The figures are long enough that no hash, nonce or clock
 * reading spells them by chance.
 */
import { compileSecrets, scanText } from "../../src/owner/leak/scan.js";

/** The owner's money limits and never_disclose strings. */
export const SECRETS = {
  currency: "TWD",
  floor: 8_764_213_095,
  cap: 9_530_867_214,
  never: ["Kestrel-Juniper-7", "walk away at 87,642,130"],
} as const;

/** An amount under the floor and one over the cap, for offers the guard refuses. */
export const UNDER_FLOOR = 5_000_000_000;
export const OVER_CAP = 9_900_000_000;

/** Every spelling of `minor` (minor units, 2 decimals) looked for as a substring. */
function spellings(minor: number): string[] {
  const digits = String(minor);
  const whole = digits.slice(0, -2);
  const cents = digits.slice(-2);
  const group = (text: string, by: string) => text.replace(/\B(?=(\d{3})+$)/g, by);
  return [
    digits,
    whole,
    ...[",", ".", " ", "_", "\u00a0", "\u202f"].flatMap((by) => [
      group(digits, by),
      group(whole, by),
      `${group(whole, by)}.${cents}`,
      `${group(whole, by)},${cents}`,
    ]),
  ];
}

const figures = [SECRETS.floor, SECRETS.cap];
const substrings = [...figures.flatMap(spellings), ...SECRETS.never];
const scanned = compileSecrets([
  ...figures.flatMap((n) => [String(n), `${String(n).slice(0, -2)}.${String(n).slice(-2)}`]),
  ...SECRETS.never,
]);

/** The spellings of the secrets in `text` (empty when none), by substring and by the leak gate's scanner. */
export function leaks(text: string): string[] {
  const found = substrings.filter((s) => text.includes(s));
  const scan = scanText(text, scanned);
  if (scan.overflow) found.push("(text too long for the scanner)");
  scan.counts.forEach((count, i) => count > 0 && found.push(`scanner: secret #${i + 1}`));
  return found;
}
