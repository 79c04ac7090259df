/**
 * `trestle_open_subtable`: this seat opens a sub-table of the table (docs/SPEC.md §5.9) with some
 * of its seats, who need no new join; when it closes, its decision lands here. Only when this
 * server's owner allowed it (`allow_subtables` / TRESTLE_ALLOW_SUBTABLES): it seats other owners'
 * seats under a new topology, which is the owner's call, not the model's (decisions 0159, 0241).
 */
import { z } from "zod";
import { TableConfigSchema, TrestleError, validateConfig } from "../../protocol/index.js";
import { ENV } from "../config.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** Opens a sub-table of the table as this seat, if the owner allowed it. */
export const openSubtable = defineTool({
  name: "trestle_open_subtable",
  title: "Open a sub-table",
  description:
    "Open a sub-table of this table with some of its seats (they need no new join), its own topic, topology and termination (docs/SPEC.md §5.9); when it closes, its decision comes back here as one entry. Its config's parent is this table. Only if your owner allowed sub-tables for this server; otherwise it answers E_FORBIDDEN.",
  input: z.strictObject({
    table: TableArg.describe("the parent table; default: the active table"),
    config: TableConfigSchema.partial({ parent: true }).describe(
      "the sub-table's config: its id, topic, owners (the parent's, same keys), seats (the parent's), topology, termination",
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ table, config: raw }, ctx) {
    const { session } = ctx;
    if (session.settings.allowSubtables !== true) {
      throw new TrestleError(
        "E_FORBIDDEN",
        `this server's owner has not allowed sub-tables: they set ${ENV.allowSubtables}=1 (or "allow_subtables": true in the MCP config file)`,
      );
    }
    const parent = session.tableId(table);
    if (raw.parent !== undefined && raw.parent !== parent)
      throw new TrestleError("E_SCHEMA", `config.parent is "${raw.parent}" but the parent table is "${parent}"`);
    const config = validateConfig({ ...raw, parent });
    const seat = await session.seatKey();
    const opened = await (await session.client(parent)).openSubtable(seat.signer, seat.name, config);
    await (await session.client(opened.table)).tracker.observe(opened.head);
    return {
      status: [
        `Opened sub-table ${opened.table} of ${parent} as seat ${seat.name} (head #${opened.head.seq}); its decision lands at ${parent} when it closes.`,
        `Pass table: "${opened.table}" to read, wait and write there; ${parent} stays the active table.`,
      ],
    };
  },
});
