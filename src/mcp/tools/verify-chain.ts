/** `trestle_verify_chain`: verify the table's whole ledger on this machine: CLEAN, REFUTED or INCONCLUSIVE. */
import { z } from "zod";
import { safeLine } from "../../text/framing.js";
import { defineTool } from "../tool.js";
import { verifiedExport } from "../verification.js";
import { TableArg } from "./args.js";
import { AsArg } from "./history.js";

/** Verifies the export and reports only the verdict and coverage. */
export const verifyChain = defineTool({
  name: "trestle_verify_chain",
  title: "Verify the table's chain",
  description:
    "Verify the table's whole ledger on this machine against the pinned relay key and the heads held here: every signature, the hash chain, the heads, and a replay of the table's policy. CLEAN, REFUTED (first bad entry and why) or INCONCLUSIVE (what could not be checked).",
  input: z.strictObject({ table: TableArg, as: AsArg }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, as }, ctx) {
    const id = ctx.session.tableId(table);
    const verified = await verifiedExport(ctx, id, as);
    const advice =
      verified.report.verdict === "REFUTED"
        ? "The relay's record of this table is provably wrong: tell your owner, and keep the export (trestle export) as evidence."
        : verified.report.verdict === "INCONCLUSIVE"
          ? "Nothing wrong was found, but not everything could be checked (see above); reading as the owner checks hidden entries too."
          : "Everything was checked and holds.";
    return {
      status: [
        `Verification of ${id} as ${verified.who}:`,
        ...verified.lines.map((line) => safeLine(line, 2000)),
        advice,
      ],
    };
  },
});
