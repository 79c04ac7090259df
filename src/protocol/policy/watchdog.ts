/**
 * The task watchdog (docs/SPEC.md §5.6): an approved or running task with no progress for
 * `watchdog.heartbeat_ms` is marked stalled. The stall is an input entry the relay's alarm
 * submits; admit judges it at the entry's own `ts`, so a replay accepts exactly the stalls that
 * were due then, and a second alarm run finds nothing left to do.
 */
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import type { TaskState } from "../schemas/task.js";
import { isPaused } from "./pause.js";
import type { TableState } from "./state.js";
import { taskOf, taskStateDraft } from "./tasks.js";

/**
 * When the watchdog may stall `task`, or null if it never will in its current state. Nothing
 * stalls while any pause holds (its executor cannot write then; lifting the last pause restarts the clock)
 * or once the ledger holds `maxEntries` entries (the limit admit judges by, §5.4).
 */
export function stallAt(state: TableState, task: TaskState, maxEntries: number = LIMITS.entries): number | null {
  const heartbeat = state.config.watchdog?.heartbeat_ms;
  if (heartbeat === undefined || (task.state !== "approved" && task.state !== "running")) return null;
  if (isPaused(state) || state.seq >= maxEntries) return null;
  return task.since + heartbeat;
}

/** The earliest time any task may stall (when to set the alarm), or null for none. */
export function watchdogDeadline(state: TableState): number | null {
  let earliest: number | null = null;
  for (const task of Object.values(state.tasks)) {
    const at = stallAt(state, task);
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

/** The ids of tasks due to stall at `now`, in opening order. */
export function dueTasks(state: TableState, now: number): string[] {
  return Object.values(state.tasks)
    .filter((t) => {
      const at = stallAt(state, t);
      return at !== null && at <= now;
    })
    .sort((a, b) => a.opened - b.opened || (a.id < b.id ? -1 : 1))
    .map((t) => t.id);
}

/** The draft the alarm submits for a due task. */
export function stalledDraft(state: TableState, task: string): SystemDraftOf<"task_state"> {
  return taskStateDraft(state.table, task, "stalled", "watchdog", null);
}

/** Throws unless `draft` is a watchdog stall of a task that is due at `now` on a ledger limited to `maxEntries`. */
export function checkWatchdog(
  state: TableState,
  draft: SystemDraftOf<"task_state">,
  now: number,
  maxEntries: number,
): void {
  const { task: id, state: to, reason, cause } = draft.data;
  if (to !== "stalled" || reason !== "watchdog" || cause !== null) {
    throw new TrestleError(
      "E_FORBIDDEN",
      "a task_state entry is only ever caused by another entry, or is a watchdog stall",
    );
  }
  const task = taskOf(state, id);
  const at = stallAt(state, task, maxEntries);
  if (at === null || at > now) {
    throw new TrestleError("E_TASK_STATE", `task ${id} is ${task.state} and not due to stall at ${now}`, {
      state: task.state,
    });
  }
}
