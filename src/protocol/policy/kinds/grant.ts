/** `grant` (docs/SPEC.md §5.10): lets another seated seat act within a scope until an expiry; live until revoked or expired. */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { checkFuture, NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The grant policy: the grantee is another seat in the room; the expiry lies ahead. */
export const grantPolicy: RoomKindPolicy<"grant"> = {
  kind: "grant",
  commitment: { ...NO_COMMITMENT, commits: () => true, gatedWhenLoosened: () => true, expires: (s) => s.expires },
  check(state, _room, draft, now) {
    if (own(state.seats, draft.grantee)?.left !== null)
      throw new TrestleError("E_UNKNOWN_SEAT", `grantee "${draft.grantee}" is not in this room`);
    if (draft.grantee === draft.seat) throw new TrestleError("E_NOT_ALLOWED", "a seat does not grant to itself");
    checkFuture(draft.expires, now, "grant");
  },
  apply(_state, room, entry, leaf) {
    room.grants[leaf] = {
      seq: entry.seq,
      seat: entry.seat,
      grantee: entry.grantee,
      scope: entry.scope,
      expires: entry.expires,
      revoked: null,
    };
  },
};
