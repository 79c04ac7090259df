/**
 * `trestle export`: saves the table's JSONL export (to --out, or stdout) and verifies it against the
 * pinned relay key and the heads this home holds. A REFUTED export is still saved, as evidence,
 * and the command exits 4.
 */
import { writeFileSync } from "node:fs";
import { optional, OWNER_FLAGS, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { EXIT } from "../exit.js";
import { reportLines } from "../../text/format.js";
import type { Command } from "./command.js";

/** `export`: the JSONL export, verified; exits 4 when REFUTED (the file is written anyway). */
export const exportCommand: Command = {
  name: "export",
  summary: "save the table's export (JSONL) and verify it",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    out: { type: "string", value: "FILE", help: "write the export to FILE (default: stdout)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const reader = await ctx.reader();
    const client = await ctx.table(table);
    const { text, report } = await client.exportLedger(reader);
    const out = optional(ctx.args, "out");
    if (out === undefined) {
      ctx.io.stdout.write(text);
      ctx.out.notice(reportLines(report, ctx.out.e).join("\n"));
    } else {
      writeFileSync(out, text);
      ctx.out.result([`export of ${table} saved to ${out}`, ...reportLines(report, ctx.out.c)], { path: out, report });
    }
    return report.verdict === "REFUTED" ? EXIT.REFUTED : EXIT.OK;
  },
};
