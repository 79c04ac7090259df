/**
 * Commitment terms in words (docs/SECURITY.md "Never a signature without what it binds"): the one
 * formatter of amounts, terms, offers and auctions for every place that asks a person to approve
 * something or shows them a commitment (the principal window, `trestle gate list`, `room show`,
 * `read`, the MCP elicitation of a held message, a chat message about a deal; commitment.ts puts
 * them together per room kind). An amount is shown in the currency's major unit (its ISO 4217
 * minor digits: 0 for JPY, 3 for KWD) with the integer a signature covers beside it; the item
 * text is another party's words, quoted on one safe line so nothing in it can pass for the amount
 * or the expiry; the expiry is said, or that there is none; a sealed text (an end-to-end encrypted
 * room) that was not opened reads as sealed, never as terms.
 * Pure: no I/O, no clock, no Node or Workers globals, so the Worker's chat code uses it too.
 */
import { safeJson, safeLine } from "./framing.js";
import { LIMITS } from "../protocol/limits/limits.js";
import { isSealedText } from "../protocol/signing/sealed-text.js";
import type { AuctionState } from "../protocol/policy/room-state.js";
import { CurrencySchema, type Terms } from "../protocol/schemas/room.js";
import { minorDigits } from "../protocol/rooms/currencies.js";

/** The fixed words around terms, with `{name}` placeholders; chat passes them in the owner's language. */
export interface TermsWords {
  /** "{amount} minor units" */
  minor: string;
  /** "for {text}": the item text, already quoted. */
  item: string;
  /** "expires {at}" */
  expires: string;
  noExpiry: string;
  /** "offer #{seq} by {seat}" */
  offer: string;
  /** "auction #{seq}" */
  auction: string;
  /** What a sealed text that was not opened reads as. */
  sealed: string;
}

/** The words in English (the CLI, the window, MCP). */
export const EN_TERMS: TermsWords = {
  minor: "{amount} minor units",
  item: "for {text}",
  expires: "expires {at}",
  noExpiry: "no expiry",
  offer: "offer #{seq} by {seat}",
  auction: "auction #{seq}",
  sealed: "[sealed text, not opened on this machine]",
};

/** `template` with each `{name}` replaced by `values[name]` (one pass, so a value is never read as a placeholder). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** How many digits of `currency`'s minor unit make its major unit: ISO 4217's, as SPEC §5.10 lists them (TWD 2, JPY 0, KWD 3); 2 for a code the protocol does not accept. */
export function currencyDigits(currency: string): number {
  const code = CurrencySchema.safeParse(currency);
  return code.success ? minorDigits(code.data) : 2;
}

/** `amount` minor units of `currency` in major units: 280000 TWD is "2,800.00", 280000 JPY "280,000", 280000 KWD "280.000". */
export function majorUnits(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount) || amount < 0) return String(amount);
  const digits = currencyDigits(currency);
  const text = String(amount).padStart(digits + 1, "0");
  const whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+$)/g, ",");
  return digits === 0 ? whole : `${whole}.${text.slice(text.length - digits)}`;
}

/** An amount in words: "2,800.00 TWD (280000 minor units)": the major units a person reads, and the integer a signature covers. */
export function moneyText(amount: number, currency: string, words: TermsWords = EN_TERMS): string {
  return `${majorUnits(amount, currency)} ${currency} (${fill(words.minor, { amount })})`;
}

/** A text a seat wrote, as terms show it: quoted on one safe line (whole: nothing cut), or the sealed words for sealed text. */
export function quotedText(text: string, words: TermsWords = EN_TERMS): string {
  return isSealedText(text) ? words.sealed : safeJson(safeLine(text, LIMITS.terms_text_chars));
}

/** Terms in words: the amount with its currency, then the item text: `2,800.00 TWD (280000 minor units) for "stroller, folds flat"`. */
export function termsText(terms: Terms, words: TermsWords = EN_TERMS): string {
  const item = terms.text === undefined ? null : quotedText(terms.text, words);
  if (terms.amount === undefined || terms.currency === undefined) return item ?? "";
  const money = moneyText(terms.amount, terms.currency, words);
  return item === null ? money : `${money} ${fill(words.item, { text: item })}`;
}

/** When something ends, in words: "expires 2026-05-02T10:00:00.000Z", or "no expiry" for null. */
export function expiryText(expires: number | null, words: TermsWords = EN_TERMS): string {
  return expires === null ? words.noExpiry : fill(words.expires, { at: new Date(expires).toISOString() });
}

/** An offer's or counter's terms with its expiry: `2,800.00 TWD (280000 minor units) for "stroller", expires …`. */
export function offerTermsText(offer: { terms: Terms; expires: number | null }, words: TermsWords = EN_TERMS): string {
  return `${termsText(offer.terms, words)}, ${expiryText(offer.expires, words)}`;
}

/** An offer named and in full: `offer #12 by bob: 2,800.00 TWD (280000 minor units) for "stroller", expires …`. */
export function offerText(
  offer: { seq: number; seat: string; terms: Terms; expires: number | null },
  words: TermsWords = EN_TERMS,
): string {
  return `${fill(words.offer, { seq: offer.seq, seat: safeLine(offer.seat, 64) })}: ${offerTermsText(offer, words)}`;
}

/** A hash as the CLI lists it and a person types it back: its first 12 characters. */
export function shortHash(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

/** An auction that settled with a deal, named and at its price: `auction #5: 2,750.00 TWD (275000 minor units)`. */
export function auctionDealText(
  auction: { seq: number; price: number; currency: string },
  words: TermsWords = EN_TERMS,
): string {
  return `${fill(words.auction, { seq: auction.seq })}: ${moneyText(auction.price, auction.currency, words)}`;
}

/** An auction in one line (named by `ref`): its sides, k, and where it stands (commits, reveals, settlement at its price). */
export function auctionText(a: AuctionState, ref: string): string {
  const head = `auction #${a.seq} ${ref}: ${safeLine(a.sides.buyer, 64)} buys from ${safeLine(a.sides.seller, 64)} in ${a.currency}, k ${a.k.num}/${a.k.den}`;
  if (a.settled !== null)
    return `${head}: settled at entry #${a.settled}, ${a.price === null ? "no deal" : `deal at ${moneyText(a.price, a.currency)}`}`;
  const sides = (["buyer", "seller"] as const).map(
    (s) => `${s} ${a.bids[s] !== null ? "revealed" : a.commits[s] !== null ? "committed" : "not committed"}`,
  );
  return `${head}: ${sides.join(", ")}; commits until ${new Date(a.deadline).toISOString()}, reveals until ${new Date(a.reveal_deadline).toISOString()}`;
}
