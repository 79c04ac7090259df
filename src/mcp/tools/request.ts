/** `trestle_request`: ask other seats for an answer (docs/SPEC.md §5.7); needs no floor. */
import { z } from "zod";
import { randomBytes } from "../../client/index.js";
import { BodySchema, RequestIdSchema, RequestTypeSchema, toBase64url } from "../../protocol/index.js";
import { TableArg, ToArg, TokensArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `request` entry as this seat; the request id is fresh unless given. */
export const request = writeTool({
  name: "trestle_request",
  title: "Ask other seats for an answer",
  description:
    "Open a request that other seats answer with trestle_respond: type `shutdown` (to exactly one seat: asks it to leave the table), `plan_approval`, or any label of your own. Needs no floor and ends no turn. The reply names the request_id.",
  input: z.strictObject({
    table: TableArg,
    type: RequestTypeSchema.describe("shutdown, plan_approval, or a label of your own (1-64 of a-z 0-9 _ . : -)"),
    text: BodySchema.optional().describe("what you ask (optional)"),
    to: ToArg,
    request_id: RequestIdSchema.optional().describe("a request id of your own (default: a fresh one)"),
    tokens: TokensArg,
  }),
  build: ({ type, text, to, request_id, tokens }) => ({
    kind: "request",
    request_id: request_id ?? `req-${toBase64url(randomBytes(9))}`,
    type,
    to,
    body: text ?? "",
    budget: tokens === undefined ? undefined : { tokens },
  }),
  note: (submission) =>
    submission.kind === "request"
      ? `Its request_id is ${submission.request_id}; answers come as response entries with that id.`
      : null,
});
