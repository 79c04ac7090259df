/**
 * Judging commit-gateway writes (docs/SPEC.md §5.6): effects name owners of the table; an owner's
 * approval is signed by that owner's key (or relay-attested from a chat app where the owner's
 * chat_approve rules allow, chat-approve.ts) and bound to exactly the task's proposal and effects;
 * only a seat of the task's owner executes (first `progress` makes it the executor), only the
 * executor reports, and only another seat verifies. Each refusal has its own code.
 */
import { TrestleError } from "../errors.js";
import { canonicalSha256 } from "../encoding/hash.js";
import { own } from "../encoding/records.js";
import type { ApprovalDraft, AuthoredDraft, EntryDraft, SystemDraftOf } from "../schemas/entry.js";
import type { Effect, TaskState, TaskStatus } from "../schemas/task.js";
import { checkChatApproval } from "./chat-approve.js";
import { checkRequest, checkResponse } from "./exchanges.js";
import type { TableState } from "./state.js";
import { executorLeft, rejectable, taskOf } from "./tasks.js";

/** Throws the refusal for the gateway part of an authored draft (already checked by checkAuthored). */
export function checkGateway(state: TableState, draft: AuthoredDraft): void {
  switch (draft.kind) {
    case "proposal":
    case "decision":
      return draft.effects ? checkEffects(state, draft.effects) : undefined;
    case "progress": {
      const task = taskOf(state, draft.task);
      checkExecutor(state, task, draft.seat, true);
      return expectState(task, ["approved", "running", "stalled"], "progress");
    }
    case "receipt": {
      const task = taskOf(state, draft.task);
      checkExecutor(state, task, draft.seat, false);
      if (task.executor === null) throw stateError(task, "receipt", "it has not run yet");
      return expectState(task, ["running", "stalled"], "receipt");
    }
    case "verify": {
      const task = taskOf(state, draft.task);
      if (task.executor === draft.seat)
        throw new TrestleError("E_SELF_VERIFY", `${draft.seat} ran task ${task.id}; another seat verifies it`);
      return expectState(task, ["reported"], "verify");
    }
    case "request":
      return checkRequest(state, draft);
    case "response":
      return checkResponse(state, draft);
  }
}

/**
 * Throws unless `draft` is the task owner's approval of exactly that task's proposal and effects:
 * signed with the owner's key, or relay-attested from a chat app where `chat_approve` allows it.
 */
export function checkApproval(state: TableState, draft: ApprovalDraft): void {
  const owner = own(state.config.owners, draft.owner);
  if (!owner) throw new TrestleError("E_NOT_OWNER", `"${draft.owner}" is not an owner of this table`);
  if (draft.via !== undefined) {
    if (draft.author !== null)
      throw new TrestleError("E_SCHEMA", "an approval is relay-attested (via) exactly when it carries no signature");
  } else if (draft.author === null || draft.author.key !== owner.public_key) {
    throw new TrestleError("E_BAD_SIGNATURE", `an approval is signed with ${draft.owner}'s owner key`);
  }
  const task = taskOf(state, draft.task);
  if (task.owner !== draft.owner) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `task ${task.id} touches ${task.owner}'s resources; only ${task.owner} approves it`,
    );
  }
  if (draft.proposal !== task.proposal.leaf) {
    throw new TrestleError(
      "E_APPROVAL_MISMATCH",
      `the approval names another proposal than entry ${task.proposal.seq}`,
      {
        proposal: task.proposal,
      },
    );
  }
  if (draft.effects_sha256 !== task.effects_sha256) {
    throw new TrestleError("E_APPROVAL_MISMATCH", `the approval covers other effects than task ${task.id} carries`, {
      effects_sha256: task.effects_sha256,
    });
  }
  if (draft.verdict === "approve") expectState(task, ["awaiting_approval"], "approval");
  else if (!rejectable(task)) throw stateError(task, "rejection", "execution has started or the task is final");
  // Chat approvals (§5.6): a relay-attested approval also needs the owner's chat_approve rules.
  if (draft.via !== undefined) checkChatApproval(state, draft);
}

/** Throws unless a join's optional config hash is this table's config (the owner signs the rules it lives by). */
export function checkEndorsement(state: TableState, draft: SystemDraftOf<"seat_joined">): void {
  const signed = draft.data.join.config_sha256;
  if (signed !== undefined && signed !== canonicalSha256(state.config)) {
    throw new TrestleError("E_WRONG_TABLE", "the join signs another config than this table's");
  }
}

/** Whether `draft` is task work, which a closed table still accepts while its ledger holds fewer than `maxEntries` entries. */
export function worksAfterClose(state: TableState, draft: EntryDraft, maxEntries: number): boolean {
  const taskWork =
    draft.kind === "approval" ||
    draft.kind === "progress" ||
    draft.kind === "receipt" ||
    draft.kind === "verify" ||
    (draft.kind === "system" && draft.subkind === "task_state");
  return taskWork && state.seq < maxEntries;
}

function checkEffects(state: TableState, effects: readonly Effect[]): void {
  effects.forEach((effect, i) => {
    if (!own(state.config.owners, effect.owner)) {
      throw new TrestleError("E_NOT_OWNER", `effects[${i}].owner "${effect.owner}" is not an owner of this table`);
    }
  });
}

/** Throws unless `seat` may run (or report) `task`: a seat of its owner, and its executor unless `takeOver` and the executor left. */
function checkExecutor(state: TableState, task: TaskState, seat: string, takeOver: boolean): void {
  const owner = own(state.seats, seat)?.owner;
  if (owner !== task.owner)
    throw new TrestleError("E_NOT_EXECUTOR", `task ${task.id} is run by a seat of ${task.owner}`);
  if (task.executor === null || task.executor === seat || (takeOver && executorLeft(state, task))) return;
  throw new TrestleError("E_NOT_EXECUTOR", `task ${task.id} is run by ${task.executor}`, { executor: task.executor });
}

function expectState(task: TaskState, allowed: readonly TaskStatus[], what: string): void {
  if (!allowed.includes(task.state)) throw stateError(task, what, `it must be ${allowed.join(" or ")}`);
}

function stateError(task: TaskState, what: string, why: string): TrestleError {
  return new TrestleError("E_TASK_STATE", `task ${task.id} is ${task.state}; a ${what} is refused: ${why}`, {
    state: task.state,
  });
}
