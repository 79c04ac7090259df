/** `trestle_reject`: asks the owner, in person, to reject one of their tasks; signs only on their yes. */
import { z } from "zod";
import { answerTask } from "../approval.js";
import { defineTool } from "../tool.js";
import { TableArg, TaskArg } from "./args.js";

/** Rejects a task of this server's owner, after the human confirms through elicitation. */
export const reject = defineTool({
  name: "trestle_reject",
  title: "Ask your owner to reject a task",
  description:
    "Ask your owner, in person, to reject one of their tasks (final: a rejected task never runs). Signed with their key only if they confirm; refused (E_NOT_CONFIRMED) when this client cannot ask them or they decline; they can always answer with `trestle reject` in a terminal.",
  input: z.strictObject({ table: TableArg, task: TaskArg }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ table, task }, ctx) {
    const id = ctx.session.tableId(table);
    const answer = await answerTask(ctx, id, task, "reject");
    return { status: `Your owner confirmed: task ${answer.task} rejected (entry #${answer.seq}); it is now ${answer.state}.` };
  },
});
