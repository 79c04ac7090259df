/** `trestle_progress`: start an approved task (becoming its executor) or report it is still running. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { TableArg, TaskArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `progress` entry as this seat. */
export const progress = writeTool({
  name: "trestle_progress",
  title: "Report progress on a task",
  description:
    "Move an approved task of your owner to running (the first seat to do so becomes its executor), or tell the table it is still running (a heartbeat). Needs no floor.",
  input: z.strictObject({
    table: TableArg,
    task: TaskArg,
    text: BodySchema.optional().describe("what is happening (optional)"),
  }),
  build: ({ task, text }) => ({ kind: "progress", task, body: text ?? "" }),
});
