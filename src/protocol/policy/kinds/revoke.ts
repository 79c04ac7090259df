/** `revoke` (docs/SPEC.md §5.10): the grantor ends its own live grant. */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import { grantNotLive } from "../room-live.js";
import { NO_COMMITMENT, type RoomKindPolicy } from "./kind-policy.js";

/** The revoke policy: only the seat that granted, only while the grant is live. */
export const revokePolicy: RoomKindPolicy<"revoke"> = {
  kind: "revoke",
  commitment: NO_COMMITMENT,
  check(state, room, draft, now) {
    const grant = own(room.grants, draft.grant);
    if (!grant)
      throw new TrestleError("E_UNKNOWN_GRANT", `no grant ${draft.grant.slice(0, 16)}… in this room`, {
        grant: draft.grant,
      });
    if (grant.seat !== draft.seat)
      throw new TrestleError("E_FORBIDDEN", `only ${grant.seat}, the grantor, revokes grant entry ${grant.seq}`);
    const why = grantNotLive(state, grant, now);
    if (why !== null)
      throw new TrestleError("E_NOT_LIVE", `grant entry ${grant.seq} is not live: ${why}`, { grant: draft.grant });
  },
  apply(_state, room, entry) {
    const grant = own(room.grants, entry.grant);
    if (grant) grant.revoked = entry.seq;
  },
};
