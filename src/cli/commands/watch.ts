/**
 * `trestle watch`: a live tail over the table's WebSocket, as a seat or, with --owner, as an owner
 * session (a live approver: while it is open, proposals with effects on this owner's resources may
 * wait for the owner instead of being refused with E_NO_APPROVER; docs/SPEC.md §5.6, §6.3). Every
 * entry is chain-verified and every head checked against the pinned relay key before it is
 * printed, and after each pause or lift a note names every pause in force; the socket reconnects
 * and resumes by itself. Ends once the table has closed and every task it saw opened is final, on
 * Ctrl-C, or when the relay is caught forking or truncating (exit 4, with the evidence).
 */
import { TaskLog } from "../../client/index.js";
import { foldControl, isEntry, pauseHolders, type PauseState } from "../../protocol/index.js";
import { integer, optional, OWNER_FLAGS, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { followLive } from "../live.js";
import { entryLine, pausesText } from "../../text/format.js";
import type { Command } from "./command.js";

/** `watch`: verified live tail until the table's work is done (exit 0) or the relay is caught (exit 4). */
export const watch: Command = {
  name: "watch",
  summary: "follow a table live, verified: as a seat, or as a live owner session (--owner)",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    ...OWNER_FLAGS,
    after: { type: "string", value: "SEQ", help: "print only entries after SEQ (all are still verified)" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const reader = await ctx.reader();
    const owner = "owner" in reader.as ? reader.as.owner : undefined;
    const after = integer(ctx.args, "after", 0)!;
    // The flags this watch was given that the approve command needs too, so it runs as printed.
    const carried = (["relay", "home", "owner-key"] as const).flatMap((flag) => {
      const value = optional(ctx.args, flag);
      return value === undefined ? [] : [` --${flag} ${value}`];
    });
    const approveCommand = (task: string) => `trestle approve ${task} --table ${table}${carried.join("")}`;
    const client = await ctx.table(table);
    const tasks = new TaskLog();
    const pauses: Record<string, PauseState> = {};
    let closed = false;
    return followLive(ctx, client, reader, (items, socket) => {
      for (const item of items) {
        if (item.seq > after) ctx.out.line(entryLine(item, ctx.out.c), item);
        if (isEntry(item) && item.kind === "system" && item.subkind === "table_closed") closed = true;
        if (
          isEntry(item) &&
          item.kind === "system" &&
          (item.subkind === "table_paused" || item.subkind === "table_resumed")
        ) {
          foldControl(pauses, item);
          if (item.seq > after) ctx.out.notice(pausesText(pauseHolders(pauses)));
        }
      }
      for (const move of tasks.accept(items)) {
        if (owner !== undefined && move.owner === owner && move.state === "awaiting_approval" && move.seq > after) {
          ctx.out.notice(`task ${move.task} waits for you: ${approveCommand(move.task)} (or trestle reject …)`);
        }
      }
      if (closed && tasks.open().length === 0) socket.close();
    });
  },
};
