/**
 * A listing as a member types it in a group (docs/CHAT-APPS.md "Groups"): `<item> [<price>
 * <CURRENCY>] [#<category>]`, the price in the currency's major units (`2800 TWD`, `12.50 usd`,
 * `JPY 3000`), the category one of the market's (the first when there is one only). A seller's price
 * is what they ask at least, a buyer's what they pay at most. The item is the member's own words:
 * kept as typed, for agents to read framed as data; one that is empty once cleaned for people
 * (controls, bidi and zero-width characters removed: src/text/framing.ts) is no listing. Pure.
 */
import { LIMITS } from "../protocol/limits/limits.js";
import { CurrencySchema, type Currency } from "../protocol/schemas/money.js";
import type { ListingSide, PriceRange } from "../protocol/schemas/market.js";
import { safeLine } from "../text/framing.js";
import { currencyDigits } from "../text/terms.js";

/** What a listing typed in a group says, ready for a `group_listing`. */
export interface TypedListing {
  title: string;
  /** The whole description, when the item is longer than a title may be. */
  text?: string;
  category: string;
  price?: PriceRange;
}

const AMOUNT = /^(\d{1,15})(?:[.,](\d{1,3}))?$/;

/** The listing `arg` types for `side` in a market with `categories`, or null when it is not one (say how instead). */
export function parseTypedListing(arg: string, side: ListingSide, categories: readonly string[]): TypedListing | null {
  const words = arg.split(/\s+/).filter((w) => w !== "");
  const tagged = words.filter((w) => w.startsWith("#"));
  if (tagged.length > 1) return null;
  const category =
    tagged.length === 1 ? tagged[0]!.slice(1).toLowerCase() : categories.length === 1 ? categories[0]! : undefined;
  if (category === undefined || !categories.includes(category)) return null;
  const rest = words.filter((w) => !w.startsWith("#"));
  const price = priceAtEnd(rest, side);
  const item = (price ? rest.slice(0, -2) : rest).join(" ");
  if (safeLine(item) === "" || [...item].length > LIMITS.terms_text_chars) return null;
  const chars = [...item];
  const title = chars.length <= LIMITS.listing_title_chars ? item : chars.slice(0, LIMITS.listing_title_chars).join("");
  return { title, ...(title === item ? {} : { text: item }), category, ...(price ? { price: price.range } : {}) };
}

/** A price in the last two words (`2800 TWD` or `TWD 2800`), as the side's bound, or null. */
function priceAtEnd(words: readonly string[], side: ListingSide): { range: PriceRange } | null {
  if (words.length < 2) return null;
  const [a, b] = words.slice(-2) as [string, string];
  const [amount, code] = CurrencySchema.safeParse(b.toUpperCase()).success ? [a, b] : [b, a];
  const currency = CurrencySchema.safeParse(code.toUpperCase());
  const minor = currency.success ? minorUnits(amount, currency.data) : null;
  if (minor === null || !currency.success) return null;
  return {
    range: side === "offer" ? { currency: currency.data, min: minor } : { currency: currency.data, max: minor },
  };
}

/** `amount` in major units of `currency` as an integer of its minor unit, or null (more decimals than the currency has, or not a number). */
function minorUnits(amount: string, currency: Currency): number | null {
  const match = AMOUNT.exec(amount);
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(minor) ? minor : null;
}
