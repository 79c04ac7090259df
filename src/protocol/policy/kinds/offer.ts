/** `offer` (docs/SPEC.md §5.10): a seat puts terms on the table for the other parties; it is live until answered, withdrawn or expired. */
import { checkSalePrice } from "../market/sale-room.js";
import { checkFuture, openOffer, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The offer policy: any seat may offer; an expiry must lie ahead; in a sale's room, at the settled price. */
export const offerPolicy: RoomKindPolicy<"offer"> = {
  kind: "offer",
  commitment: {
    ...NO_COMMITMENT,
    commits: () => true,
    gatedWhenLoosened: (s) => s.terms.amount !== undefined,
    binds: (s) => ({ terms: s.terms }),
    expires: (s) => s.expires,
    deal: () => null,
  },
  check(state, _room, draft, now) {
    checkFuture(draft.expires, now, "offer");
    checkSalePrice(state, draft.terms);
  },
  apply(state, room, entry, leaf) {
    room.offers[leaf] = openOffer(state, entry, "offer", null);
  },
  news: (_state, _room, entry) => ({ news: "offer", seat: entry.seat, terms: entry.terms }),
};
