/**
 * Relay-attested approvals from chat apps (docs/SPEC.md §5.6): the Worker has checked that the tap
 * came from a chat account bound to the task owner's key and names the task; this builds the
 * `approval` entry (`via`, `author: null`) and sends it through the same admit as every other
 * write, which accepts an approve only where the owner's chat_approve rules allow it. The nonce
 * comes from the platform's event id, so a redelivered callback returns the first entry.
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { chatApprovalDraft } from "../../../src/protocol/policy/chat-approve.js";
import { taskOf } from "../../../src/protocol/policy/tasks.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { ChatPlatform } from "../../../src/protocol/schemas/control.js";
import type { ApprovalVerdict } from "../../../src/protocol/schemas/task.js";
import { admitAndAppend, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";
import { chatEventNonce } from "./chat-nonce.js";

/** A tap on an approve or reject button, attested by the relay. */
export interface AttestedApproval {
  /** The owner key the tapping chat account is bound to. */
  owner_key: string;
  task: string;
  verdict: ApprovalVerdict;
  via: ChatPlatform;
  /** The platform's id for the tap (callback query, postback event, interaction); the same tap always makes the same nonce. */
  event_id: string;
}

/** Appends the relay-attested approval or rejection of `input.task` by its owner, or refuses it. */
export function writeAttestedApproval(t: TableContext, input: AttestedApproval): WriteOutcome {
  const state = requireTable(t);
  const task = taskOf(state, input.task);
  if (own(state.config.owners, task.owner)?.public_key !== input.owner_key) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `task ${task.id} belongs to ${task.owner}, whose key this chat account is not bound to`,
    );
  }
  const draft = chatApprovalDraft(state, {
    task: task.id,
    verdict: input.verdict,
    via: input.via,
    nonce: chatEventNonce("chat-approval", input.event_id),
  });
  return admitAndAppend(t, draft);
}
