/**
 * `deal_sign` (docs/SPEC.md §5.10, docs/ROOMS.md "Deals"): a seat records its owner's signature
 * (owner key, purpose `deal`) over the final terms of the deal on an accepted offer, or on an
 * auction that settled with a deal (its open entry's leaf in `offer`). The owner must
 * be one of the deal's two parties, the key the ledger records for that owner, the hash the
 * deal's own, and each owner signs once; the signature itself is checked wherever the entry is
 * (the relay before admitting it, every verifier after). A deal is done when both owners signed.
 * It may land after the room closed with that deal, never after another close. In a match room it
 * may carry the owner's consent to show the deal's terms in the market, naming this room's market
 * and match (decision 0529).
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { dealNews, dealOwners } from "../deals.js";
import { ownerKeyOf } from "../owners.js";
import type { DealState, RoomState } from "../room-state.js";
import type { ShowPrice } from "../../schemas/room.js";
import { offerOf, ownerOfSeat, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The deal on offer (or auction) `leaf`; E_UNKNOWN_OFFER for neither, E_NOT_ALLOWED for an offer nobody accepted or an auction that settled no deal. */
function dealOf(room: RoomState, leaf: string): DealState {
  const deal = own(room.deals, leaf);
  if (deal) return deal;
  const auction = own(room.auctions, leaf);
  if (auction)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `auction entry ${auction.seq} ${auction.settled === null ? "has not settled" : "settled without a deal"}: there is no deal to sign`,
      { reason: "no_deal" },
    );
  const offer = offerOf(room, leaf);
  throw new TrestleError(
    "E_NOT_ALLOWED",
    `offer entry ${offer.seq} was not accepted (it is ${offer.status}): there is no deal to sign`,
    { reason: "no_deal" },
  );
}

/** A consent to show the price names this room's own market and match (its signature, over them and the deal's hash, is checked as the entry's statement); E_WRONG_TABLE otherwise. */
function checkShowPrice(citation: { market: string; seq: number } | undefined, shown: ShowPrice): void {
  if (!citation)
    throw new TrestleError(
      "E_WRONG_TABLE",
      "only the deal of a market's match room can be shown in its market; this room is no match's",
    );
  if (shown.market !== citation.market || shown.match !== citation.seq) {
    throw new TrestleError(
      "E_WRONG_TABLE",
      `the consent to show the price names match ${shown.match} of ${shown.market}; this room is match ${citation.seq}'s of ${citation.market}`,
      { market: citation.market, match: citation.seq },
    );
  }
}

/** The deal_sign policy. */
export const dealSignPolicy: RoomKindPolicy<"deal_sign"> = {
  kind: "deal_sign",
  commitment: { ...NO_COMMITMENT, deal: (s) => s.offer },
  check(state, room, draft) {
    const deal = dealOf(room, draft.offer);
    const owner = ownerOfSeat(state, draft.seat);
    if (!dealOwners(deal).includes(owner)) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `${owner} is not a party to the deal on offer entry ${deal.terms.offer_seq}; only ${dealOwners(deal).join(" and ")} sign it`,
      );
    }
    if (draft.owner_key !== ownerKeyOf(state, owner)) {
      throw new TrestleError(
        "E_NOT_OWNER",
        `the deal signature is not by ${owner}'s owner key as this room records it`,
        { owner },
      );
    }
    if (draft.deal !== deal.terms_sha256) {
      throw new TrestleError(
        "E_TERMS_MISMATCH",
        `the signature is over another deal than the one on offer entry ${deal.terms.offer_seq}`,
        { deal: deal.terms_sha256 },
      );
    }
    const signed = own(deal.signed, owner);
    if (signed !== undefined)
      throw new TrestleError("E_NOT_ALLOWED", `${owner} already signed this deal (entry ${signed})`, {
        reason: "already_signed",
        seq: signed,
      });
    if (draft.show_price) checkShowPrice(state.config.room?.match, draft.show_price);
  },
  apply(state, room, entry) {
    own(room.deals, entry.offer)!.signed[ownerOfSeat(state, entry.seat)] = entry.seq;
  },
  signsAfterClose(state, draft) {
    const outcome = state.room?.outcome;
    return outcome?.offer === draft.offer || outcome?.auction === draft.offer;
  },
  news(_state, room, entry) {
    const deal = own(room.deals, entry.offer);
    return deal ? { ...dealNews(deal), seat: entry.seat } : null;
  },
};
