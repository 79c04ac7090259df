/** `trestle_verify`: check a reported task (a seat other than its executor). */
import { z } from "zod";
import { BodySchema, VerifyVerdictSchema } from "../../protocol/index.js";
import { TableArg, TaskArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `verify` entry as this seat. */
export const verify = writeTool({
  name: "trestle_verify",
  title: "Verify a task's result",
  description:
    "Check another seat's reported task and say pass or fail, with your reason. The executor cannot verify its own task. Needs no floor.",
  input: z.strictObject({
    table: TableArg,
    task: TaskArg,
    verdict: VerifyVerdictSchema.describe("pass or fail"),
    reason: BodySchema.min(1).describe("why"),
  }),
  build: ({ task, verdict, reason }) => ({ kind: "verify", task, verdict, body: reason }),
});
