/**
 * Chat approvals (docs/SPEC.md §5.6): a tap on an approve/reject button in Telegram, LINE or
 * Discord becomes a relay-attested `approval` entry (`via` names the app, `author: null`). The
 * binding ("this tap came from the owner's bound account") is the relay's word; everything else is
 * policy, judged here from the ledger alone, so a replay checks it: a relay-attested approve counts
 * only when the owner signed the config (like auto_approve, decision 0131) and their `chat_approve`
 * rules match every effect of the task. A relay-attested reject needs no rule: it is the safe
 * direction (decision 0174).
 */
import { TrestleError } from "../errors.js";
import { own } from "../encoding/records.js";
import type { TableConfig } from "../schemas/config.js";
import type { ApprovalDraft } from "../schemas/entry.js";
import type { ApprovalVerdict, ApprovalVia, ChatRefusal, Effect } from "../schemas/task.js";
import type { TableState } from "./state.js";
import { rulesCover, taskOf } from "./tasks.js";

/** Whether `owner`'s chat_approve rules in `config` match every one of a new task's `effects`. */
export function chatCovers(config: TableConfig, owner: string, effects: readonly Effect[]): boolean {
  return rulesCover(own(config.owners, owner)?.chat_approve, effects);
}

/** Why a tap could not approve `owner`'s task `task` now, or null when it could. */
export function chatRefusal(state: TableState, owner: string, task: string): ChatRefusal | null {
  if (!own(state.config.owners, owner)?.chat_approve) return "no_rules";
  if (!state.endorsed.includes(owner)) return "not_endorsed";
  if (!own(state.chat_covered, task)) return "not_covered";
  return null;
}

/** Throws unless a relay-attested approval (`via`, no author) may stand; the owner, task and state checks are checkApproval's. */
export function checkChatApproval(state: TableState, draft: ApprovalDraft): void {
  if (draft.verdict === "reject") return;
  const refusal = chatRefusal(state, draft.owner, draft.task);
  if (refusal !== null) {
    throw new TrestleError(
      "E_NEEDS_SIGNATURE",
      `${MESSAGES[refusal](draft.owner)}; approve task ${draft.task} with the owner key`,
      {
        reason: refusal,
        owner: draft.owner,
        task: draft.task,
      },
    );
  }
}

const MESSAGES: Record<ChatRefusal, (owner: string) => string> = {
  no_rules: (owner) => `${owner}'s config lists no chat_approve rules`,
  not_endorsed: (owner) => `${owner}'s chat_approve rules count only once ${owner} signed the table's config`,
  not_covered: (owner) => `${owner}'s chat_approve rules do not match every effect of this task`,
};

/**
 * The relay-attested approval of task `task` by its owner from chat app `via`: bound, like a signed
 * approval, to the task's proposal leaf and effects hash; `nonce` comes from the platform's event id.
 */
export function chatApprovalDraft(
  state: TableState,
  fields: { task: string; verdict: ApprovalVerdict; via: ApprovalVia; nonce: string },
): ApprovalDraft {
  const task = taskOf(state, fields.task);
  return {
    table: state.table,
    task: task.id,
    proposal: task.proposal.leaf,
    effects_sha256: task.effects_sha256,
    verdict: fields.verdict,
    nonce: fields.nonce,
    seat: null,
    kind: "approval",
    owner: task.owner,
    via: fields.via,
    author: null,
  };
}
