/**
 * The one submit: a seat's signed submission and an owner's signed approval, whether they came
 * over HTTP (table.ts) or a socket (sockets/sessions.ts), go through the same function here: refused on a
 * mirror (E_MIRROR), written (writes.ts), then what follows every write (the context's afterWrite:
 * the head, the notifications, the push, the alarm). Refusals are thrown; each caller answers them
 * in its own way (an HTTP error, an error frame).
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { ApproveResponse, SubmitResponse } from "../../../src/protocol/schemas/responses.js";
import type { TableContext } from "../context.js";
import { writeApproval, writeSubmission } from "./writes.js";
import type { WriteOutcome } from "./outcome.js";

/** Appends a seat's signed submission and answers with its seq, whether its body was truncated, and a head at or after it. */
export async function submit(t: TableContext, body: unknown): Promise<SubmitResponse> {
  t.refuseMirror();
  const outcome = await writeSubmission(t, body);
  return { seq: outcome.primary.seq, truncated: "truncated" in outcome.primary && outcome.primary.truncated !== undefined, head: await t.afterWrite(outcome) };
}

/** Appends an owner's signed approval or rejection and answers with the task's state after it. */
export async function approve(t: TableContext, body: unknown): Promise<ApproveResponse> {
  t.refuseMirror();
  return approvalResponse(t, await writeApproval(t, body));
}

/** The answer to an approval write (signed or relay-attested): its seq, the task and its state, and a head at or after it. */
export async function approvalResponse(t: TableContext, outcome: WriteOutcome): Promise<ApproveResponse> {
  const head = await t.afterWrite(outcome);
  const id = outcome.primary.kind === "approval" ? outcome.primary.task : "";
  const task = own(t.requireState().tasks, id);
  if (!task) throw new TrestleError("E_INTERNAL", "an approval entry always names a task");
  return { seq: outcome.primary.seq, task: task.id, state: task.state, head };
}
