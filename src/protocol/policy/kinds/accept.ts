/**
 * `accept` (docs/SPEC.md §5.10): agrees to another party's live offer on exactly its terms. The
 * accept inherits the terms; restating different ones (another amount, currency or text, or
 * leaving one out) is refused with E_TERMS_MISMATCH, so what was agreed is always the offer's.
 * An accept opens the deal both owners then sign (deal_sign, policy/deals.ts).
 */
import { canonicalize } from "../../encoding/canonical.js";
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { openDeal } from "../deals.js";
import { checkOtherParty, endOffer, liveOffer, offerOf, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The accept policy. */
export const acceptPolicy: RoomKindPolicy<"accept"> = {
  kind: "accept",
  commitment: {
    ...NO_COMMITMENT,
    commits: () => true,
    gatedWhenLoosened: () => true,
    binds: (s) => ({ offer: s.offer }),
    answers: (s) => s.offer,
    deal: (s) => s.offer,
  },
  check(state, room, draft, now) {
    const offer = liveOffer(state, room, draft.offer, now);
    checkOtherParty(state, offer, draft.seat, "accept");
    if (draft.terms !== undefined && canonicalize(draft.terms) !== canonicalize(offer.terms)) {
      throw new TrestleError(
        "E_TERMS_MISMATCH",
        `the accept restates terms other than offer entry ${offer.seq}'s; accept it as it stands or counter it`,
        {
          offer_terms: offer.terms,
        },
      );
    }
  },
  apply(state, room, entry) {
    const offer = offerOf(room, entry.offer);
    endOffer(offer, "accepted", entry.seq);
    offer.accepted_by = entry.seat;
    openDeal(state, room, entry.offer, offer, entry.seq, entry.seat);
  },
  news: (_state, room, entry) => ({ news: "accept", seat: entry.seat, terms: own(room.offers, entry.offer)?.terms }),
};
