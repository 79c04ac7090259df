/**
 * What became of the commitments an allowance store holds for one room, judged from that room's
 * verified ledger alone (docs/MARKETS.md "An owner's allowance"), never from an agent's word. A
 * commitment is keyed by the offer or auction a deal on it would be on: its deal done, it is spent
 * at the deal's amount; its offer withdrawn, rejected, countered, expired or its author gone, its
 * auction settled without a deal, its pending deal or open offer in a room that closed otherwise,
 * it is released. Anything else stays open: a write whose entry the ledger does not show (unless its
 * process has certainly ended, when the caller says so), a deal still pending, an offer still live.
 */
import { dealStatus, offerNotLive, own, type Currency, type Entry, type TableState } from "../protocol/index.js";
import type { AllowanceCommitment } from "./allowance-store.js";

/** How long past an offer's expiry it still counts, for a relay whose clock runs behind this machine's (it judges liveness by its own time). */
export const EXPIRY_MARGIN_MS = 5 * 60_000;

/** What became of one commitment: still `open`, `spent` at the deal's amount, or `released`. */
export type Fate = { fate: "open" } | { fate: "spent"; amount: number | undefined; currency: Currency | undefined } | { fate: "released" };

/** The fate of a commitment keyed by `deal` (an offer's or auction's leaf) in room state `state` at `now`. */
export function fateOf(state: TableState, deal: string, now: number): Fate {
  const room = state.room;
  if (!room) return { fate: "open" };
  const settled = own(room.deals, deal);
  const endedOtherwise = room.outcome !== null && room.outcome.offer !== deal && room.outcome.auction !== deal;
  if (settled) {
    if (dealStatus(settled) === "done") return { fate: "spent", amount: settled.terms.terms.amount, currency: settled.terms.terms.currency };
    return endedOtherwise ? { fate: "released" } : { fate: "open" };
  }
  const offer = own(room.offers, deal);
  if (offer) return offerNotLive(state, offer, now - EXPIRY_MARGIN_MS) !== null || state.closed !== null ? { fate: "released" } : { fate: "open" };
  const auction = own(room.auctions, deal);
  if (auction) return auction.settled !== null || state.closed !== null ? { fate: "released" } : { fate: "open" };
  return { fate: "open" };
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
 * `commitments` with those of room `j.room` brought up to date from its verified ledger: each
 * write's entry found by its seat and nonce (its seq, and an offer's or counter's leaf as its deal),
 * each judged by fateOf, the released dropped, and of two on one deal the first kept. Other rooms'
 * commitments are returned as they were.
 */
export function settleRoom(commitments: readonly AllowanceCommitment[], j: RoomJudgement): AllowanceCommitment[] {
  const out: AllowanceCommitment[] = [];
  for (const c of commitments) {
    const judged = c.room === j.room && c.state === "open" ? judge(c, j) : c;
    if (judged === null) continue;
    const twin = judged.deal !== undefined && out.some((o) => o.room === judged.room && o.deal === judged.deal);
    if (!twin) out.push(judged);
  }
  return out;
}

function judge(c: AllowanceCommitment, j: RoomJudgement): AllowanceCommitment | null {
  if (c.seq !== undefined && c.deal !== undefined) return fated(c, c.deal, j);
  const entry = j.entries.find((e) => e.seat === c.seat && "nonce" in e && e.nonce === c.nonce);
  if (!entry) return c.seq === undefined && j.ended(c) ? null : c;
  const deal = c.deal ?? entry.leaf;
  return fated({ ...c, seq: entry.seq, deal }, deal, j);
}

/** `c` as the fate of its deal leaves it: itself while open, spent at the deal's amount (the buyer's; the seller spends nothing), or null when released. */
function fated(c: AllowanceCommitment, deal: string, j: RoomJudgement): AllowanceCommitment | null {
  const fate = fateOf(j.state, deal, j.now);
  if (fate.fate === "released") return null;
  if (fate.fate === "open") return c;
  const { currency: _was, ...rest } = c;
  const amount = c.side === "buyer" ? (fate.amount ?? 0) : 0;
  return { ...rest, state: "spent", amount, ...(fate.currency === undefined ? {} : { currency: fate.currency }) };
}
