/**
 * A table's export, read as this server's seat or owner and verified on this machine against the
 * pinned relay key and every head this home holds (docs/SPEC.md §8.2), with the report in the
 * CLI's own words (src/text/format.ts). Shared by trestle_history and trestle_verify_chain.
 */
import { reportLines } from "../text/format.js";
import { stylesFor } from "../text/styles.js";
import { type Entry, type HiddenEntry, type Principal, type VerifyReport } from "../protocol/index.js";
import type { ToolContext } from "./tool.js";

const PLAIN = stylesFor(false);

/** Who reads: the seat (its visibility applies) or the owner (reads everything). */
export type ReadAs = "seat" | "owner";

/** A verified export: the report, its lines, the items when the export parsed, and who read it. */
export interface Verified {
  report: VerifyReport;
  lines: string[];
  items: (Entry | HiddenEntry)[] | null;
  as: Principal;
  /** `seat <name>` or `owner <name>`. */
  who: string;
}

/** Exports `table` as `as` (or the other key when that one is not configured) and verifies it. */
export async function verifiedExport(ctx: ToolContext, table: string, as: ReadAs): Promise<Verified> {
  const reader = await ctx.session.reader(as);
  const client = await ctx.session.client(table);
  const { report, parsed } = await client.exportLedger(reader);
  const who = "seat" in reader.as ? `seat ${reader.as.seat}` : `owner ${reader.as.owner}`;
  return {
    report,
    lines: reportLines(report, PLAIN),
    items: parsed.ok ? [...parsed.view.items] : null,
    as: reader.as,
    who,
  };
}
