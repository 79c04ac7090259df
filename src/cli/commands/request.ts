/** `trestle request <type> [text | -]`: opens a request/response exchange (docs/SPEC.md §5.7); needs no floor. */
import { randomBytes, type SeatSubmission } from "../../client/index.js";
import { toBase64url } from "../../protocol/index.js";
import { optional, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { fieldFlags, readFields } from "../entry-fields.js";
import type { Command } from "./command.js";
import { bodyOf, submitEntry } from "./write.js";

/** `request`: kind `request`; the type, an optional body, --id (default a fresh one), --to, --tokens. */
export const request: Command = {
  name: "request",
  summary: "ask other seats for an answer (shutdown, plan_approval or any type); needs no floor",
  args: "<type> [text | -]",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    id: { type: "string", value: "ID", help: "the request_id, 1-64 of [A-Za-z0-9_.:-] (default a fresh random one)" },
    ...fieldFlags(["to", "budget"]),
  },
  async run(ctx) {
    const [type, text] = positionals(ctx.args, ["type", "text"], 1);
    const requestId = optional(ctx.args, "id") ?? `req-${toBase64url(randomBytes(9))}`;
    const submission = {
      kind: "request",
      request_id: requestId,
      type: type!,
      body: await bodyOf(ctx, text, null),
      ...readFields(ctx.args, ["to", "budget"]),
    } as SeatSubmission;
    await submitEntry(ctx, submission, { label: `request ${requestId} (${type})`, json: { request_id: requestId } });
  },
};
