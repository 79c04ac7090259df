/**
 * A market as the owner's surfaces show it, from the verified transcript (docs/SPEC.md §5.15): its
 * folded state, a listing named by seq or hash (live or not), the fields of the entry that wrote it
 * (where a new version starts from), how long a new listing lives by default, the matches a
 * listing made, and one owner's matches with the titles of both listings and whether each match's
 * room exists on the relay.
 */
import { matchesOf, roomPresence, type HttpClient, type OwnMatch, type RoomPresence } from "../client/index.js";
import {
  own,
  requireMarket,
  TrestleError,
  type Entry,
  type ListingSide,
  type ListingState,
  type MarketState,
  type MatchParty,
  type TableState,
} from "../protocol/index.js";
import { entryRef } from "./entry-ref.js";
import type { Transcript } from "./transcript.js";

/** The market's folded state from `transcript`: E_REFUTED when it is REFUTED, E_BAD_RESPONSE when it could not be folded, E_NOT_ALLOWED when the table is no market. */
export function marketState(transcript: Transcript): TableState & { market: MarketState } {
  const { report, state } = transcript;
  if (report.verdict === "REFUTED")
    throw new TrestleError(
      "E_REFUTED",
      `the market's transcript is REFUTED at ${report.refuted?.seq ?? "?"}: ${report.refuted?.reason ?? "no reason given"}`,
      { ...report.refuted },
    );
  if (!state)
    throw new TrestleError(
      "E_BAD_RESPONSE",
      `the market's transcript could not be folded (${report.verdict}: not every entry was readable)`,
    );
  requireMarket(state, "listings and matches");
  return state as TableState & { market: MarketState };
}

/** The listing `ref` names (its entry's seq, its hash, or 8 or more hex characters of it), with its leaf; E_UNKNOWN_LISTING when the market has none. */
export function resolveListing(
  state: TableState & { market: MarketState },
  ref: string,
): { leaf: string; listing: ListingState } {
  const leaf = entryRef(state.market.listings, ref, "listing", "E_UNKNOWN_LISTING", `market ${state.table}`);
  return { leaf, listing: state.market.listings[leaf]! };
}

/** The `listing` entry at `seq` of `transcript`, whose fields a new version starts from. */
export function listingEntry(transcript: Transcript, seq: number): Extract<Entry, { kind: "listing" }> {
  const entry = transcript.entries[seq - 1];
  if (!entry || entry.seq !== seq || entry.kind !== "listing")
    throw new TrestleError("E_UNKNOWN_LISTING", `entry ${seq} is not a listing`);
  return entry;
}

/** How long a listing lives when its writer names no expiry: the longest `ttlMs` (the market's listing lifetime) allows, less a minute (half of it under two) for clocks that differ. */
export function defaultListingLifetime(ttlMs: number): number {
  return ttlMs - Math.min(60_000, ttlMs / 2);
}

/** One match a listing made, from that listing's side: the match's seq, the other side's party, listing (leaf), side and title. */
export interface ListingMatch {
  seq: number;
  party: MatchParty;
  listing: string;
  side: ListingSide;
  title: string;
}

/** The matches in `state` that the listing `leaf` is a side of, oldest first. */
export function listingMatches(state: TableState & { market: MarketState }, leaf: string): ListingMatch[] {
  return Object.entries(state.market.matches)
    .filter(([, m]) => m.offer === leaf || m.want === leaf)
    .map(([seq, m]) => {
      const other =
        m.offer === leaf
          ? { party: m.wanted_by, listing: m.want, side: "want" as const }
          : { party: m.offered_by, listing: m.offer, side: "offer" as const };
      return { seq: Number(seq), ...other, title: own(state.market.listings, other.listing)?.title ?? "?" };
    })
    .sort((a, b) => a.seq - b.seq);
}

/** One of an owner's matches as the owner reads it: both listings' titles and whether its room exists. */
export interface MatchView extends OwnMatch {
  /** This owner's listing's title and seat (null for one posted from a chat group, which no seat signed), and the other side's title. */
  title: string;
  seat: string | null;
  their_title: string;
  room_presence: RoomPresence;
}

/** The matches in `state` where `ownerKey` is a side, oldest first, each with whether its room exists on the relay `http` talks to (one unsigned head read per match). */
export async function matchViews(
  state: TableState & { market: MarketState },
  ownerKey: string,
  http: HttpClient,
): Promise<MatchView[]> {
  const listing = (leaf: string) => own(state.market.listings, leaf);
  return Promise.all(
    matchesOf(state, ownerKey).map(async (m) => ({
      ...m,
      title: listing(m.mine)?.title ?? "?",
      seat: listing(m.mine)?.seat ?? null,
      their_title: listing(m.theirs)?.title ?? "?",
      room_presence: await roomPresence(http, m.room),
    })),
  );
}
