/**
 * `trestle subtable <config.json>`: a seat opens a sub-table of --table (docs/SPEC.md §5.9) with
 * its own topology and a subset of the parent's seats, who need no new join. The config's
 * `parent` defaults to --table; the child's head is verified and kept like any table's.
 */
import { validateConfig } from "../../protocol/index.js";
import { optional, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { headRef } from "../../text/format.js";
import { readJsonFile } from "../json-file.js";
import type { Command } from "./command.js";

/** `subtable`: signs the child config with the seat key at the parent and opens it there. */
export const subtable: Command = {
  name: "subtable",
  summary: "open a sub-table of this table with some of its seats (when it closes, its result lands here)",
  args: "<config.json>",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS },
  async run(ctx) {
    const [file] = positionals(ctx.args, ["config.json"]);
    const raw = readJsonFile(file!, "the sub-table config");
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      throw new UsageError(`the sub-table config ${file} is not a JSON object`);
    const given = "parent" in raw && typeof raw.parent === "string" ? raw.parent : undefined;
    const parent = optional(ctx.args, "table", "TRESTLE_TABLE", ctx.io.env) ?? given;
    if (parent === undefined)
      throw new UsageError('name the parent table: --table, TRESTLE_TABLE or "parent" in the config');
    if (given !== undefined && given !== parent)
      throw new UsageError(`the config's parent is "${given}" but --table is "${parent}"`);
    const config = validateConfig({ ...raw, parent });
    const { seat, key } = await ctx.seat();
    const client = await ctx.table(parent);
    const { table, head } = await client.openSubtable(key.signer, seat, config);
    const child = await ctx.table(table);
    await child.tracker.observe(head);
    const c = ctx.out.c;
    ctx.out.result(
      [
        `opened sub-table ${c.bold(table)} of ${parent} as ${seat} (head ${headRef(head)}); its result lands at ${parent} when it closes`,
      ],
      { table, parent, opener: seat, head },
    );
  },
};
