/**
 * The split window of the leak gate (docs/ROOMS.md "never_disclose", decision 0316): the free text
 * (bodies and terms text) of the seat's last SPLIT_WINDOW.entries entries in this room, read from
 * the verified ledger the guard has just fetched (what the other seats can read, whichever process
 * or restart sent it), opened with the room key in an end-to-end encrypted room, and cut to its
 * newest SPLIT_WINDOW.chars characters.
 */
import { isSealedText, type Entry, type SealedField } from "../../protocol/index.js";
import { openText, type RoomKey } from "../sealing.js";

/** How far back the gate reads a seat's own text when looking for a split secret. */
export const SPLIT_WINDOW = { entries: 20, chars: 4000 } as const;

/** The body and terms text of an entry, with the field each is in (empty ones left out). */
function fieldsOf(entry: Entry): [SealedField, string][] {
  const out: [SealedField, string][] = [];
  if ("body" in entry && typeof entry.body === "string" && entry.body !== "") out.push(["body", entry.body]);
  if ("terms" in entry && entry.terms?.text !== undefined) out.push(["terms.text", entry.terms.text]);
  return out;
}

/** `seat`'s recent free text in `entries` (a verified transcript), oldest first, within SPLIT_WINDOW; sealed text opened with `room` (sealed text that does not open is left out). */
export async function recentText(
  entries: readonly Entry[],
  table: string,
  seat: string,
  room: RoomKey | null,
): Promise<string[]> {
  const own = entries
    .filter((e) => e.kind !== "system" && e.kind !== "approval" && e.seat === seat)
    .slice(-SPLIT_WINDOW.entries);
  const texts: string[] = [];
  for (const entry of own) {
    for (const [field, text] of fieldsOf(entry)) {
      const plain = !isSealedText(text) ? text : room ? await openText(room, { table, seat, field }, text) : null;
      if (plain !== null && plain !== "") texts.push(plain);
    }
  }
  let budget = SPLIT_WINDOW.chars;
  const kept: string[] = [];
  for (const text of texts.reverse()) {
    if (budget <= 0) break;
    kept.unshift(text.length > budget ? text.slice(text.length - budget) : text);
    budget -= text.length;
  }
  return kept;
}
