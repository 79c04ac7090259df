/**
 * Tasks (docs/SPEC.md §5.6): a proposal or decision with effects opens one task per affected
 * owner; owner rules may approve it at once. These are the pure rules both the write path and the
 * replay use: task ids, grouping effects by owner, auto-approve matching, and which states accept
 * which moves.
 */
import { leafOf } from "../ledger/chain.js";
import { TrestleError } from "../errors.js";
import { canonicalSha256 } from "../encoding/hash.js";
import { own } from "../encoding/records.js";
import type { SystemDraftOf, UnchainedEntry } from "../schemas/entry.js";
import type { AutoApproveRule, Effect, TaskReason, TaskState, TaskStatus } from "../schemas/task.js";
import type { TableState } from "./state.js";

/** States a task never leaves. */
export const FINAL_TASK_STATES: ReadonlySet<TaskStatus> = new Set(["verified", "rejected", "failed"]);

/** The id of the task `owner`'s effects of the entry at `seq` open. */
export function taskIdOf(seq: number, owner: string): string {
  return `${seq}.${owner}`;
}

/** Effects grouped by owner, owners in order of first appearance, each group in proposal order. */
export function effectsByOwner(effects: readonly Effect[]): Map<string, Effect[]> {
  const groups = new Map<string, Effect[]>();
  for (const effect of effects) {
    const group = groups.get(effect.owner);
    if (group) group.push(effect);
    else groups.set(effect.owner, [effect]);
  }
  return groups;
}

/** Whether `text` matches `pattern`, where `*` matches any run of characters (none included). */
export function globMatch(pattern: string, text: string): boolean {
  const parts = pattern.split("*");
  const first = parts[0]!;
  if (parts.length === 1) return pattern === text;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

/** Whether `rules` (auto_approve or chat_approve) match every one of `effects`, resource and action both. */
export function rulesCover(rules: readonly AutoApproveRule[] | undefined, effects: readonly Effect[]): boolean {
  if (!rules) return false;
  return effects.every((e) => rules.some((r) => globMatch(r.resource, e.resource) && globMatch(r.action, e.action)));
}

/** Whether `owner`'s auto_approve rules cover every one of `effects`; rules count only once the owner signed the config. */
export function autoApproves(state: TableState, owner: string, effects: readonly Effect[]): boolean {
  return state.endorsed.includes(owner) && rulesCover(own(state.config.owners, owner)?.auto_approve, effects);
}

/** The task with id `id`; throws E_UNKNOWN_TASK when this table has none. */
export function taskOf(state: TableState, id: string): TaskState {
  const task = own(state.tasks, id);
  if (!task) throw new TrestleError("E_UNKNOWN_TASK", `no task "${id}" at this table`);
  return task;
}

/** Whether `task` has an executor that left the table (§5.7): another seat of its owner may take it over with progress. */
export function executorLeft(state: TableState, task: TaskState): boolean {
  return task.executor !== null && own(state.seats, task.executor)?.left !== null;
}

/** Whether an owner's rejection still counts: nothing has run yet. */
export function rejectable(task: TaskState): boolean {
  return (
    task.executor === null &&
    (task.state === "awaiting_approval" || task.state === "approved" || task.state === "stalled")
  );
}

type TaskConsequence = SystemDraftOf<"task_opened"> | SystemDraftOf<"task_state">;

const base = (table: string) => ({ table, seat: null, kind: "system" as const, author: null });

/** The task_state draft moving `task` to `state`. */
export function taskStateDraft(
  table: string,
  task: string,
  state: TaskStatus,
  reason: TaskReason,
  cause: number | null,
): SystemDraftOf<"task_state"> {
  return { ...base(table), subkind: "task_state", data: { task, state, reason, cause } };
}

/** The task entries an applied entry causes: tasks opened (and auto-approved), or one transition. */
export function* taskConsequences(state: TableState, entry: UnchainedEntry): Generator<TaskConsequence> {
  const move = (task: string, to: TaskStatus, reason: TaskReason) =>
    taskStateDraft(state.table, task, to, reason, entry.seq);
  switch (entry.kind) {
    case "proposal":
    case "decision": {
      if (!entry.effects) return;
      const proposal = { seq: entry.seq, leaf: leafOf(entry) };
      for (const [owner, effects] of effectsByOwner(entry.effects)) {
        const task = taskIdOf(entry.seq, owner);
        const data = { task, owner, proposal, effects, effects_sha256: canonicalSha256(effects) };
        yield { ...base(state.table), subkind: "task_opened", data };
        if (autoApproves(state, owner, effects)) yield move(task, "approved", "auto_approve");
      }
      return;
    }
    case "approval":
      return yield move(entry.task, entry.verdict === "approve" ? "approved" : "rejected", "approval");
    case "progress":
      if (own(state.tasks, entry.task)?.state !== "running") yield move(entry.task, "running", "progress");
      return;
    case "receipt":
      return yield move(entry.task, "reported", "receipt");
    case "verify":
      return yield move(entry.task, entry.verdict === "pass" ? "verified" : "failed", "verify");
  }
}
