/**
 * Deals both owners sign (docs/SPEC.md §5.10): an accept opens the deal on its offer with the
 * final terms (both parties with the owner keys the ledger records, the offer's terms, the offer's
 * and the accept's place), and the deal is done once each party's owner recorded a deal_sign over
 * the SHA-256 of those terms; until then it is pending. An auction that settles with a deal opens one
 * the same way, between its seller's and its buyer's owners at the clearing price. Pure: the fold
 * and every verifier compute the same terms from the same entries.
 */
import { canonicalSha256 } from "../encoding/hash.js";
import { own } from "../encoding/records.js";
import type { DealParty, DealStatement, DealStatus, DealTerms, PriceStatement } from "../schemas/deal.js";
import type { Terms } from "../schemas/room.js";
import { ownerKeyOf } from "./owners.js";
import type { AuctionState, DealState, OfferState, RoomState } from "./room-state.js";
import type { TableState } from "./state.js";

/** The deal's party for `seat` (the owner of record and its key); the seat was checked seated by admit. */
function partyOf(state: TableState, seat: string): DealParty {
  const owner = own(state.seats, seat)?.owner ?? "";
  return { owner, key: ownerKeyOf(state, owner) ?? "", seat };
}

/** Opens the deal on accepted offer `leaf` (mutates `room`): its final terms as of the accept at `acceptSeq` by `acceptor`. */
export function openDeal(
  state: TableState,
  room: RoomState,
  leaf: string,
  offer: OfferState,
  acceptSeq: number,
  acceptor: string,
): void {
  const terms: DealTerms = {
    scope: "deal",
    table: state.table,
    offer: leaf,
    offer_seq: offer.seq,
    accept_seq: acceptSeq,
    offered_by: partyOf(state, offer.seat),
    accepted_by: partyOf(state, acceptor),
    terms: offer.terms,
  };
  room.deals[leaf] = { terms, terms_sha256: dealHash(terms), signed: {} };
}

/** Opens the deal auction `leaf` settled with at `price` in entry `settledSeq` (mutates `room`): the seller offered, the buyer accepted; none when a side's seat has left with its owner. */
export function openAuctionDeal(
  state: TableState,
  room: RoomState,
  leaf: string,
  auction: AuctionState,
  settledSeq: number,
  price: number,
): void {
  const [seller, buyer] = [partyOf(state, auction.sides.seller), partyOf(state, auction.sides.buyer)];
  if (![seller, buyer].every((p) => p.owner !== "" && p.key !== "")) return;
  const terms: DealTerms = {
    scope: "deal",
    table: state.table,
    offer: leaf,
    offer_seq: auction.seq,
    accept_seq: settledSeq,
    offered_by: seller,
    accepted_by: buyer,
    terms: { amount: price, currency: auction.currency },
    via: "auction",
  };
  room.deals[leaf] = { terms, terms_sha256: dealHash(terms), signed: {} };
}

/** The SHA-256 of the canonical deal terms: what each owner's deal statement names. */
export function dealHash(terms: DealTerms): string {
  return canonicalSha256(terms);
}

/** What an owner key signs (purpose `deal`) for the deal whose terms hash is `deal` in `table`. */
export function dealStatement(table: string, deal: string): DealStatement {
  return { scope: "deal", table, deal };
}

/** What an owner key signs (purpose `price`) to let `market` show the terms of the deal `deal` on its match `match` (decision 0529). */
export function priceStatement(market: string, match: number, deal: string): PriceStatement {
  return { scope: "show_price", market, match, deal };
}

/** The owners who must sign a deal: the offer's and the accepter's. */
export function dealOwners(deal: DealState): [string, string] {
  return [deal.terms.offered_by.owner, deal.terms.accepted_by.owner];
}

/** `done` when every party's owner signed, else `pending`. */
export function dealStatus(deal: DealState): DealStatus {
  return dealOwners(deal).every((owner) => Object.hasOwn(deal.signed, owner)) ? "done" : "pending";
}

/** A deal's news: done once both owners signed, else pending with the owners who have not; with its terms. */
export function dealNews(deal: DealState): { news: "deal_done" | "deal_pending"; terms: Terms; waiting?: string[] } {
  const waiting = dealOwners(deal).filter(
    (owner, i, all) => !Object.hasOwn(deal.signed, owner) && all.indexOf(owner) === i,
  );
  return {
    news: waiting.length === 0 ? "deal_done" : "deal_pending",
    terms: deal.terms.terms,
    ...(waiting.length > 0 ? { waiting } : {}),
  };
}
