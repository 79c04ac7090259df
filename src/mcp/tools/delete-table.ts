/**
 * `trestle_delete_table`: deletes a table this server's owner created, for good, on its relay
 * (docs/SPEC.md §6.6). Deleting cannot be undone, so the model's call is only a request: the owner
 * is asked in person (the principal window, ../confirm.ts) and the delete is signed only on their
 * Approve there (E_NOT_CONFIRMED otherwise, nothing signed). Exports already taken keep verifying.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { askOwner, requireOwnerLink } from "../confirm.js";
import { TableArg } from "./args.js";

/** Deletes a table, signed by the owner key after the owner confirmed. */
export const deleteTable = defineTool({
  name: "trestle_delete_table",
  title: "Delete a table for good (asks your owner)",
  description:
    "Ask your owner to delete a table they created: the relay frees its storage and never uses its id again; exports already taken still verify. Your owner is asked in person, in the principal window your client links to, and must approve there; nothing is signed otherwise. To stop a table without deleting it, use trestle_close.",
  input: z.strictObject({ table: TableArg }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ table }, ctx) {
    const { session } = ctx;
    const id = session.tableId(table);
    requireOwnerLink(ctx, `to delete table ${id}`);
    const { owner, client } = await session.ownerClient();
    return askOwner(ctx, {
      title: `DELETE table ${id} on its relay, for good`,
      lines: [
        `trestle: sign with your owner key (${owner.name}) to DELETE table ${id} on its relay?`,
        "",
        "The relay frees everything it holds for this table and never uses its id again. Nobody can read or write it there afterwards; exports already taken still verify. This cannot be undone.",
        "",
        "Your AI agent asked for this; only you decide. Declining signs nothing.",
      ],
      approve: "Delete the table and sign with my owner key",
      unsigned: `to delete table ${id}`,
      progress: `asking your owner to delete table ${id} in the principal window`,
      async sign() {
        const tombstone = await client.deleteTable(id, owner.name);
        return {
          status: `Table ${id} deleted by its creator ${owner.name} at ${new Date(tombstone.deleted_at).toISOString()}: its storage on the relay is freed and its id is never used again.`,
        };
      },
    });
  },
});
