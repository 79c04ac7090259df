/**
 * Sealed bids on a market's listing from the owner's side (docs/SPEC.md §5.15 "Sealed bids on a
 * listing"), as bids.ts is for a room's auction: a bid is chosen on this machine, judged by the
 * owner's mandate like any commitment (cap, floor, currency, never_disclose: it will be public
 * once revealed), kept with its secret salt in the seat's journal, and only its commitment, bound
 * to the market, the listing and the bidding owner, goes to the ledger. The reveal reads the bid
 * and salt back from the journal: the one whose commitment the verified ledger holds for this
 * seat's owner, so any seat of the owner on this machine can reveal it. What a commit reveals later
 * is judged by bids.ts's revealedLater, for both kinds of sealed bid. The CLI and the MCP tools
 * commit through commitMarketBid: a bid the guards or the relay refused leaves no journal record,
 * one held for the owner or whose answer was lost keeps it (docs/MARKETS.md, decision 0528).
 */
import type { SeatSubmission } from "../client/index.js";
import {
  listingBidCommitment,
  listingOf,
  own,
  requireMarket,
  TrestleError,
  type Entry,
  type ListingState,
  type SealedState,
  type Submission,
  type TableState,
  type Terms,
} from "../protocol/index.js";
import { bidSalt, committedTerms, retractRefusedBid, revealable, sealedBid } from "./bids.js";
import type { Journal } from "./journal.js";
import type { MandateRead } from "./mandate.js";
import type { Transcript } from "./transcript.js";
import type { JournalRecordOf } from "./records.js";
import { roomState } from "./room-view.js";

/** A market bid kept in the journal. */
export type MarketBidRecord = JournalRecordOf<"market_bid">;

/** What the message builders read of a guarded seat (a GuardedSeat, named here without importing it: it imports this file's judges). */
export interface BiddingSeat {
  readonly seat: string;
  readonly journal: Journal;
  transcript(): Promise<Transcript>;
  mandate(transcript?: Transcript): Promise<MandateRead>;
}

/** Whether `s` commits a sealed bid on a listing (a commitment of its owner, judged from the journal). */
export function isMarketBidCommit(s: Submission): boolean {
  return s.kind === "bid" && s.op === "commit";
}

/** The sealed listing at `leaf` in the verified state, and the owner `seat` bids for (E_NOT_ALLOWED when it takes no sealed bids, E_FORBIDDEN for its seller's seat). */
export function seatListing(
  state: TableState,
  leaf: string,
  seat: string,
): { listing: ListingState; sealed: SealedState; bidder: string } {
  const listing = listingOf(requireMarket(state, "a sealed bid"), leaf);
  if (!listing.sealed)
    throw new TrestleError("E_NOT_ALLOWED", `listing entry ${listing.seq} takes no sealed bids`, {
      reason: "not_sealed",
    });
  const bidder = own(state.seats, seat)?.owner;
  if (bidder === undefined)
    throw new TrestleError("E_UNKNOWN_SEAT", `${seat} is not seated in the verified transcript`);
  if (bidder === listing.owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `listing entry ${listing.seq} is ${bidder}'s: a seller does not bid on its own listing`,
    );
  return { listing, sealed: listing.sealed, bidder };
}

/** Records a new sealed bid of `bid` by `seat`'s owner on the listing at `leaf`, before anything is sent, and returns its record. */
export function recordMarketBid(
  journal: Journal,
  state: TableState,
  leaf: string,
  seat: string,
  bid: number,
  never: readonly string[],
): MarketBidRecord {
  const { sealed, bidder } = seatListing(state, leaf, seat);
  const salt = bidSalt(never);
  const commitment = listingBidCommitment({ table: state.table, listing: leaf, bidder, bid, salt });
  return journal.append({
    type: "market_bid",
    listing: leaf,
    bidder,
    bid,
    currency: sealed.currency,
    salt,
    commitment,
  }) as MarketBidRecord;
}

/** The journal's market bid whose commitment is `commitment`, or undefined. */
export function marketBidByCommitment(journal: Journal, commitment: string): MarketBidRecord | undefined {
  return sealedBid(journal, "market_bid", commitment);
}

/** The bid `seat`'s owner committed to on the listing at `leaf`, as the verified ledger holds its commitment; E_NOT_ALLOWED when it committed none or the journal lost it. */
export function committedMarketBid(journal: Journal, state: TableState, leaf: string, seat: string): MarketBidRecord {
  const { listing, sealed, bidder } = seatListing(state, leaf, seat);
  return revealable(
    journal,
    "market_bid",
    own(sealed.commits, bidder)?.commitment ?? null,
    bidder,
    `listing entry ${listing.seq}`,
  );
}

/** The money a bid entry binds or shows: a commit's bid (from the journal; E_MANDATE without one), a reveal's bid in its listing's currency; null for another kind. */
export function marketBidTerms(journal: Journal, state: TableState, s: Submission): Terms | null {
  if (s.kind !== "bid") return null;
  if (s.op === "reveal") return { amount: s.bid, currency: seatListing(state, s.listing, s.seat).sealed.currency };
  return committedTerms(marketBidByCommitment(journal, s.commitment));
}

/** The commit of a sealed bid of `bid` (minor units of the listing's currency) on the listing at `listing`, to be sent through `seat`'s guards: the bid and its salt are kept in the journal first, only the commitment goes out. */
export async function marketBidMessage(seat: BiddingSeat, listing: string, bid: number): Promise<MarketBidCommit> {
  const transcript = await seat.transcript();
  const mandate = await seat.mandate(transcript);
  const record = recordMarketBid(
    seat.journal,
    roomState(transcript),
    listing,
    seat.seat,
    bid,
    mandate.ok ? mandate.mandate.never_disclose : [],
  );
  return { kind: "bid", op: "commit", listing, commitment: record.commitment };
}

/** The commit of a sealed bid on a listing, as marketBidMessage builds it. */
export type MarketBidCommit = Extract<SeatSubmission, { kind: "bid"; op: "commit" }>;

/**
 * Commits a sealed bid of `bid` on the listing at `listing` through `send` (the seat's guarded
 * send, or a tool's that also puts a held message to the owner): the bid and its salt are in the
 * journal before the commit can leave, and blanked again (Journal.retract) when the guards or the
 * relay refused it, so a refused bid leaves no record; one held for the owner (E_HELD), or whose
 * answer never came (refusedByRelay: no), keeps it, to be sent or revealed later.
 */
export async function commitMarketBid<T>(
  seat: BiddingSeat,
  listing: string,
  bid: number,
  send: (message: MarketBidCommit) => Promise<T>,
): Promise<{ result: T; record: MarketBidRecord }> {
  const message = await marketBidMessage(seat, listing, bid);
  const record = marketBidByCommitment(seat.journal, message.commitment)!;
  try {
    return { result: await send(message), record };
  } catch (error) {
    retractRefusedBid(seat.journal, message, error);
    throw error;
  }
}

/** The entries a reveal at `seq` on the listing at `listing` caused at once (a deciding reveal): its `listing_settled` and, for a sale, the sale's `match`. */
export function revealCaused(entries: readonly Entry[], seq: number, listing: string): Entry[] {
  return entries.filter(
    (e) =>
      e.seq > seq &&
      e.kind === "system" &&
      ((e.subkind === "listing_settled" && e.data.listing === listing) ||
        (e.subkind === "match" && e.data.offer === listing)),
  );
}

/**
 * The reveal of the bid `seat`'s owner committed to on the listing at `listing`, read back from the
 * journal, to be sent through `seat`'s guards, once the verified ledger and this machine's clock at
 * `now` say it can be taken (revealOpen); the relay judges the window again by its own clock.
 */
export async function marketRevealMessage(seat: BiddingSeat, listing: string, now: number): Promise<SeatSubmission> {
  const state = roomState(await seat.transcript());
  const record = committedMarketBid(seat.journal, state, listing, seat.seat);
  revealOpen(seatListing(state, listing, seat.seat), now);
  return { kind: "bid", op: "reveal", listing, bid: record.bid, salt: record.salt };
}

/** Throws unless the owner's committed bid on `on.listing` can be revealed at `now`: E_NOT_ALLOWED once revealed (`revealed`) or before `until` (`sealed`), E_NOT_LIVE for a listing withdrawn or superseded, E_EXPIRED (`closed`) at `reveal_until` or once its bids settled without it. */
function revealOpen(on: { listing: ListingState; sealed: SealedState; bidder: string }, now: number): void {
  const { listing, sealed, bidder } = on;
  const name = `listing entry ${listing.seq}`;
  if (typeof own(sealed.commits, bidder)?.bid === "number")
    throw new TrestleError("E_NOT_ALLOWED", `${bidder} already revealed its bid on ${name}`, { reason: "revealed" });
  if (listing.status === "withdrawn" || listing.status === "superseded") {
    throw new TrestleError(
      "E_NOT_LIVE",
      `${name} was ${listing.status} at entry ${listing.ended}: its bids are void, nothing to reveal`,
      { status: listing.status },
    );
  }
  if (sealed.settled !== null || now >= sealed.reveal_until) {
    const settled = sealed.settled === null ? "" : `; its bids settled at entry ${sealed.settled}`;
    throw new TrestleError(
      "E_EXPIRED",
      `reveals on ${name} closed at ${new Date(sealed.reveal_until).toISOString()}${settled}: the bid committed from this home can no longer be revealed`,
      { reason: "closed", reveal_until: sealed.reveal_until },
    );
  }
  if (now < sealed.until) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `bids on ${name} stay sealed while others may still commit: reveal from ${new Date(sealed.until).toISOString()} until ${new Date(sealed.reveal_until).toISOString()} (it is ${new Date(now).toISOString()} here)`,
      { reason: "sealed", until: sealed.until, reveal_until: sealed.reveal_until },
    );
  }
}
