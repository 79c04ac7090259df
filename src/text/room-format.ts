/**
 * Room entries as the one-line text of format.ts's entry lines (docs/ROOMS.md): an offer's terms
 * and expiry in the words every surface uses (src/text/terms.ts), the offer or grant an answer names (by the first characters of its
 * entry hash, as `trestle room show` lists them; a projected entry carries no state to read the
 * offer from), a grant's scope and grantee, a close's outcome. The fields come from the relay's
 * projection and are parsed before they are shown; what another party wrote stays one safe line.
 */
import { z } from "zod";
import { EntryHashSchema, MillisSchema, TermsSchema, type ProjectedEntry } from "../protocol/index.js";
import { safeLine } from "../client/guards/framing.js";
import { expiryText, offerTermsText, shortHash } from "./terms.js";

const oneLine = (value: unknown): string => safeLine(String(value), 1000);

/** The room fields of a projected entry's data the CLI shows; anything else in them is not read. */
const RoomDataSchema = z.object({
  terms: TermsSchema.optional(),
  expires: MillisSchema.optional(),
  offer: EntryHashSchema.optional(),
  grant: EntryHashSchema.optional(),
});

/** What a room entry says besides its body, as text after its kind; "" for other kinds. */
export function roomText(e: ProjectedEntry): string {
  const data = e.data ?? {};
  const parsed = RoomDataSchema.safeParse(data);
  const room = parsed.success ? parsed.data : {};
  const terms = room.terms && offerTermsText({ terms: room.terms, expires: room.expires ?? null });
  const offer = room.offer === undefined ? "?" : shortHash(room.offer);
  switch (e.kind) {
    case "offer":
      return terms ? ` ${terms}` : "";
    case "counter":
      return terms ? ` ${terms} (countering ${offer})` : ` (countering ${offer})`;
    case "accept":
    case "reject":
    case "withdraw":
      return ` offer ${offer}`;
    case "grant":
      return ` ${oneLine(data.scope)} to ${oneLine(data.grantee)}, ${typeof data.expires === "number" ? expiryText(data.expires) : "?"}`;
    case "revoke":
      return ` grant ${room.grant === undefined ? "?" : shortHash(room.grant)}`;
    case "close":
      return room.offer === undefined ? ` ${oneLine(data.outcome)}` : ` ${oneLine(data.outcome)} on offer ${offer}`;
    default:
      return "";
  }
}
