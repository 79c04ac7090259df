/**
 * `close` (docs/SPEC.md §5.10): ends the room with its outcome. A deal names an accepted offer and
 * is written by that offer's author or the seat that accepted it; no deal names nothing and may
 * be written by any seat. Either closes the table at once (reason `deal` or `no_deal`).
 */
import { TrestleError } from "../../errors.js";
import { offerOf, type RoomKindPolicy } from "./kind-policy.js";

/** The close policy. */
export const closePolicy: RoomKindPolicy<"close"> = {
  kind: "close",
  check(_state, room, draft) {
    if (draft.outcome === "no_deal") {
      if (draft.offer !== undefined) throw new TrestleError("E_SCHEMA", "a close without a deal names no offer");
      return;
    }
    if (draft.offer === undefined) throw new TrestleError("E_SCHEMA", "a close with a deal names the accepted offer");
    const offer = offerOf(room, draft.offer);
    if (offer.status !== "accepted") throw new TrestleError("E_NOT_ALLOWED", `offer entry ${offer.seq} was not accepted (it is ${offer.status})`);
    if (draft.seat !== offer.seat && draft.seat !== offer.accepted_by) {
      throw new TrestleError("E_FORBIDDEN", `only ${offer.seat} or ${offer.accepted_by}, the parties to the deal, close the room with it`);
    }
  },
  apply(_state, room, entry) {
    room.outcome = { seq: entry.seq, outcome: entry.outcome, offer: entry.offer ?? null };
  },
  closes(state, entry) {
    return { table: state.table, seat: null, kind: "system", subkind: "table_closed", data: { reason: entry.outcome }, author: null };
  },
};
