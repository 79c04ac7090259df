/** `trestle_approve`: asks the owner, in person, to approve one of their tasks; signs only on their Approve in the principal window. */
import { z } from "zod";
import { answerTask, VerdictOutput } from "../approval.js";
import { defineTool } from "../tool.js";
import { TableArg, TaskArg } from "./args.js";

/** Approves a task of this server's owner, once the human approves it in the principal window. */
export const approve = defineTool({
  name: "trestle_approve",
  title: "Ask your owner to approve a task",
  description:
    "Ask your owner, in person, to approve one of their tasks. Your client shows them a link that opens the principal window on their machine with the exact effects; their key signs only if they approve there, and your call alone approves nothing. Refused (E_NOT_CONFIRMED) when this client cannot show them a link or they decline; they can always answer with `trestle approve` in a terminal.",
  input: z.strictObject({ table: TableArg, task: TaskArg }),
  output: VerdictOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: ({ table, task }, ctx) => answerTask(ctx, ctx.session.tableId(table), task, "approve"),
});
