/**
 * Sealed bids from the owner's side (docs/ROOMS.md "Sealed-bid auctions", docs/SPEC.md §5.11): a
 * bid is chosen on this machine, judged by the owner's mandate like any commitment (cap, floor,
 * currency, never_disclose: it will be public once revealed), kept with its secret salt in the
 * seat's journal, and only its commitment goes to the ledger. The reveal reads the bid and salt
 * back from the journal: the one whose commitment the verified ledger holds for this side.
 */
import { randomBytes } from "../client/random.js";
import {
  auctionOf,
  bidCommitment,
  sideOf,
  toBase64url,
  TrestleError,
  type AuctionState,
  type AuctionSide,
  type Currency,
  type Submission,
  type TableState,
  type Terms,
} from "../protocol/index.js";
import { findDisclosure } from "./disclosure.js";
import { refusedByRelay } from "./exact-send.js";
import type { Journal } from "./journal.js";
import type { JournalRecordOf } from "./records.js";

/** A bid kept in the journal. */
export type BidRecord = JournalRecordOf<"bid">;

/** A fresh salt (18 random bytes, 144 bits) that contains none of `never`, so revealing it never trips the disclosure guard. */
export function bidSalt(never: readonly string[]): string {
  for (let attempt = 0; attempt < 64; attempt++) {
    const salt = toBase64url(randomBytes(18));
    if (findDisclosure(salt, { never }) === null) return salt;
  }
  throw new TrestleError(
    "E_MANDATE",
    "no salt avoids the mandate's never_disclose strings; shorten the ones made of letters and digits",
    { reason: "disclose" },
  );
}

/** The auction at `leaf` in the verified state, and the side `seat` bids on (E_FORBIDDEN when it is neither). */
export function seatAuction(
  state: TableState,
  leaf: string,
  seat: string,
): { auction: AuctionState; side: AuctionSide } {
  if (!state.room) throw new TrestleError("E_NOT_ALLOWED", `table ${state.table} is not a room`);
  const auction = auctionOf(state.room, leaf);
  const side = sideOf(auction, seat);
  if (side === null) throw new TrestleError("E_FORBIDDEN", `${seat} is neither side of auction entry ${auction.seq}`);
  return { auction, side };
}

/** The commit of a sealed bid, an auction's (`mechanism`) or a listing's (`bid`), as a seat sends it. */
type BidCommit = { kind: string; op?: string; commitment?: string };

/**
 * Blanks the journal's sealed bid that `sent` commits to when `error` refused it (the owner's
 * guards or the relay said no), so a refused bid leaves no record; a bid held for the owner
 * (E_HELD), or whose answer never came (E_NETWORK and the like), keeps its record, to be sent or
 * revealed later. Anything but a bid's commit is left alone.
 */
export function retractRefusedBid(journal: Journal, sent: BidCommit, error: unknown): void {
  if (sent.op !== "commit" || sent.commitment === undefined) return;
  if (!refusedByRelay(error) || (error instanceof TrestleError && error.code === "E_HELD")) return;
  const type = sent.kind === "mechanism" ? "bid" : sent.kind === "bid" ? "market_bid" : null;
  const record = type === null ? undefined : sealedBid(journal, type, sent.commitment);
  if (record) journal.retract(record);
}

/** Records a new sealed bid of `bid` for `seat` in the auction at `leaf`, before anything is sent, and returns its record. */
export function recordBid(
  journal: Journal,
  state: TableState,
  leaf: string,
  seat: string,
  bid: number,
  never: readonly string[],
): BidRecord {
  const { auction, side } = seatAuction(state, leaf, seat);
  const salt = bidSalt(never);
  const commitment = bidCommitment({ table: state.table, auction: leaf, side, bid, salt });
  return journal.append({
    type: "bid",
    auction: leaf,
    side,
    bid,
    currency: auction.currency,
    salt,
    commitment,
  }) as BidRecord;
}

/** The journal's sealed bid of `type` (an auction's `bid`, a listing's `market_bid`) whose commitment is `commitment`, or undefined. */
export function sealedBid<T extends "bid" | "market_bid">(
  journal: Journal,
  type: T,
  commitment: string,
): JournalRecordOf<T> | undefined {
  return journal.ofType(type).find((b) => (b as JournalRecordOf<"bid" | "market_bid">).commitment === commitment);
}

/** The journal's bid whose commitment is `commitment`, or undefined. */
export function bidByCommitment(journal: Journal, commitment: string): BidRecord | undefined {
  return sealedBid(journal, "bid", commitment);
}

/** `record`, the journal's bid for `whose` commitment `where` as the verified ledger holds it; E_NOT_ALLOWED when there is no commitment (null) or the journal lost its bid (undefined). */
export function revealable<T extends "bid" | "market_bid">(
  journal: Journal,
  type: T,
  commitment: string | null,
  whose: string,
  where: string,
): JournalRecordOf<T> {
  if (commitment === null) throw new TrestleError("E_NOT_ALLOWED", `${whose} has not committed to ${where}`);
  const record = sealedBid(journal, type, commitment);
  if (!record)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `the journal holds no bid for ${whose}'s commitment to ${where}: it cannot be revealed from this machine`,
    );
  return record;
}

/** The bid this seat committed to in the auction at `leaf`, as the verified ledger holds its commitment; E_NOT_ALLOWED when it committed none or the journal lost it. */
export function committedBid(journal: Journal, state: TableState, leaf: string, seat: string): BidRecord {
  const { auction, side } = seatAuction(state, leaf, seat);
  return revealable(journal, "bid", auction.commits[side], seat, `auction entry ${auction.seq}`);
}

/** The money the journal's bid for a commitment binds; E_MANDATE (`unknown_bid`) when this machine chose no bid with it, so no mandate can judge it. */
export function committedTerms(record: { bid: number; currency: Currency } | undefined): Terms {
  if (!record)
    throw new TrestleError(
      "E_MANDATE",
      "this commitment is to no bid the journal holds, so no mandate can judge it; commit through the bid verb",
      { reason: "unknown_bid" },
    );
  return { amount: record.bid, currency: record.currency };
}

/** The money a mechanism entry binds or shows: a commit's bid (from the journal; E_MANDATE without one), a reveal's bid; null for an open or another kind. */
export function bidTerms(journal: Journal, state: TableState, s: Submission): Terms | null {
  if (s.kind !== "mechanism" || s.op === "open") return null;
  if (s.op === "reveal") return { amount: s.bid, currency: seatAuction(state, s.auction, s.seat).auction.currency };
  return committedTerms(bidByCommitment(journal, s.commitment));
}

/** What a commit will reveal later (the bid and its salt), an auction's or a listing's, for the never_disclose check now; null for anything else. */
export function revealedLater(journal: Journal, s: Submission): { bid: number; salt: string } | null {
  if ((s.kind !== "mechanism" && s.kind !== "bid") || s.op !== "commit") return null;
  const record = sealedBid(journal, s.kind === "bid" ? "market_bid" : "bid", s.commitment);
  return record ? { bid: record.bid, salt: record.salt } : null;
}
