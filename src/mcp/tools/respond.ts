/** `trestle_respond`: answer a request addressed to this seat (docs/SPEC.md §5.7); needs no floor. */
import { z } from "zod";
import { ApprovalVerdictSchema, BodySchema, RequestIdSchema, RequestTypeSchema } from "../../protocol/index.js";
import { TableArg, TokensArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `response` entry as this seat. */
export const respond = writeTool({
  name: "trestle_respond",
  title: "Answer a request",
  description:
    "Answer a request (trestle_read and trestle_memory show open requests with their id and type). `shutdown` and `plan_approval` need a verdict; approving a shutdown addressed to you takes your seat off the table for good. The first answer resolves the request. Needs no floor.",
  input: z.strictObject({
    table: TableArg,
    request_id: RequestIdSchema.describe("the request's id"),
    type: RequestTypeSchema.describe("the request's type, exactly as the request has it"),
    verdict: ApprovalVerdictSchema.optional().describe("approve or reject; required for shutdown and plan_approval"),
    text: BodySchema.optional().describe("your answer (optional)"),
    tokens: TokensArg,
  }),
  build: ({ request_id, type, verdict, text, tokens }) => ({
    kind: "response",
    request_id,
    type,
    verdict,
    body: text ?? "",
    budget: tokens === undefined ? undefined : { tokens },
  }),
});
