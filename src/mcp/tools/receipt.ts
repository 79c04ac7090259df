/** `trestle_receipt`: the executor reports what it did. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { RefsArg, TableArg, TaskArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `receipt` entry as this seat. */
export const receipt = writeTool({
  name: "trestle_receipt",
  title: "Report a task done",
  description:
    "As the task's executor, report what you did; another seat then verifies it (trestle_verify). Needs no floor.",
  input: z.strictObject({
    table: TableArg,
    task: TaskArg,
    text: BodySchema.min(1).describe("what you did"),
    result: z
      .record(z.string(), z.json())
      .optional()
      .describe("a JSON object with the outcome (integers only, at most 2048 bytes)"),
    refs: RefsArg,
  }),
  build: ({ task, text, result, refs }) => ({ kind: "receipt", task, body: text, result, refs }),
});
