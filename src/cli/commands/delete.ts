/** `trestle delete --table ID --yes`: deletes a table for good on its relay, signed by its creator's owner key (docs/SPEC.md §6.6). */
import { OWNER_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { ownerClientOf } from "../owner-client.js";
import type { Command } from "./command.js";

/** `delete`: only with --yes (nothing can bring the relay's copy back); the same command again answers the same. */
export const deleteCommand: Command = {
  name: "delete",
  summary: "delete a table you created, for good, on its relay (export it first: trestle export)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    yes: { type: "boolean", help: "confirm: the relay frees the table's storage and never uses its id again" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    if (ctx.args.values.yes !== true) {
      throw new UsageError(
        `deleting ${table} cannot be undone (keep an export: trestle export --table ${table}); pass --yes to delete it`,
      );
    }
    const { owner, client } = await ownerClientOf(ctx);
    const tombstone = await client.deleteTable(table, owner);
    ctx.out.result(
      [
        `deleted table ${ctx.out.c.bold(table)} on ${ctx.relayUrl} as its creator ${owner}`,
        "its storage is freed and its id is never used again; exports you kept still verify",
      ],
      tombstone,
    );
  },
};
