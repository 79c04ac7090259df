/**
 * `trestle_tables`: the tables this server knows at its relay: the active one, those used in
 * this session, and those this home holds a verified head for; each with the relay's current
 * signed head (verified). `use` makes one of them the active table.
 */
import { z } from "zod";
import { PinStore } from "../../client/node.js";
import { knownTables } from "../completions.js";
import { TableIdSchema, TrestleError } from "../../protocol/index.js";
import type { McpSession } from "../session.js";
import { defineTool } from "../tool.js";

const MAX_LISTED = 50;

/** Lists known tables with their heads; optionally switches the active table. */
export const tables = defineTool({
  name: "trestle_tables",
  title: "List your tables",
  description:
    "List the tables this server knows at its relay (active, used in this session, or with a head kept on this machine), each with its current head. `use` makes one the active table.",
  input: z.strictObject({ use: TableIdSchema.optional().describe("make this table the active one") }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ use }, ctx) {
    const { session } = ctx;
    const using = use === undefined ? null : session.use(use);
    const pin = new PinStore(session.settings.home).get(session.settings.url);
    const ids = knownTables(session).slice(0, MAX_LISTED);
    const lines = await Promise.all(
      ids.map(async (id) => `  ${id}${id === session.active ? " (active)" : ""}: ${await headText(session, id)}`),
    );
    return {
      status: [
        `Tables at ${session.settings.url}${pin ? ` (relay key ${pin.relay_key})` : " (relay not pinned yet)"}:`,
        ...(lines.length > 0 ? lines : ["  none yet: trestle_create_table, or trestle_join with a table id"]),
        ...(using === null ? [] : [`Using ${use}: ${using}.`]),
      ],
    };
  },
});

async function headText(session: McpSession, id: string): Promise<string> {
  try {
    const head = await (await session.client(id)).head();
    return `head #${head.seq}`;
  } catch (error) {
    return error instanceof TrestleError ? `${error.code}: ${error.message}` : "unreadable";
  }
}
