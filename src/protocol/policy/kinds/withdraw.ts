/** `withdraw` (docs/SPEC.md §5.10): the offer's own author takes it back while it is live. */
import { TrestleError } from "../../errors.js";
import { endOffer, liveOffer, offerOf, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The withdraw policy: only the seat that made the offer, only while it is live. */
export const withdrawPolicy: RoomKindPolicy<"withdraw"> = {
  kind: "withdraw",
  commitment: NO_COMMITMENT,
  check(state, room, draft, now) {
    const offer = offerOf(room, draft.offer);
    if (offer.seat !== draft.seat)
      throw new TrestleError("E_FORBIDDEN", `only ${offer.seat}, its author, withdraws offer entry ${offer.seq}`);
    liveOffer(state, room, draft.offer, now);
  },
  apply(_state, room, entry) {
    endOffer(offerOf(room, entry.offer), "withdrawn", entry.seq);
  },
};
