/**
 * Task states as a reader sees them go by (docs/SPEC.md §5.6): a fold over verified entries, as
 * a socket or a history read delivers them, of `task_opened` and `task_state`. It tells a live
 * session which tasks wait for which owner and when every task has reached a final state, without
 * another request. Entries the reader may not read (hidden) carry no task and are skipped.
 */
import {
  FINAL_TASK_STATES,
  isEntry,
  type Effect,
  type Entry,
  type HiddenEntry,
  type TaskStatus,
} from "../protocol/index.js";

/** One move of a task: it was opened (`awaiting_approval`) or changed state, at entry `seq`. */
export interface TaskMove {
  seq: number;
  task: string;
  owner: string;
  state: TaskStatus;
  /** The effects of the task, on the move that opened it. */
  effects?: Effect[];
}

/** The tasks seen so far and their latest states. */
export class TaskLog {
  private readonly tasks = new Map<string, { owner: string; state: TaskStatus }>();

  /** Folds `items` (in seq order); returns the moves they hold, in order. */
  accept(items: readonly (Entry | HiddenEntry)[]): TaskMove[] {
    const moves: TaskMove[] = [];
    for (const item of items) {
      if (!isEntry(item) || item.kind !== "system") continue;
      if (item.subkind === "task_opened") {
        const { task, owner, effects } = item.data;
        this.tasks.set(task, { owner, state: "awaiting_approval" });
        moves.push({ seq: item.seq, task, owner, state: "awaiting_approval", effects });
      } else if (item.subkind === "task_state") {
        const known = this.tasks.get(item.data.task);
        if (!known) continue;
        known.state = item.data.state;
        moves.push({ seq: item.seq, task: item.data.task, owner: known.owner, state: item.data.state });
      }
    }
    return moves;
  }

  /** The latest state of `task`, or undefined if it has not been seen. */
  stateOf(task: string): TaskStatus | undefined {
    return this.tasks.get(task)?.state;
  }

  /** Ids of the tasks seen that are not yet verified, rejected or failed. */
  open(): string[] {
    return [...this.tasks].filter(([, t]) => !FINAL_TASK_STATES.has(t.state)).map(([id]) => id);
  }
}
