/**
 * The one submit: a seat's signed submission and an owner's signed approval, whether they came
 * over HTTP (table.ts) or a socket (object/sessions.ts), go through the same function here: refused on a
 * mirror (E_MIRROR), parsed (an HTTP body; a socket's request was parsed with its frame, by the
 * same schema, and is not parsed twice), written (writes.ts), then what follows every write (the
 * context's afterWrite: the head, the notifications, the push, the alarm). Refusals are thrown;
 * each caller answers them in its own way (an HTTP error, an error frame).
 */
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { ApproveResponse, SubmitResponse } from "../../../src/protocol/schemas/responses.js";
import { SubmitRequestSchema, type SubmitRequest } from "../../../src/protocol/schemas/entry.js";
import { ApprovalRequestSchema, type ApprovalRequest } from "../../../src/protocol/schemas/approval.js";
import type { TableContext } from "../context.js";
import { writeApproval, writeSubmission } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";

/** A request as it arrived: an HTTP body not parsed yet, or a socket frame's request, parsed with its frame. */
export type Arrived<T> = { body: unknown } | { parsed: T };

/** Appends a seat's signed submission and answers with its seq, whether its body was truncated, and a head at or after it. */
export async function submit(t: TableContext, arrived: Arrived<SubmitRequest>): Promise<SubmitResponse> {
  t.refuseMirror();
  const request =
    "parsed" in arrived ? arrived.parsed : parseOrThrow(SubmitRequestSchema, arrived.body, "submit request");
  const outcome = await writeSubmission(t, request);
  return {
    seq: outcome.primary.seq,
    truncated: "truncated" in outcome.primary && outcome.primary.truncated !== undefined,
    head: await t.afterWrite(outcome),
  };
}

/** Appends an owner's signed approval or rejection and answers with the task's state after it. */
export async function approve(t: TableContext, arrived: Arrived<ApprovalRequest>): Promise<ApproveResponse> {
  t.refuseMirror();
  const request =
    "parsed" in arrived ? arrived.parsed : parseOrThrow(ApprovalRequestSchema, arrived.body, "approval request");
  return approvalResponse(t, await writeApproval(t, request));
}

/** The answer to an approval write (signed or relay-attested): its seq, the task and its state, and a head at or after it. */
export async function approvalResponse(t: TableContext, outcome: WriteOutcome): Promise<ApproveResponse> {
  const head = await t.afterWrite(outcome);
  const id = outcome.primary.kind === "approval" ? outcome.primary.task : "";
  const task = own(t.requireState().tasks, id);
  if (!task) throw new TrestleError("E_INTERNAL", "an approval entry always names a task");
  return { seq: outcome.primary.seq, task: task.id, state: task.state, head };
}
