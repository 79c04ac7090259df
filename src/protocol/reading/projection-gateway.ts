/**
 * What a seat's model reads of the commit gateway (docs/SPEC.md §7): approvals and task entries
 * without hashes or signatures, the task or request an authored entry belongs to, and the open
 * tasks. Open tasks sit outside the cached prefix: they change with every transition.
 */
import { LIMITS } from "../limits/limits.js";
import { FINAL_TASK_STATES } from "../policy/tasks.js";
import type { TableState } from "../policy/state.js";
import type { ApprovalEntry, Entry, SystemEntryOf } from "../schemas/entry.js";
import type { ProjectedEntry, ProjectedTask } from "../schemas/projection.js";
import type { TaskState } from "../schemas/task.js";

/** An approval as a model reads it: who answered which task, how. */
export function projectApproval(entry: ApprovalEntry): ProjectedEntry {
  const data: Record<string, unknown> = { owner: entry.owner, task: entry.task, verdict: entry.verdict };
  if (entry.via !== undefined) data.via = entry.via;
  return { seq: entry.seq, kind: "approval", data };
}

/** The gateway fields of an authored entry (effects, task, verdict, request), or undefined for none. */
export function gatewayData(
  entry: Exclude<Entry, { kind: "system" } | { kind: "approval" }>,
): Record<string, unknown> | undefined {
  switch (entry.kind) {
    case "proposal":
    case "decision":
      return entry.effects ? { effects: entry.effects } : undefined;
    case "progress":
      return { task: entry.task };
    case "receipt":
      return entry.result ? { task: entry.task, result: entry.result } : { task: entry.task };
    case "verify":
      return { task: entry.task, verdict: entry.verdict };
    case "request":
      return { request_id: entry.request_id, type: entry.type };
    case "response":
      return entry.verdict
        ? { request_id: entry.request_id, type: entry.type, verdict: entry.verdict }
        : { request_id: entry.request_id, type: entry.type };
    default:
      return undefined;
  }
}

/** A task_opened entry's data without its hashes. */
export function taskOpenedData(entry: SystemEntryOf<"task_opened">): Record<string, unknown> {
  const { task, owner, proposal, effects } = entry.data;
  return { task, owner, proposal: proposal.seq, effects };
}

/** The tasks not yet verified, rejected or failed that `visible` lets the reader see, oldest first, at most LIMITS.page. */
export function openTasks(state: TableState, visible: (task: TaskState) => boolean): ProjectedTask[] {
  return Object.values(state.tasks)
    .filter((t) => !FINAL_TASK_STATES.has(t.state) && visible(t))
    .sort((a, b) => a.opened - b.opened)
    .slice(0, LIMITS.page)
    .map((t) => ({ id: t.id, owner: t.owner, state: t.state, proposal: t.proposal.seq, executor: t.executor }));
}
