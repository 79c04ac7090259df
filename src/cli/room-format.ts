/**
 * Room entries as CLI text (docs/ROOMS.md): an offer's terms in words, the offer or grant an
 * answer names (by the first characters of its entry hash, as `trestle room show` lists them), a
 * grant's scope and grantee, a close's outcome. Terms text is the other party's: one safe line.
 */
import type { ProjectedEntry, Terms } from "../protocol/index.js";
import { termsText } from "../owner/room-view.js";
import { safeLine } from "../client/guards/framing.js";

const oneLine = (value: unknown): string => safeLine(String(value), 1000);

/** A hash as shown and typed back: its first 12 characters. */
export function shortHash(hash: unknown): string {
  return `${String(hash).slice(0, 12)}…`;
}

/** What a room entry says besides its body, as text after its kind; "" for other kinds. */
export function roomText(e: ProjectedEntry): string {
  const data = e.data ?? {};
  switch (e.kind) {
    case "offer":
      return ` ${oneLine(termsText(data.terms as Terms))}`;
    case "counter":
      return ` ${oneLine(termsText(data.terms as Terms))} (countering ${shortHash(data.offer)})`;
    case "accept":
    case "reject":
    case "withdraw":
      return ` offer ${shortHash(data.offer)}`;
    case "grant":
      return ` ${oneLine(data.scope)} to ${oneLine(data.grantee)} until ${new Date(Number(data.expires)).toISOString()}`;
    case "revoke":
      return ` grant ${shortHash(data.grant)}`;
    case "close":
      return data.offer === undefined ? ` ${oneLine(data.outcome)}` : ` ${oneLine(data.outcome)} on offer ${shortHash(data.offer)}`;
    default:
      return "";
  }
}
