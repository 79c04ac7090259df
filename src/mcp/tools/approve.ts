/** `trestle_approve`: asks the owner, in person, to approve one of their tasks; signs only on their yes. */
import { z } from "zod";
import { answerTask } from "../approval.js";
import { defineTool } from "../tool.js";
import { TableArg, TaskArg } from "./args.js";

/** Approves a task of this server's owner, after the human confirms through elicitation. */
export const approve = defineTool({
  name: "trestle_approve",
  title: "Ask your owner to approve a task",
  description:
    "Ask your owner, in person, to approve one of their tasks. The server shows them the exact effects and signs with their key only if they confirm; your call alone approves nothing. Refused (E_NOT_CONFIRMED) when this client cannot ask them or they decline; they can always answer with `trestle approve` in a terminal.",
  input: z.strictObject({ table: TableArg, task: TaskArg }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ table, task }, ctx) {
    const id = ctx.session.tableId(table);
    const answer = await answerTask(ctx, id, task, "approve");
    return { status: `Your owner confirmed: task ${answer.task} approved (entry #${answer.seq}); it is now ${answer.state}. A seat of theirs may run it (trestle_progress).` };
  },
});
