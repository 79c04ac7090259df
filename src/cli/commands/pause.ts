/**
 * `trestle pause` and `trestle resume`: the owner's own brake from a terminal (docs/SPEC.md §5.5),
 * the same owner-signed `table_control` statement the principal window and the MCP `trestle_close`
 * tool sign (OwnerClient.control). Each owner holds their own pause; `resume` lifts only this
 * owner's. Afterwards the table is read as the owner, chain verified, and the pauses in force are
 * printed in the words `trestle read` and `watch` use. A refusal is the relay's, with its code.
 */
import { fold, isEntry, pauseHolders, type ControlAction } from "../../protocol/index.js";
import { OWNER_FLAGS, TABLE_FLAG } from "../args.js";
import { headRef, pausesText } from "../../text/format.js";
import { ownerClientOf } from "../owner-client.js";
import type { Command } from "./command.js";

/** The command for `action`: signs it as --owner, then prints the entry and every pause in force after it. */
function controlCommand(action: ControlAction, summary: string): Command {
  return {
    name: action,
    summary,
    flags: { ...TABLE_FLAG, ...OWNER_FLAGS },
    async run(ctx) {
      const table = ctx.tableId();
      const client = await ctx.table(table);
      const { owner, signer, client: owners } = await ownerClientOf(ctx);
      const { seq } = await owners.control(table, owner, action);
      const { items, head } = await client.history({ signer, as: { owner } });
      const pauses = pauseHolders(fold(items.filter(isEntry)).pauses);
      const done =
        action === "pause"
          ? `${owner} paused ${ctx.out.c.bold(table)} with the owner key`
          : `${owner} lifted their own pause on ${ctx.out.c.bold(table)} with the owner key`;
      ctx.out.result([`${done} as entry #${seq} (head ${headRef(head)})`, pausesText(pauses)], {
        table,
        owner,
        action,
        seq,
        head,
        pauses,
      });
    },
  };
}

/** `pause`: puts this owner's own pause on the table (needs a seat of theirs there). */
export const pause = controlCommand(
  "pause",
  "put your own pause on a table: no seat writes until you lift it (signed with your owner key)",
);

/** `resume`: lifts this owner's own pause; other owners' pauses stay. */
export const resume = controlCommand(
  "resume",
  "lift your own pause on a table; other owners' pauses stay (signed with your owner key)",
);

/** The brake verbs, in help order. */
export const CONTROL: readonly Command[] = [pause, resume];
