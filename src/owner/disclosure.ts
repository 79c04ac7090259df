/**
 * The `never_disclose` check (docs/ROOMS.md), on everything a seat is about to sign: every key and
 * every string or number value at any depth (`__proto__` is an ordinary key here), each string
 * also decoded (leak/decode.ts) and read through one normalisation pipeline (leak/normal-forms.ts), and
 * the message's free text read together with the seat's recent free text in the room, joined and
 * over the numbers inside its sentences (leak/split.ts), so a secret split over messages is found
 * too.
 *
 * An entry that is one number ("2400", "2,400", "two thousand four hundred") is looked for by value:
 * any spelling of that value in text (leak/numbers.ts: digits, the words of English, Chinese,
 * Japanese and 90 more languages, Roman numerals, other bases, powers of ten, minor units, bounded
 * arithmetic and totals at a unit price, digits said to be reversed),
 * and any number value equal to it; a money
 * amount (a number under `amount` or `bid`) is read both as the integer it is and in its currency's
 * major unit (240000 TWD is 2400), and one equal to a secret is refused unless the mandate's
 * `secret_amount` is `allow`. Another amount is never refused for its digits (324000 holds "2400"
 * but is not 2400). Any other entry is looked for as text (leak/text-match.ts).
 *
 * A refusal's path names protocol fields by name and every other key by its position
 * (`$.effects[0].args.<key 1>`), so neither the journal nor the error ever spells the secret.
 */
import { decInt, decKey, shift } from "./leak/decimal.js";
import { MAX_DECODED } from "./leak/decode.js";
import { protocolFieldNames } from "./leak/field-names.js";
import { foldText } from "./leak/fold.js";
import { compileSecrets, scanText, secretOfValue, type Secret } from "./leak/scan.js";
import { splitSecret } from "./leak/split.js";
import type { SecretAmount } from "./records.js";
import { currencyDigits } from "../text/terms.js";

export { foldText };

/**
 * Top-level fields of a submission that carry nothing the agent wrote: `nonce` (drawn by the
 * client library), `table` and `seat` (the seat's own place), `offer` / `grant` / `auction` and a
 * market's `listing` / `supersedes` (the hash of an entry already in the ledger, which the schema
 * requires to be one) and a sealed bid's
 * `commitment` (a SHA-256 over the bid and a random salt; the bid itself is checked, as `reveals`),
 * and a deal_sign's `deal` hash and owner key and signature (the deal's terms are the ledger's).
 * Checking them would refuse honest messages whose random nonce or hash happens to contain a listed
 * string; they cannot carry new words, so they are left out.
 */
const NOT_AUTHORED = new Set([
  "nonce",
  "table",
  "seat",
  "offer",
  "grant",
  "auction",
  "listing",
  "supersedes",
  "commitment",
  "deal",
  "owner_key",
  "owner_sig",
]);

/** What of a submission the agent wrote: every field but those in NOT_AUTHORED (at the top level only). */
export function authoredPart(submission: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(submission).filter(([key]) => !NOT_AUTHORED.has(key)));
}

/** What to check a message against. */
export interface LeakCheck {
  never: readonly string[];
  /** The seat's recent free text in this room, oldest first (recentText in leak/recent-text.ts). */
  recent?: readonly string[];
  /** The mandate's `secret_amount`: absent is `refuse`. */
  secretAmount?: SecretAmount | undefined;
  /** The currency of a money number without a `currency` beside it (a bid's: its auction's); also the currency of a number in text written in minor units ("240000 cents"). */
  currency?: string | undefined;
}

/**
 * How a secret was found: in `text`, only once `encoded` text was decoded, as a `number` value, as a
 * money `amount`, `split` over this message and the seat's recent ones, or `unread` (the message
 * decodes to more than the gate reads, so it is refused unchecked).
 */
export type DisclosureForm = "text" | "encoded" | "number" | "amount" | "split" | "unread";

/** Where a never_disclose entry was found: its index in the list (null when `unread`), the path of the field by position, and how. */
export interface Disclosure {
  index: number | null;
  path: string;
  form: DisclosureForm;
}

/** The free text of a message or entry: its `body` and its terms' `text`, in that order, when not empty. */
export function freeText(message: Record<string, unknown>): string[] {
  const terms = message.terms;
  const text = typeof terms === "object" && terms !== null && "text" in terms ? terms.text : undefined;
  return [message.body, text].filter((t): t is string => typeof t === "string" && t !== "");
}

function fromScan(scan: FirstHit, secrets: readonly Secret[], path: string): Disclosure | null {
  if (scan.overflow) return { index: null, path, form: "unread" };
  return scan.at < 0 ? null : { index: secrets[scan.at]!.index, path, form: scan.encoded ? "encoded" : "text" };
}

/** What a text scan (TextScan) decides for a message: whether decoding overflowed, and the first secret found (-1: none) and whether only decoded. */
interface FirstHit {
  overflow: boolean;
  at: number;
  encoded: boolean;
}

/** Texts scanned per compiled check remembered at most (field names, currencies and titles recur in every message). */
const SCANS_KEPT = 4096;

/** The readings (by decKey) of number `n` at a money key: the integer, and in major units when the currency is known. */
function moneyKeys(n: number, currency: string | undefined): string[] {
  const keys = [decKey(decInt(n))];
  if (currency !== undefined) keys.push(decKey(shift(decInt(n), -currencyDigits(currency))));
  return keys;
}

/** The first never_disclose entry `value` discloses, or null when none is; `value` is what the agent wrote (authoredPart). */
export function findDisclosure(value: unknown, check: LeakCheck): Disclosure | null {
  return disclosureCheck(check.never)(value, check);
}

/** findDisclosure for many messages against one never_disclose list, compiled once (a ledger scanned for every owner's secrets, say): `check.never` is ignored. */
export function disclosureCheck(
  never: readonly string[],
): (value: unknown, check: Omit<LeakCheck, "never">) => Disclosure | null {
  const secrets = compileSecrets(never);
  // A text's scan depends only on the text, the secrets and the minor digits: the same text is scanned once per check.
  const scans = new Map<string, FirstHit>();
  return (value, check) => (secrets.length === 0 ? null : disclosureIn(value, check, secrets, scans));
}

function disclosureIn(
  value: unknown,
  check: Omit<LeakCheck, "never">,
  secrets: readonly Secret[],
  scans: Map<string, FirstHit>,
): Disclosure | null {
  const fields = protocolFieldNames();
  const allowAmount = check.secretAmount === "allow";
  const minor = check.currency === undefined ? [] : [currencyDigits(check.currency)];
  const scan = (text: string): FirstHit => {
    const key = `${minor.join()}:${text}`;
    const known = scans.get(key);
    if (known) return known;
    const { counts, encoded, overflow } = scanText(text, secrets, minor);
    const at = counts.findIndex((c) => c > 0);
    const hit = { overflow, at, encoded: at >= 0 && encoded[at]! };
    if (scans.size >= SCANS_KEPT) scans.clear();
    scans.set(key, hit);
    return hit;
  };
  const number = (n: number, path: string, money: boolean, currency: string | undefined): Disclosure | null => {
    if (!Number.isSafeInteger(n) || n < 0) return fromScan(scan(String(n)), secrets, path);
    for (const key of money ? moneyKeys(n, currency) : [decKey(decInt(n))]) {
      const secret = secretOfValue(key, secrets);
      if (secret && !(money && allowAmount)) return { index: secret.index, path, form: money ? "amount" : "number" };
    }
    return null;
  };
  const walk = (
    v: unknown,
    path: string,
    seen: Set<object>,
    money: boolean,
    currency: string | undefined,
  ): Disclosure | null => {
    if (typeof v === "string") return fromScan(scan(v), secrets, path);
    if (typeof v === "number") return number(v, path, money, currency);
    if (typeof v === "bigint") return fromScan(scan(String(v)), secrets, path);
    if (typeof v !== "object" || v === null || seen.has(v)) return null;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${path}[${i}]`, seen, false, currency);
        if (found) return found;
      }
      return null;
    }
    const record = v as Record<string, unknown>;
    const here = typeof record.currency === "string" ? record.currency : check.currency;
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const byPosition = `${path}.<key ${i + 1}>`;
      const found =
        fromScan(scan(key), secrets, byPosition) ??
        walk(
          record[key],
          fields.has(key) ? `${path}.${key}` : byPosition,
          seen,
          key === "amount" || key === "bid",
          here,
        );
      if (found) return found;
    }
    return null;
  };
  const found = walk(value, "$", new Set(), false, check.currency);
  if (found || typeof value !== "object" || value === null || Array.isArray(value)) return found;
  return splitDisclosure(freeText(value as Record<string, unknown>), check.recent ?? [], secrets);
}

/** A secret that the free text `current` states only together with `recent` (leak/split.ts): split over messages or fields. */
function splitDisclosure(current: string[], recent: readonly string[], secrets: readonly Secret[]): Disclosure | null {
  const at = splitSecret(current, recent, secrets);
  if (at === "unread") return { index: null, path: "$", form: "unread" };
  return at === null ? null : { index: secrets[at]!.index, path: "$", form: "split" };
}

/** The refusal's message for `d`: it names the entry by number and the field by position, never the entry itself. */
export function disclosureMessage(d: Disclosure): string {
  const entry = `never_disclose entry #${(d.index ?? 0) + 1}`;
  switch (d.form) {
    case "unread":
      return `the message decodes to more than the never_disclose check reads (${MAX_DECODED} decoded characters); it was not sent unchecked`;
    case "split":
      return `the message contains ${entry} when read with this seat's last messages in the room (split over messages or fields); it was not sent`;
    case "amount":
      return `the message contains ${entry} at ${d.path} as its amount (the mandate's secret_amount is refuse, the default); it was not sent`;
    case "encoded":
      return `the message contains ${entry} at ${d.path}, once decoded; it was not sent`;
    default:
      return `the message contains ${entry} at ${d.path}; it was not sent`;
  }
}
