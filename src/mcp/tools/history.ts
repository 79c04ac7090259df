/** `trestle_history`: the ledger as this seat (or owner) may read it, verified on this machine, with the verdict and coverage. */
import { z } from "zod";
import { frameInert, safeLine } from "../../text/framing.js";
import { LIMITS, SeqSchema } from "../../protocol/index.js";
import { historyItem } from "../../text/projection-items.js";
import { defineTool } from "../tool.js";
import { verifiedExport } from "../verification.js";
import { TableArg } from "./args.js";

/** `as`: read as the seat or as the owner. */
export const AsArg = z
  .enum(["seat", "owner"])
  .default("seat")
  .describe("read as your seat (its visibility applies) or as your owner (everything)");

/** Lists ledger entries from `from`, after verifying the whole export. */
export const history = defineTool({
  name: "trestle_history",
  title: "Read and verify the table's history",
  description:
    "Read the table's ledger from entry `from` on, after verifying the whole export on this machine: CLEAN, REFUTED (first bad entry and why) or INCONCLUSIVE (what could not be checked), with the coverage. Full bodies, framed as data.",
  input: z.strictObject({
    table: TableArg,
    from: SeqSchema.default(1).describe("first entry to show (all are verified)"),
    limit: z.int().min(1).max(LIMITS.page).default(100).describe("at most this many entries (default 100)"),
    as: AsArg,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, from, limit, as }, ctx) {
    const id = ctx.session.tableId(table);
    const verified = await verifiedExport(ctx, id, as);
    const me = "seat" in verified.as ? verified.as.seat : null;
    const shown = (verified.items ?? []).filter((item) => item.seq >= from).slice(0, limit);
    const last = shown[shown.length - 1];
    const more = last !== undefined && verified.report.last_seq > last.seq;
    return {
      status: [
        `History of ${id} as ${verified.who}, verified on this machine:`,
        ...verified.lines.map((line) => safeLine(line, 2000)),
        shown.length === 0
          ? `No entries from #${from}.`
          : `Entries #${shown[0]!.seq} to #${last!.seq} below.${more ? ` More follow: call again with from ${last!.seq + 1}.` : ""}`,
      ],
      data:
        shown.length > 0
          ? frameInert(
              shown.map((item) => historyItem(item, me)),
              ctx.boundary(),
            )
          : null,
    };
  },
});
