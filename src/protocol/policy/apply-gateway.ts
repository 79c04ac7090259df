/**
 * The commit gateway's part of the fold (docs/SPEC.md §5.6): tasks open and move only on
 * task_opened and task_state entries; a `progress` entry names its executor and restarts the
 * watchdog's clock, as lifting a table's last pause does; requests open and resolve; an owner's
 * endorsing join makes its rules count; a task its owner's chat_approve rules cover is recorded.
 */
import { own } from "../encoding/records.js";
import type { JoinStatement } from "../schemas/join.js";
import type { SystemEntryOf, UnchainedEntry } from "../schemas/entry.js";
import { chatCovers } from "./chat-approve.js";
import { executorLeft } from "./tasks.js";
import { applyRequestEntry } from "./exchanges.js";
import type { TableState } from "./state.js";

type TaskEntry =
  | Pick<SystemEntryOf<"task_opened">, "subkind" | "data" | "seq" | "ts">
  | Pick<SystemEntryOf<"task_state">, "subkind" | "data" | "seq" | "ts">;

/** Applies a task_opened or task_state entry; mutates `state`. */
export function applyTaskEntry(state: TableState, entry: TaskEntry): void {
  if (entry.subkind === "task_opened") {
    const { task, owner, proposal, effects_sha256 } = entry.data;
    state.tasks[task] = {
      id: task,
      owner,
      proposal,
      effects_sha256,
      state: "awaiting_approval",
      since: entry.ts,
      executor: null,
      opened: entry.seq,
    };
    if (chatCovers(state.config, owner, entry.data.effects)) state.chat_covered[task] = true;
    return;
  }
  const task = own(state.tasks, entry.data.task);
  if (!task) return;
  task.state = entry.data.state;
  task.since = entry.ts;
}

/** Applies the gateway side of an authored entry (effects, progress, request, response); mutates `state`. */
export function applyGatewayAuthored(state: TableState, entry: UnchainedEntry): void {
  if ((entry.kind === "proposal" || entry.kind === "decision") && entry.effects) {
    state.origins[String(entry.seq)] = { seat: entry.seat, kind: entry.kind };
  }
  if (entry.kind === "progress") {
    const task = own(state.tasks, entry.task);
    if (!task) return;
    // The first progress names the executor; another seat of the owner takes over from one that left.
    if (task.executor === null || executorLeft(state, task)) task.executor = entry.seat;
    task.since = entry.ts;
    return;
  }
  applyRequestEntry(state, entry);
}

/** When the last pause is lifted, every watched task's watchdog clock starts again at `ts` (the pauses kept its executor from writing). */
export function restartTaskClocks(state: TableState, ts: number): void {
  for (const task of Object.values(state.tasks))
    if (task.state === "approved" || task.state === "running") task.since = ts;
}

/** Records that a join's owner signed this table's config (admit checked the hash). */
export function applyEndorsement(state: TableState, join: JoinStatement): void {
  if (join.config_sha256 !== undefined && !state.endorsed.includes(join.owner)) state.endorsed.push(join.owner);
}
