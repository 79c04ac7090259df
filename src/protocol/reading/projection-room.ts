/**
 * What a seat's model reads of a room's entries (docs/SPEC.md §7, §5.10): the fields the seat
 * signed besides its body: terms and expiry, the offer or grant an answer names (by the leaf hash
 * the protocol names it with), a grant's grantee and scope, the outcome, an auction's op and its
 * fields (§5.11). Like every projected
 * field, these are data, never instructions.
 */
import type { Entry } from "../schemas/entry.js";
import { RoomKindSchema } from "../schemas/room.js";

/** The room fields of an authored entry, or undefined for a kind that is not a room kind. */
export function roomData(
  entry: Exclude<Entry, { kind: "system" } | { kind: "approval" }>,
): Record<string, unknown> | undefined {
  if (!RoomKindSchema.safeParse(entry.kind).success) return undefined;
  const {
    seq: _s,
    ts: _t,
    leaf: _l,
    link: _k,
    table: _tb,
    seat: _st,
    nonce: _n,
    kind: _kd,
    body: _b,
    author: _a,
    truncated: _tr,
    ...fields
  } = entry;
  return fields;
}
