/**
 * Table memory (docs/MCP.md "trestle_memory"): what a table has settled and who is doing what,
 * derived purely from a verified ledger as one reader sees it. Nothing here is remembered by the
 * server or the model; it is a fold over entries anyone with the same view would compute alike.
 *
 * - topic, and each sub-table opened here with its topic and, once reported, its result;
 * - decisions in force: every `decision` entry and every decision reached by quorum, in order
 *   (decisions are never withdrawn, so all of them are in force, as in the projection prefix);
 * - tasks (assignments): every task opened, with its owner, effects, latest state and executor
 *   (the seat whose `progress` first moved it to running, as the policy's fold records it);
 * - open requests: requests no response answered yet, with who asked whom;
 * - the table's state (closed and why, every owner's pause in force) and how much of the ledger
 *   this reader could see.
 */
import {
  foldControl,
  isEntry,
  pauseHolders,
  type Effect,
  type Entry,
  type HiddenEntry,
  type PauseHolder,
  type PauseState,
  type TaskStatus,
} from "../protocol/index.js";

/** One decision in force. */
export interface MemoryDecision {
  seq: number;
  seat: string;
  body: string;
  refs: string[];
  by: "seat" | "quorum";
}

/** One task: what it asks, where it stands, who runs it. */
export interface MemoryTask {
  id: string;
  owner: string;
  proposal: number;
  effects: Effect[];
  state: TaskStatus;
  executor: string | null;
}

/** A sub-table opened from this table. */
export interface MemorySubtable {
  table: string;
  topic: string;
  opener: string;
  seq: number;
  result: { reason: string; decision: string | null } | null;
}

/** A request nobody has answered yet. */
export interface MemoryRequest {
  request_id: string;
  type: string;
  seat: string;
  to: string[] | null;
  seq: number;
}

/** Everything trestle_memory returns. */
export interface TableMemory {
  table: string | null;
  topic: string | null;
  closed: string | null;
  /** Every owner's pause in force, oldest first, as far as this reader saw the controls. */
  pauses: PauseHolder[];
  subtables: MemorySubtable[];
  decisions: MemoryDecision[];
  tasks: MemoryTask[];
  requests: MemoryRequest[];
  /** Entries in the ledger, and how many of them this reader saw only as leaf hashes. */
  entries: number;
  hidden: number;
}

/** Folds a verified ledger (as one reader sees it) into table memory. */
export function tableMemory(items: readonly (Entry | HiddenEntry)[]): TableMemory {
  const memory: TableMemory = {
    table: null,
    topic: null,
    closed: null,
    pauses: [],
    subtables: [],
    decisions: [],
    tasks: [],
    requests: [],
    entries: items.length,
    hidden: 0,
  };
  const pauses: Record<string, PauseState> = {};
  const tasks = new Map<string, MemoryTask>();
  const requests = new Map<string, MemoryRequest>();
  for (const item of items) {
    if (!isEntry(item)) {
      memory.hidden += 1;
      continue;
    }
    memory.table ??= item.table;
    if (item.kind === "system" && (item.subkind === "table_paused" || item.subkind === "table_resumed"))
      foldControl(pauses, item);
    apply(memory, tasks, requests, item);
  }
  memory.pauses = pauseHolders(pauses);
  memory.tasks = [...tasks.values()];
  memory.requests = [...requests.values()];
  return memory;
}

function apply(
  memory: TableMemory,
  tasks: Map<string, MemoryTask>,
  requests: Map<string, MemoryRequest>,
  entry: Entry,
): void {
  switch (entry.kind) {
    case "system":
      return applySystem(memory, tasks, entry);
    case "decision":
      memory.decisions.push({ seq: entry.seq, seat: entry.seat, body: entry.body, refs: entry.refs ?? [], by: "seat" });
      return;
    case "progress": {
      const task = tasks.get(entry.task);
      if (task) task.executor ??= entry.seat;
      return;
    }
    case "request":
      requests.set(entry.request_id, {
        request_id: entry.request_id,
        type: entry.type,
        seat: entry.seat,
        to: entry.to ?? null,
        seq: entry.seq,
      });
      return;
    case "response":
      requests.delete(entry.request_id);
      return;
    default:
      return;
  }
}

function applySystem(
  memory: TableMemory,
  tasks: Map<string, MemoryTask>,
  entry: Extract<Entry, { kind: "system" }>,
): void {
  switch (entry.subkind) {
    case "table_opened":
      memory.topic = entry.data.config.topic;
      return;
    case "table_closed":
      memory.closed = entry.data.reason;
      return;
    case "decision":
      memory.decisions.push({
        seq: entry.seq,
        seat: entry.data.seat,
        body: entry.data.body,
        refs: entry.data.refs ?? [],
        by: "quorum",
      });
      return;
    case "task_opened": {
      const { task, owner, proposal, effects } = entry.data;
      tasks.set(task, { id: task, owner, proposal: proposal.seq, effects, state: "awaiting_approval", executor: null });
      return;
    }
    case "task_state": {
      const task = tasks.get(entry.data.task);
      if (task) task.state = entry.data.state;
      return;
    }
    case "subtable_opened":
      memory.subtables.push({
        table: entry.data.config.id,
        topic: entry.data.config.topic,
        opener: entry.data.opener,
        seq: entry.seq,
        result: null,
      });
      return;
    case "subtable_result": {
      const sub = memory.subtables.find((s) => s.table === entry.data.table);
      if (sub) sub.result = { reason: entry.data.reason, decision: entry.data.decision?.body ?? null };
      return;
    }
    default:
      return;
  }
}
