/**
 * A message the commitment gate holds, as the principal window shows it before the owner answers
 * (docs/VIEW.md): what it binds, in the words `trestle gate list` and the decision an MCP tool opens use
 * (src/text/commitment.ts): for an accept, the offer it answers named and in full (amount with
 * currency, item text, expiry) from the table state the window folded, or plainly that the window
 * cannot see it; a sealed bid's amount from the seat's journal; in an e2e room, its texts opened
 * with this home's room key (a text that does not open reads as sealed, never as terms).
 */
import { oneLine } from "../text/format.js";
import { SubmissionSchema } from "../protocol/index.js";
import type { JournalRecord, JournalRecordOf } from "../owner/records.js";
import { heldLines, namedIn } from "../text/commitment.js";
import type { TableWatch } from "./table-watch.js";

/** The lines held message `held` is shown with, read against `watch` (its table) and its seat's journal `records`. */
export async function heldWords(
  watch: TableWatch | undefined,
  held: JournalRecordOf<"held">,
  records: readonly JournalRecord[],
): Promise<string[]> {
  const parsed = SubmissionSchema.safeParse(held.submission);
  if (!parsed.success)
    return [
      oneLine(`a held ${String(held.submission.kind)} this window cannot read as a message (the journal was changed?)`),
    ];
  const bids = new Map(
    records.flatMap((r) =>
      r.type === "bid" ? [[r.commitment, { amount: r.bid, currency: r.currency }] as const] : [],
    ),
  );
  if (!watch) return heldLines(parsed.data, namedIn(null, { bid: (c) => bids.get(c) }));
  await watch.texts.addSubmission(parsed.data).catch(() => undefined); // a text that does not open reads as sealed
  return heldLines(parsed.data, namedIn(watch.folded, { bid: (c) => bids.get(c), open: watch.texts.open }));
}
