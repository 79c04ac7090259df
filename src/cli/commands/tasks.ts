/** `trestle tasks`: every task of a table with its state and executor (docs/SPEC.md §5.6), read as an owner or a seat. */
import { OWNER_FLAGS, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { taskLine } from "../../text/format.js";
import type { Command } from "./command.js";

/** `tasks`: the table's tasks in opening order. */
export const tasks: Command = {
  name: "tasks",
  summary: "list a table's tasks with their states and executors",
  flags: { ...TABLE_FLAG, ...OWNER_FLAGS, ...SEAT_FLAGS },
  async run(ctx) {
    const table = ctx.tableId();
    const reader = await ctx.reader();
    const client = await ctx.table(table);
    const items = await client.tasks(reader);
    const lines = items.length === 0 ? [`no tasks at ${table}`] : items.map((t) => taskLine(t, ctx.out.c));
    ctx.out.result(lines, { table, items });
  },
};
