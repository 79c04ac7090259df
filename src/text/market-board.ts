/**
 * A market's board (docs/MARKETS.md "Watching a market"): its listings (live first, each ended one
 * with how it ended; a sealed one with where its bids stand), its matches with the words they share
 * (or a sale's settled price), and the deals it recorded, read from a
 * fold of its ledger and the entries folded. The principal window (src/view/markets.ts) shows an
 * owner's part of it; the public viewer (worker/site/browser/market.ts) all of it, from what it
 * verified in the browser. What members wrote (titles, texts, words) is one safe line each; the
 * rest is trestle's words, every instant in them as ISO 8601 in UTC. Pure: no I/O, no clock.
 */
import { own } from "../protocol/encoding/records.js";
import { listingNotLive, quantityLeft } from "../protocol/policy/market/listing-live.js";
import type { ListingState, MarketState, MatchState, SealedState } from "../protocol/policy/market/market-state.js";
import type { TableState } from "../protocol/policy/state.js";
import type { Entry } from "../protocol/schemas/entry.js";
import type { ListingSide } from "../protocol/schemas/market.js";
import { safeLine } from "./framing.js";
import { groupWord, priceText, shownPriceText } from "./market.js";
import { moneyText } from "./terms.js";

/** How a listing stands: live, or how it stopped being live. */
export type ListingStanding = "live" | "withdrawn" | "superseded" | "filled" | "expired" | "left";

/** One listing on the board. */
export interface BoardListing {
  leaf: string;
  seq: number;
  owner: string;
  /** The seat that signed it, or for a listing posted from a chat group the UNVERIFIED mark (groupWord). */
  seat: string;
  side: ListingSide;
  /** The member's words, one safe line each. */
  title: string;
  text: string | null;
  category: string;
  quantity: number;
  /** The quantity no recorded deal closed. */
  left: number;
  /** The public price range in words ("ask" when there is none). */
  price: string;
  expires: number;
  standing: ListingStanding;
  /** How it ended, in trestle's words ("withdrawn at #12", "expired at 2025-…Z"); null while live. */
  ended: string | null;
  /** For a listing that takes sealed bids, where they stand in words (until when, how many, how it settled); else null. */
  sealed: string | null;
}

/** One side of a match: its listing's entry, owner and title ("?" when the market holds no listing by that leaf). */
export interface BoardSide {
  leaf: string;
  seq: number;
  owner: string;
  key: string;
  title: string;
}

/** One match on the board: both sides, the title words they share, the quantity, its room and the deal recorded for it (its entry, else null). */
export interface BoardMatch {
  seq: number;
  offer: BoardSide;
  /** For a sale by sealed bids, the winner's bid (its commit entry), titled so. */
  want: BoardSide;
  words: string[];
  /** A sale by sealed bids: its settled price in words ("450.00 TWD (45000 minor units)"); null for a match by words. */
  sale: string | null;
  quantity: number;
  room: string;
  deal: number | null;
}

/** One deal the market recorded: its entry, the match and room it came from, the quantity it closed, both owners (the offering side's first) and the deal's terms hash. */
export interface BoardDeal {
  seq: number;
  match: number;
  room: string;
  quantity: number;
  owners: [string, string];
  deal: string;
  /** The deal's amount as text, only when both owners let the market show it (decision 0529). */
  price?: string;
}

/** A market's board: listings (live first, newest first within each part), matches and recorded deals (oldest first). */
export interface MarketBoard {
  listings: BoardListing[];
  matches: BoardMatch[];
  deals: BoardDeal[];
}

/** The board of `market` (the fold of `state`, whose ledger `entries` are, from entry 1) as of `now`. */
export function marketBoard(
  state: TableState,
  market: MarketState,
  entries: readonly Entry[],
  now: number,
): MarketBoard {
  const listings = Object.entries(market.listings)
    .map(([leaf, listing]) => boardListing(state, leaf, listing, entries, now))
    .sort((a, b) => Number(b.standing === "live") - Number(a.standing === "live") || b.seq - a.seq);
  const matches = Object.entries(market.matches)
    .map(([seq, match]) => boardMatch(market, Number(seq), match, entryAt(entries, Number(seq))))
    .sort((a, b) => a.seq - b.seq);
  const deals: BoardDeal[] = [];
  for (const e of entries) {
    if (e.kind !== "system" || e.subkind !== "deal_recorded") continue;
    const [offering, wanting] = e.data.signatures;
    const price = shownPriceText(e.data);
    deals.push({
      seq: e.seq,
      match: e.data.match,
      room: e.data.room,
      quantity: e.data.quantity,
      owners: [safeLine(offering.owner), safeLine(wanting.owner)],
      deal: e.data.deal,
      ...(price ? { price } : {}),
    });
  }
  return { listings, matches, deals };
}

/** The entry at `seq` of `entries` (entry 1 first; found by search when the list has a gap). */
function entryAt(entries: readonly Entry[], seq: number): Entry | undefined {
  const at = entries[seq - 1];
  return at?.seq === seq ? at : entries.find((e) => e.seq === seq);
}

function boardListing(
  state: TableState,
  leaf: string,
  l: ListingState,
  entries: readonly Entry[],
  now: number,
): BoardListing {
  const entry = entryAt(entries, l.seq);
  const written =
    entry?.kind === "listing"
      ? entry.text
      : entry?.kind === "system" && entry.subkind === "group_listing"
        ? entry.data.text
        : undefined;
  const text = written === undefined ? null : safeLine(written, 500);
  const { standing, ended } = standingOf(state, l, now);
  return {
    leaf,
    seq: l.seq,
    owner: safeLine(l.owner),
    seat: l.seat === null ? groupWord(l.via ?? undefined) : safeLine(l.seat),
    side: l.side,
    title: safeLine(l.title),
    text,
    category: l.category,
    quantity: l.quantity,
    left: quantityLeft(l),
    price: priceText(l.price),
    expires: l.expires,
    standing,
    ended,
    sealed: l.sealed ? sealedWords(l.sealed, entries) : null,
  };
}

/** Where a listing's sealed bids stand: open for commits or reveals (until when, how many committed), or how its settlement (an entry of `entries`) went. */
function sealedWords(sealed: SealedState, entries: readonly Entry[]): string {
  const commits = Object.keys(sealed.commits).length;
  const settled = sealed.settled === null ? undefined : entryAt(entries, sealed.settled);
  if (settled?.kind === "system" && settled.subkind === "listing_settled") {
    const d = settled.data;
    return d.outcome === "sold"
      ? `sold by sealed bids to ${safeLine(d.winner.owner)} at ${moneyText(d.price, d.currency)}, settled at #${settled.seq}`
      : `sealed bids settled at #${settled.seq}: unsold (${d.reason.replace("_", " ")})`;
  }
  return `sealed bids: commits until ${new Date(sealed.until).toISOString()}, reveals until ${new Date(sealed.reveal_until).toISOString()}; ${commits} committed`;
}

/** Whether `l` is live at `now` and, when not, how it ended in words: by an entry (withdrawn, superseded, filled), its expiry, or its author leaving. */
function standingOf(
  state: TableState,
  l: ListingState,
  now: number,
): { standing: ListingStanding; ended: string | null } {
  if (l.status === "withdrawn") return { standing: "withdrawn", ended: `withdrawn at #${l.ended}` };
  if (l.status === "superseded") return { standing: "superseded", ended: `superseded by a new version, #${l.ended}` };
  if (l.status === "filled")
    return { standing: "filled", ended: `filled: recorded deals closed all ${l.quantity} (the last at #${l.ended})` };
  if (listingNotLive(state, l, now) === null) return { standing: "live", ended: null };
  if (now >= l.expires) return { standing: "expired", ended: `expired at ${new Date(l.expires).toISOString()}` };
  return {
    standing: "left",
    ended:
      l.seat === null
        ? `its owner ${safeLine(l.owner)} is no member of the market any more`
        : `its seat ${safeLine(l.seat)} left the market`,
  };
}

function boardMatch(market: MarketState, seq: number, m: MatchState, entry: Entry | undefined): BoardMatch {
  const side = (leaf: string, party: MatchState["offered_by"], at: number, title: string | undefined): BoardSide => ({
    leaf,
    seq: at,
    owner: safeLine(party.owner),
    key: party.key,
    title: safeLine(title ?? "?"),
  });
  const data = entry?.kind === "system" && entry.subkind === "match" ? entry.data : null;
  return {
    seq,
    offer: side(
      m.offer,
      m.offered_by,
      data?.offer_seq ?? own(market.listings, m.offer)?.seq ?? 0,
      own(market.listings, m.offer)?.title,
    ),
    want: side(
      m.want,
      m.wanted_by,
      data?.want_seq ?? own(market.listings, m.want)?.seq ?? 0,
      m.sale ? "winning sealed bid" : own(market.listings, m.want)?.title,
    ),
    words: (data?.words ?? []).map((w) => safeLine(w, 64)),
    sale: m.sale ? moneyText(m.sale.price, m.sale.currency) : null,
    quantity: m.quantity,
    room: m.room,
    deal: m.deal,
  };
}
