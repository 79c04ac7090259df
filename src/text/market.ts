/**
 * Markets in words (docs/SPEC.md §5.15): a listing's public price range, a listing as a search
 * answers it, a match from one owner's side, and the market's entries as a live tail shows them
 * (sealed bids, their settlement and a sale's match included).
 * Titles and texts are other members' words: each is quoted on one safe line, so nothing in it can
 * pass for a price, a quantity or an expiry. Pure: no I/O, no clock.
 */
import { matchRoomId } from "../protocol/policy/market/citation.js";
import type { Entry } from "../protocol/schemas/entry.js";
import type { DealRecordedData, ListingSide, ListingView, PriceRange } from "../protocol/schemas/market.js";
import type { MatchParty } from "../protocol/schemas/match.js";
import { counted } from "./count.js";
import { safeLine } from "./framing.js";
import { majorUnits, moneyText, shortHash } from "./terms.js";

/** A title or text as another member wrote it: quoted, on one safe line. */
export function quotedListing(text: string): string {
  return JSON.stringify(safeLine(text, 200));
}

/** A quantity in words: "1 unit", "3 units". */
export function unitsText(quantity: number): string {
  return counted(quantity, "unit");
}

/** A public price range in words: "3,000.00-3,600.00 TWD", "3,000.00 TWD or more", "up to 3,600.00 TWD", or "ask" when there is none. */
export function priceText(price: PriceRange | null | undefined): string {
  if (!price) return "ask";
  const at = (amount: number) => majorUnits(amount, price.currency);
  if (price.min !== undefined && price.max !== undefined)
    return price.min === price.max
      ? `${at(price.min)} ${price.currency}`
      : `${at(price.min)}-${at(price.max)} ${price.currency}`;
  return price.min !== undefined
    ? `${at(price.min)} ${price.currency} or more`
    : `up to ${at(price.max!)} ${price.currency}`;
}

/** A listing as a search answers it, on one line: its seq and hash, side, title, category, quantity left, price, owner and seat (or UNVERIFIED and the platform, for one posted from a chat group), expiry. */
export function listingLine(l: ListingView): string {
  return `#${l.seq} ${shortHash(l.leaf)} ${l.side} ${quotedListing(l.title)} (${l.category}), ${l.left} of ${l.quantity} left, ${priceText(l.price)}, by ${l.owner} (${l.seat ?? groupWord(l.via)}), until ${new Date(l.expires).toISOString()}`;
}

/** How a listing posted from a chat group is marked wherever it is shown: relay-attested, never the owner's signature. */
export function groupWord(via: string | undefined): string {
  return `UNVERIFIED: posted from a ${via ?? "chat"} group, relay-attested, signed by nobody`;
}

/** One owner's match in words: both listings (this owner's first), the quantity, and where its room stands. */
export function ownMatchLine(m: {
  seq: number;
  side: ListingSide;
  title: string;
  their_title: string;
  other: MatchParty;
  quantity: number;
  room: string;
  room_presence: string;
  deal: number | null;
}): string {
  const theirs = m.side === "offer" ? "want" : "offer";
  return `match #${m.seq}: your ${m.side} ${quotedListing(m.title)} with ${m.other.owner}'s ${theirs} ${quotedListing(m.their_title)}, ${unitsText(m.quantity)}; room ${m.room} ${roomStandingText(m)}`;
}

/** Where a match's room stands, in words: its recorded deal, else not opened yet, open or deleted. */
export function roomStandingText(m: { room_presence: string; deal: number | null }): string {
  return m.deal !== null
    ? `deal recorded at #${m.deal}`
    : m.room_presence === "none"
      ? "not opened yet"
      : m.room_presence === "deleted"
        ? "deleted"
        : "open";
}

/** A market entry as a live tail shows it (a listing, one posted from a group, a withdrawal, a sealed bid, a settlement, a match or sale, a recorded deal, a group bound or unbound); null for any other entry. */
export function marketEntryText(e: Entry): string | null {
  if (e.kind === "listing") {
    const version = e.supersedes === undefined ? "" : ` (new version of ${shortHash(e.supersedes)})`;
    const price = e.sealed
      ? `sealed bids until ${new Date(e.sealed.until).toISOString()} (reveals until ${new Date(e.sealed.reveal_until).toISOString()}), reserve ${priceText(e.price)}`
      : priceText(e.price);
    return `${e.seat} lists ${e.side === "offer" ? "an offer" : "a want"} ${shortHash(e.leaf)}${version}: ${quotedListing(e.title)} (${e.category}), ${unitsText(e.quantity)}, ${price}, until ${new Date(e.expires).toISOString()}`;
  }
  if (e.kind === "unlist") return `${e.seat} withdraws listing ${shortHash(e.listing)}`;
  if (e.kind === "bid")
    return e.op === "commit"
      ? `${e.seat} commits a sealed bid on listing ${shortHash(e.listing)}`
      : `${e.seat} reveals a bid of ${e.bid} (minor units) on listing ${shortHash(e.listing)}`;
  if (e.kind !== "system") return null;
  if (e.subkind === "group_listing") {
    const d = e.data;
    return `${d.owner} lists ${d.side === "offer" ? "an offer" : "a want"} ${shortHash(e.leaf)} (${groupWord(d.via)}): ${quotedListing(d.title)} (${d.category}), ${d.quantity} unit${d.quantity === 1 ? "" : "s"}, ${priceText(d.price)}, until ${new Date(d.expires).toISOString()}`;
  }
  if (e.subkind === "group_unlist")
    return `${e.data.owner} withdraws listing ${shortHash(e.data.listing)} (${groupWord(e.data.via)})`;
  if (e.subkind === "group_bound")
    return `${e.data.by} binds ${e.data.platform} group ${safeLine(e.data.group, 64)} (${e.data.lang}); the group id is the relay's word`;
  if (e.subkind === "group_unbound")
    return `${e.data.by} unbinds ${e.data.platform} group ${safeLine(e.data.group, 64)}`;
  if (e.subkind === "match") {
    const d = e.data;
    const units = unitsText(d.quantity);
    if (d.sale)
      return `sale: ${d.offered_by.owner}'s listing #${d.offer_seq} to ${d.wanted_by.owner}'s bid #${d.want_seq}, ${units} at ${moneyText(d.sale.price, d.sale.currency)}; its room is ${matchRoomId(e.leaf)}`;
    return `match: ${d.offered_by.owner}'s offer #${d.offer_seq} with ${d.wanted_by.owner}'s want #${d.want_seq}, ${units} (words: ${d.words.map((w) => safeLine(w, 64)).join(", ")}); its room is ${matchRoomId(e.leaf)}`;
  }
  if (e.subkind === "listing_settled") {
    const d = e.data;
    return d.outcome === "sold"
      ? `listing ${shortHash(d.listing)} sold by sealed bids to ${d.winner.owner} at ${moneyText(d.price, d.currency)}`
      : `listing ${shortHash(d.listing)} settled unsold (${d.reason})`;
  }
  if (e.subkind === "deal_recorded") {
    const price = shownPriceText(e.data);
    return `deal recorded for match #${e.data.match} (room ${e.data.room}), closing ${unitsText(e.data.quantity)}${price ? `, at ${price} (shown: both owners allowed it)` : ""}`;
  }
  return null;
}

/** A recorded deal's amount as text when both owners let the market show it (decision 0529); undefined otherwise or for terms with no amount. */
export function shownPriceText(data: DealRecordedData): string | undefined {
  const terms = data.price?.terms.terms;
  return terms?.amount !== undefined && terms.currency !== undefined
    ? moneyText(terms.amount, terms.currency)
    : undefined;
}
