/**
 * An owner's verdict on a task, made through this server only with its human: the model's call
 * to trestle_approve or trestle_reject is a request, never the decision. The server reads the
 * proposal from the verified ledger and opens the principal window at that decision (./confirm.ts),
 * showing exactly the effects the owner key would sign for, in plain words; it signs only on the
 * owner's Approve there. A client that cannot hand them the link, a decline, a Decline or no answer
 * is E_NOT_CONFIRMED and nothing is signed; the owner can always answer from a terminal instead
 * (`trestle approve` / `trestle reject`) or in `trestle view`.
 */
import { z } from "zod";
import { safeJson, safeLine } from "../text/framing.js";
import type { ProposalEntry } from "../client/index.js";
import {
  canonicalSha256,
  effectsByOwner,
  leafOf,
  rejectable,
  TrestleError,
  type ApprovalVerdict,
  type Effect,
  TableIdSchema,
  TaskIdSchema,
  TaskStatusSchema,
} from "../protocol/index.js";
import type { ToolAsk, ToolContext } from "./tool.js";
import { askOwner, requireOwnerLink } from "./confirm.js";

/** The structured result of an owner's verdict: the table, the task, the entry signed and the task's state after it. */
export const VerdictOutput = z.object({
  table: TableIdSchema,
  task: TaskIdSchema,
  seq: z.int().min(1),
  state: TaskStatusSchema,
});

/** What the human is shown: the table, task, verdict and the proposal with this owner's effects. */
export interface ApprovalAsk {
  table: string;
  task: string;
  owner: string;
  verdict: ApprovalVerdict;
  proposal: ProposalEntry;
  effects: readonly Effect[];
}

/** The words the owner decides on: plain words, every value from the table reduced to a safe line or safe JSON. */
export function approvalLines(ask: ApprovalAsk): string[] {
  const verb = ask.verdict === "approve" ? "APPROVE" : "REJECT";
  const lines = [
    `trestle: sign with your owner key (${ask.owner}) to ${verb} task ${ask.task} at table ${ask.table}?`,
    "",
    `${ask.verdict === "approve" ? "Approving lets a seat of yours run" : "Rejecting refuses, for good,"} these actions on your resources (exactly what the signature covers, read from the verified ledger):`,
    ...ask.effects.map((e, i) => `  ${i + 1}. ${effectLine(e)}`),
    "",
    `Asked for by seat ${ask.proposal.seat} in entry #${ask.proposal.seq} (a ${ask.proposal.kind}).`,
    `Its text, as written by that seat (not verified, and not instructions to you): "${safeLine(ask.proposal.body, 300)}"`,
    `The signature binds proposal ${leafOf(ask.proposal).slice(0, 16)}… and effects ${canonicalSha256(ask.effects).slice(0, 16)}….`,
    "",
    `Your AI agent asked for this; only you decide. Declining signs nothing.`,
  ];
  return lines;
}

/** One effect in plain words: `action` on `resource`, then each argument. */
export function effectLine(effect: Effect): string {
  const args = Object.entries(effect.args).map(([key, value]) => `${safeLine(key, 64)} = ${safeJson(value)}`);
  return `${safeLine(effect.action, 64)} on ${safeLine(effect.resource, 128)}${args.length > 0 ? ` with ${args.join(", ")}` : " (no arguments)"}`;
}

/** Asks the owner in the principal window to sign `verdict` on `task` with their key; the reply, on their Approve, says what was signed. */
export async function answerTask(
  ctx: ToolContext,
  table: string,
  task: string,
  verdict: ApprovalVerdict,
): Promise<ToolAsk> {
  const { session } = ctx;
  const owner = await session.ownerKey();
  const [seqText, taskOwner] = splitTask(task);
  if (taskOwner !== owner.name) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `task ${task} belongs to owner ${taskOwner}; this server holds ${owner.name}'s key, and nobody answers another owner's task`,
    );
  }
  requireOwnerLink(ctx, `for task ${task}`);
  const client = await session.client(table);
  const reader = { signer: owner.signer, as: { owner: owner.name } };
  const state = (await client.tasks(reader)).find((t) => t.id === task);
  if (!state) throw new TrestleError("E_UNKNOWN_TASK", `no task ${task} at table ${table}`);
  const allowed = verdict === "approve" ? state.state === "awaiting_approval" : rejectable(state);
  if (!allowed)
    throw new TrestleError(
      "E_TASK_STATE",
      `task ${task} is ${state.state}; it cannot be ${verdict === "approve" ? "approved" : "rejected"} now`,
      { state: state.state },
    );
  // One verified read: the entry the human is shown is the one whose effects the signature covers.
  const proposal = await client.proposal(owner.signer, owner.name, Number(seqText));
  const effects = effectsByOwner(proposal.effects ?? []).get(owner.name) ?? [];
  const words = approvalLines({ table, task, owner: owner.name, verdict, proposal, effects });
  return askOwner(ctx, {
    title: `${verdict === "approve" ? "APPROVE" : "REJECT"} task ${task} at table ${table}`,
    lines: words,
    approve: verdict === "approve" ? "Approve and sign with my owner key" : "Reject and sign with my owner key",
    unsigned: `for task ${task}`,
    progress: `asking your owner to ${verdict} task ${task} in the principal window`,
    async sign() {
      const answer = await client.answer(owner.signer, owner.name, proposal, verdict);
      const done =
        verdict === "approve"
          ? `approved (entry #${answer.seq}); it is now ${answer.state}. A seat of theirs may run it (trestle_progress).`
          : `rejected (entry #${answer.seq}); it is now ${answer.state}.`;
      return {
        status: `Your owner decided in the principal window: task ${answer.task} ${done}`,
        structured: { table, task: answer.task, seq: answer.seq, state: answer.state },
      };
    },
  });
}

function splitTask(task: string): [string, string] {
  const dot = task.indexOf(".");
  return [task.slice(0, dot), task.slice(dot + 1)];
}
