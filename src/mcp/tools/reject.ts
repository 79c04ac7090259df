/** `trestle_reject`: asks the owner, in person, to reject one of their tasks; signs only on their Approve in the principal window. */
import { z } from "zod";
import { answerTask, VerdictOutput } from "../approval.js";
import { defineTool } from "../tool.js";
import { TableArg, TaskArg } from "./args.js";

/** Rejects a task of this server's owner, once the human confirms it in the principal window. */
export const reject = defineTool({
  name: "trestle_reject",
  title: "Ask your owner to reject a task",
  description:
    "Ask your owner, in person, to reject one of their tasks (final: a rejected task never runs). Your client shows them a link to the principal window; their key signs only if they confirm there. Refused (E_NOT_CONFIRMED) when this client cannot show them a link or they decline; they can always answer with `trestle reject` in a terminal.",
  input: z.strictObject({ table: TableArg, task: TaskArg }),
  output: VerdictOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: ({ table, task }, ctx) => answerTask(ctx, ctx.session.tableId(table), task, "reject"),
});
