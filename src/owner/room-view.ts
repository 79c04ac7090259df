/**
 * A room as the CLI and the MCP tools show it, from the verified transcript (docs/ROOMS.md): who
 * is in it, the live offers and grants and the auctions (each with its entry's seq and leaf hash,
 * how a seat names it back), and the outcome; and naming an offer or grant by seq, hash or a hash prefix. The words
 * for terms and auctions are src/text/terms.ts.
 */
import {
  dealStatus,
  liveGrants,
  liveOffers,
  TrestleError,
  type AuctionState,
  type DealStatus,
  type DealTerms,
  type GrantState,
  type OfferState,
  type RoomState,
  type TableState,
} from "../protocol/index.js";
import type { Transcript } from "./transcript.js";
import { entryRef } from "./entry-ref.js";

/** A live offer or grant with the seq and leaf hash of the entry that made it. */
export type Named<T> = T & { leaf: string };

/** What a room holds now. */
export interface RoomSummary {
  table: string;
  topic: string;
  creator: string;
  owners: string[];
  seats: { name: string; owner: string }[];
  offers: Named<OfferState>[];
  grants: Named<GrantState>[];
  /** Every auction (§5.11), open or settled, in opening order. */
  auctions: Named<AuctionState>[];
  /** End-to-end encrypted (§5.12): bodies and terms text are sealed under the room key. */
  e2e: boolean;
  outcome: RoomState["outcome"];
  closed: string | null;
  /** Every deal (an accepted offer's), pending or done, with the owners who signed it, in accept order. */
  deals: { leaf: string; terms: DealTerms; status: DealStatus; signed: string[] }[];
}

/** The room's state from a verified transcript; E_GATE when the transcript could not be folded. */
export function roomState(transcript: Transcript): TableState {
  if (!transcript.state) {
    throw new TrestleError(
      "E_GATE",
      `the room's transcript does not verify completely (${transcript.report.verdict})`,
      { reason: "unverified", verdict: transcript.report.verdict },
    );
  }
  if (!transcript.state.room) throw new TrestleError("E_NOT_ALLOWED", `table ${transcript.state.table} is not a room`);
  return transcript.state;
}

/** What the room holds at `now`. */
export function roomSummary(transcript: Transcript, now: number): RoomSummary {
  const state = roomState(transcript);
  const room = state.room!;
  return {
    table: state.table,
    topic: state.config.topic,
    creator: state.creator,
    owners: [...Object.keys(state.config.owners), ...Object.keys(room.parties)],
    seats: Object.values(state.seats)
      .filter((s) => s.left === null)
      .map((s) => ({ name: s.name, owner: s.owner })),
    offers: liveOffers(state, now).map(([leaf, o]) => ({ ...o, leaf })),
    grants: liveGrants(state, now).map(([leaf, g]) => ({ ...g, leaf })),
    auctions: Object.entries(room.auctions)
      .map(([leaf, a]) => ({ ...a, leaf }))
      .sort((a, b) => a.seq - b.seq),
    e2e: state.config.room?.e2e === true,
    outcome: room.outcome,
    closed: state.closed?.reason ?? null,
    deals: Object.entries(room.deals)
      .map(([leaf, d]) => ({ leaf, terms: d.terms, status: dealStatus(d), signed: Object.keys(d.signed) }))
      .sort((a, b) => a.terms.accept_seq - b.terms.accept_seq),
  };
}

/** What a seat names back by seq or hash; a `deal` is named by its offer or by the auction that settled it. */
export type RoomRef = "offer" | "grant" | "auction" | "deal";

const UNKNOWN = {
  offer: "E_UNKNOWN_OFFER",
  grant: "E_UNKNOWN_GRANT",
  auction: "E_UNKNOWN_AUCTION",
  deal: "E_UNKNOWN_OFFER",
} as const;

/** The leaf hash of the offer or counter (or grant, or auction; for a deal, either an offer or an auction) `ref` names: its entry's seq, its hash, or a prefix of at least 8 hex chars. */
export function resolveRef(transcript: Transcript, ref: string | number, what: RoomRef): string {
  const state = roomState(transcript);
  const room = state.room!;
  const held: Record<string, { seq: number }> =
    what === "offer"
      ? room.offers
      : what === "grant"
        ? room.grants
        : what === "auction"
          ? room.auctions
          : { ...room.offers, ...room.auctions };
  return entryRef(held, ref, what, UNKNOWN[what], `room ${state.table}`);
}
