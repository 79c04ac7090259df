/**
 * `close` (docs/SPEC.md §5.10): ends the room with its outcome. A deal names an accepted offer and
 * is written by that offer's author or the seat that accepted it, or names an auction that settled
 * with a deal (§5.11) and is written by one of its sides; no deal names nothing and may be written
 * by any seat. Either closes the table at once (reason `deal` or `no_deal`).
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { auctionOf } from "../auctions.js";
import { dealNews } from "../deals.js";
import type { RoomState } from "../room-state.js";
import { offerOf, type RoomDraftOf, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The close policy. */
export const closePolicy: RoomKindPolicy<"close"> = {
  kind: "close",
  commitment: {
    ...NO_COMMITMENT,
    commits: (s) => s.outcome === "deal",
    binds: (s) => (s.offer === undefined ? null : { offer: s.offer }),
    deal: (s) => (s.outcome === "deal" ? (s.offer ?? s.auction) : undefined),
  },
  check(_state, room, draft) {
    const named = (draft.offer === undefined ? 0 : 1) + (draft.auction === undefined ? 0 : 1);
    if (draft.outcome === "no_deal") {
      if (named !== 0) throw new TrestleError("E_SCHEMA", "a close without a deal names no offer and no auction");
      return;
    }
    if (named !== 1)
      throw new TrestleError(
        "E_SCHEMA",
        "a close with a deal names the accepted offer or the settled auction, not both",
      );
    if (draft.auction !== undefined) return checkAuctionDeal(room, draft);
    const offer = offerOf(room, draft.offer!);
    if (offer.status !== "accepted")
      throw new TrestleError("E_NOT_ALLOWED", `offer entry ${offer.seq} was not accepted (it is ${offer.status})`);
    if (draft.seat !== offer.seat && draft.seat !== offer.accepted_by) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `only ${offer.seat} or ${offer.accepted_by}, the parties to the deal, close the room with it`,
      );
    }
  },
  apply(_state, room, entry) {
    room.outcome = {
      seq: entry.seq,
      outcome: entry.outcome,
      offer: entry.offer ?? null,
      auction: entry.auction ?? null,
    };
  },
  closes(state, entry) {
    return {
      table: state.table,
      seat: null,
      kind: "system",
      subkind: "table_closed",
      data: { reason: entry.outcome },
      author: null,
    };
  },
  news(_state, room, entry) {
    if (entry.outcome === "no_deal") return { news: "no_deal", seat: entry.seat };
    const deal = entry.offer === undefined ? undefined : own(room.deals, entry.offer);
    return deal ? { ...dealNews(deal), seat: entry.seat } : null;
  },
};

/** A deal on an auction: it settled with a deal, and one of its sides closes the room with it. */
function checkAuctionDeal(room: RoomState, draft: RoomDraftOf<"close">): void {
  const auction = auctionOf(room, draft.auction!);
  if (auction.price === null)
    throw new TrestleError("E_NOT_ALLOWED", `auction entry ${auction.seq} has not settled with a deal`);
  if (draft.seat !== auction.sides.buyer && draft.seat !== auction.sides.seller) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `only ${auction.sides.buyer} or ${auction.sides.seller}, the sides of the deal, close the room with it`,
    );
  }
}
