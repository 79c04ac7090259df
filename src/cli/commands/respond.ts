/**
 * `trestle respond <request_id> [text | -]`: answers a request (docs/SPEC.md §5.7). The request's
 * type is read from the seat's verified history unless --type names it; shutdown and plan_approval
 * need --verdict, and a seat that approves its own shutdown leaves the table.
 */
import type { SeatSubmission } from "../../client/index.js";
import { ApprovalVerdictSchema, VERDICT_REQUEST_TYPES } from "../../protocol/index.js";
import { optional, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { fieldFlags, readFields } from "../entry-fields.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";
import { bodyOf, submitEntry } from "./write.js";

/** `respond`: kind `response`; the request id, --verdict, --type (default: the request's own), an optional body. */
export const respond: Command = {
  name: "respond",
  summary: "answer a request addressed to this seat (approve or reject a shutdown or plan)",
  args: "<request_id> [text | -]",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    verdict: { type: "string", value: "approve|reject", help: "the answer; required for shutdown and plan_approval" },
    type: { type: "string", value: "TYPE", help: "the request's type (default: read from the table's history)" },
    ...fieldFlags(["budget"]),
  },
  async run(ctx) {
    const [requestId, text] = positionals(ctx.args, ["request_id", "text"], 1);
    const verdict = verdictOf(optional(ctx.args, "verdict"));
    const type = optional(ctx.args, "type") ?? (await requestType(ctx, requestId!));
    if (VERDICT_REQUEST_TYPES.has(type) && verdict === undefined)
      throw new UsageError(`a ${type} response needs --verdict approve or --verdict reject`);
    const submission = {
      kind: "response",
      request_id: requestId!,
      type,
      ...(verdict === undefined ? {} : { verdict }),
      body: await bodyOf(ctx, text, null),
      ...readFields(ctx.args, ["budget"]),
    } as SeatSubmission;
    const label = `response to ${requestId} (${type}${verdict ? `: ${verdict}` : ""})`;
    await submitEntry(ctx, submission, { label, json: { request_id: requestId, type } });
    if (type === "shutdown" && verdict === "approve")
      ctx.out.notice("this seat has left the table (shutdown); it can no longer read or write there");
  },
};

function verdictOf(text: string | undefined): "approve" | "reject" | undefined {
  if (text === undefined) return undefined;
  const parsed = ApprovalVerdictSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`--verdict must be approve or reject, not "${text}"`);
  return parsed.data;
}

/** The type of request `requestId`, as the seat reads it in the verified history. */
async function requestType(ctx: Context, requestId: string): Promise<string> {
  const { seat, key } = await ctx.seat();
  const client = await ctx.table(ctx.tableId());
  return (await client.request({ signer: key.signer, as: { seat } }, requestId)).type;
}
