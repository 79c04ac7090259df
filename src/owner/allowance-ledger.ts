/**
 * What became of the commitments an allowance store holds for one room, judged from that room's
 * verified ledger alone (docs/MARKETS.md "An owner's allowance"), never from an agent's word. A
 * commitment is keyed by the offer or auction a deal on it would be on: its deal done, it is spent
 * at the deal's amount; its offer withdrawn, rejected, countered, expired or its author gone, its
 * auction settled without a deal, its pending deal or open offer in a room that closed otherwise,
 * it is released. A sealed bid on a market's listing (decision 0499) is judged at the market: the
 * listing withdrawn or superseded, the market closed before it settled, or settled to another
 * bidder or unsold, it is released; won, it becomes the commitment of its sale, judged from then on
 * in the sale's room at the settled price, spent by the deal signed there. Anything else stays
 * open: a write whose entry the ledger does not show (unless its process has certainly ended, when
 * the caller says so), a deal still pending, an offer still live, bids not settled yet.
 */
import {
  dealStatus,
  offerNotLive,
  own,
  type Currency,
  type Entry,
  type MatchCitation,
  type TableState,
} from "../protocol/index.js";
import { judgedIn, type AllowanceCommitment } from "./allowance-store.js";

/** How long past an offer's expiry it still counts, for a relay whose clock runs behind this machine's (it judges liveness by its own time). */
export const EXPIRY_MARGIN_MS = 5 * 60_000;

/** What became of one commitment: still `open`, `spent` at the deal's amount, or `released`. */
export type Fate =
  | { fate: "open" }
  | { fate: "spent"; amount: number | undefined; currency: Currency | undefined }
  | { fate: "released" };

/** The fate of a commitment keyed by `deal` (an offer's or auction's leaf) in room state `state` at `now`. */
export function fateOf(state: TableState, deal: string, now: number): Fate {
  const room = state.room;
  if (!room) return { fate: "open" };
  const settled = own(room.deals, deal);
  const endedOtherwise = room.outcome !== null && room.outcome.offer !== deal && room.outcome.auction !== deal;
  if (settled) {
    if (dealStatus(settled) === "done")
      return { fate: "spent", amount: settled.terms.terms.amount, currency: settled.terms.terms.currency };
    return endedOtherwise ? { fate: "released" } : { fate: "open" };
  }
  const offer = own(room.offers, deal);
  if (offer)
    return offerNotLive(state, offer, now - EXPIRY_MARGIN_MS) !== null || state.closed !== null
      ? { fate: "released" }
      : { fate: "open" };
  const auction = own(room.auctions, deal);
  if (auction) return auction.settled !== null || state.closed !== null ? { fate: "released" } : { fate: "open" };
  return { fate: "open" };
}

/** What became of a sealed bid: still `open`, `released`, or `won`, with its sale's room and settled price. */
export type BidFate =
  { fate: "open" } | { fate: "released" } | { fate: "won"; room: string; price: number; currency: Currency };

/** The fate of the sealed bid committed at entry `seq` on the listing at `leaf`, in market state `state`. */
export function bidFateOf(state: TableState, leaf: string, seq: number): BidFate {
  const market = state.market;
  const listing = market ? own(market.listings, leaf) : undefined;
  const sealed = listing?.sealed;
  if (!market || !listing || !sealed) return { fate: "open" };
  if (sealed.settled === null)
    return listing.status === "withdrawn" || listing.status === "superseded" || state.closed !== null
      ? { fate: "released" }
      : { fate: "open" };
  const winning = sealed.winner === null ? undefined : own(sealed.commits, sealed.winner);
  if (winning?.seq !== seq) return { fate: "released" };
  const match = Object.values(market.matches).find((m) => m.offer === leaf && m.want === winning.leaf);
  return match?.sale
    ? { fate: "won", room: match.room, price: match.sale.price, currency: match.sale.currency }
    : { fate: "open" };
}

/** The fate of a won bid's sale in the state of the sale's room: spent at the deal both owners signed there, open while a deal is pending or nothing ended the room, released once it ended without one. */
export function saleFateOf(state: TableState, now: number): Fate {
  const room = state.room;
  if (!room) return { fate: "open" };
  for (const deal of Object.keys(room.deals)) {
    const fate = fateOf(state, deal, now);
    if (fate.fate !== "released") return fate;
  }
  return room.outcome !== null || state.closed !== null ? { fate: "released" } : { fate: "open" };
}

/** `c`, a sealed bid that won, as the commitment of its sale: judged in the sale's room `won.room` from then on, at the settled price (the second price, never above the bid). */
export function wonBid(
  c: AllowanceCommitment,
  won: { room: string; price: number; currency: Currency },
): AllowanceCommitment {
  return { ...c, sale: won.room, amount: won.price, currency: won.currency };
}

/**
 * `commitments` with the owner's sealed bid on the listing a sale's room cites turned into that
 * sale's commitment (wonBid), as the room's verified citation shows the owner won it (the caller
 * checked the owner is its buyer): the bid committed at the citation's want entry, else one whose
 * entry is not known yet. Unchanged for a room that is no sale, or with no such bid.
 */
export function withSaleWon(
  commitments: readonly AllowanceCommitment[],
  room: string,
  citation: MatchCitation,
): AllowanceCommitment[] {
  const { sale, offer, want_seq } = citation.data;
  if (!sale) return [...commitments];
  const bids = commitments.filter(
    (c) => c.room === citation.market && c.listing === offer && c.sale === undefined && c.state === "open",
  );
  const won = bids.find((c) => c.seq === want_seq) ?? bids.find((c) => c.seq === undefined);
  return commitments.map((c) =>
    c === won ? wonBid({ ...c, seq: want_seq }, { room, price: sale.price, currency: sale.currency }) : c,
  );
}

/** How to judge one room: its id, its verified state and entries, the time, and which commitments' processes have certainly ended (their entry absent, they are released). */
export interface RoomJudgement {
  room: string;
  state: TableState;
  entries: readonly Entry[];
  now: number;
  ended(c: AllowanceCommitment): boolean;
}

/**
 * `commitments` with those judged in room `j.room` (judgedIn) brought up to date from its verified
 * ledger: each write's entry found by its seat and nonce (its seq, and an offer's or counter's leaf
 * as its deal), each judged by fateOf (a sealed bid by bidFateOf, a won bid's sale by saleFateOf),
 * the released dropped, and of two on one deal the first kept. Other rooms' commitments are
 * returned as they were.
 */
export function settleRoom(commitments: readonly AllowanceCommitment[], j: RoomJudgement): AllowanceCommitment[] {
  const out: AllowanceCommitment[] = [];
  for (const c of commitments) {
    const judged = judgedIn(c) === j.room && c.state === "open" ? judge(c, j) : c;
    if (judged === null) continue;
    const twin = judged.deal !== undefined && out.some((o) => o.room === judged.room && o.deal === judged.deal);
    if (!twin) out.push(judged);
  }
  return out;
}

function judge(c: AllowanceCommitment, j: RoomJudgement): AllowanceCommitment | null {
  if (c.sale !== undefined) return fated(c, saleFateOf(j.state, j.now));
  if (c.listing !== undefined && c.seq !== undefined) return judgedBid(c, c.listing, c.seq, j);
  if (c.seq !== undefined && c.deal !== undefined) return fated(c, fateOf(j.state, c.deal, j.now));
  const entry = j.entries.find((e) => e.seat === c.seat && "nonce" in e && e.nonce === c.nonce);
  if (!entry) return c.seq === undefined && j.ended(c) ? null : c;
  if (c.listing !== undefined) return judgedBid(c, c.listing, entry.seq, j);
  const deal = c.deal ?? entry.leaf;
  return fated({ ...c, seq: entry.seq, deal }, fateOf(j.state, deal, j.now));
}

/** `c`, a sealed bid committed at entry `seq` on the listing at `listing`, as bidFateOf leaves it: with its seq, turned into its sale's commitment, or null when released. */
function judgedBid(c: AllowanceCommitment, listing: string, seq: number, j: RoomJudgement): AllowanceCommitment | null {
  const fate = bidFateOf(j.state, listing, seq);
  if (fate.fate === "released") return null;
  return fate.fate === "won" ? wonBid({ ...c, seq }, fate) : { ...c, seq };
}

/** `c` as `fate` leaves it: itself while open, spent at the deal's amount (the buyer's; the seller spends nothing), or null when released. */
function fated(c: AllowanceCommitment, fate: Fate): AllowanceCommitment | null {
  if (fate.fate === "released") return null;
  if (fate.fate === "open") return c;
  const { currency: _was, ...rest } = c;
  const amount = c.side === "buyer" ? (fate.amount ?? 0) : 0;
  return { ...rest, state: "spent", amount, ...(fate.currency === undefined ? {} : { currency: fate.currency }) };
}
