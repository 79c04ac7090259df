/** `reject` (docs/SPEC.md §5.10): turns down another party's live offer, which ends. */
import { own } from "../../encoding/records.js";
import { checkOtherParty, endOffer, liveOffer, offerOf, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The reject policy: only another party's live offer. */
export const rejectPolicy: RoomKindPolicy<"reject"> = {
  kind: "reject",
  commitment: { ...NO_COMMITMENT, answers: (s) => s.offer },
  check(state, room, draft, now) {
    checkOtherParty(state, liveOffer(state, room, draft.offer, now), draft.seat, "reject");
  },
  apply(_state, room, entry) {
    endOffer(offerOf(room, entry.offer), "rejected", entry.seq);
  },
  news: (_state, room, entry) => ({ news: "reject", seat: entry.seat, terms: own(room.offers, entry.offer)?.terms }),
};
