/** `counter` (docs/SPEC.md §5.10): answers another party's live offer with new terms; the countered offer ends and the counter is live. */
import { checkSalePrice } from "../market/sale-room.js";
import {
  checkFuture,
  checkOtherParty,
  endOffer,
  liveOffer,
  offerOf,
  openOffer,
  type RoomKindPolicy,
} from "./kind-policy.js";

/** The counter policy: only another party's live offer can be countered; in a sale's room, at the settled price. */
export const counterPolicy: RoomKindPolicy<"counter"> = {
  kind: "counter",
  commitment: {
    commits: () => true,
    gatedWhenLoosened: (s) => s.terms.amount !== undefined,
    binds: (s) => ({ terms: s.terms }),
    expires: (s) => s.expires,
    answers: (s) => s.offer,
    deal: () => null,
  },
  check(state, room, draft, now) {
    checkOtherParty(state, liveOffer(state, room, draft.offer, now), draft.seat, "counter");
    checkFuture(draft.expires, now, "counter");
    checkSalePrice(state, draft.terms);
  },
  apply(state, room, entry, leaf) {
    endOffer(offerOf(room, entry.offer), "countered", entry.seq);
    room.offers[leaf] = openOffer(state, entry, "counter", entry.offer);
  },
  news: (_state, _room, entry) => ({ news: "counter", seat: entry.seat, terms: entry.terms }),
};
