/**
 * The authored entries behind an entry, for visibility (docs/SPEC.md §5.3, decision 0192). Some
 * entries carry or reveal what an authored entry said: a task_opened its proposal's effects, a
 * task's task_state entries and approvals that task, a decision by quorum its proposal's body, a
 * subtable_result the child's decision, a subtable_opened its opener's config. A seat with a rule
 * reads such an entry only if it may also read each source, judged by the source's author and the
 * kind it is carried as.
 */
import { own } from "../encoding/records.js";
import type { TableState } from "../policy/state.js";
import type { Entry } from "../schemas/entry.js";

/** What a rule looks at: an entry's kind (and subkind), and its author seat (null for system entries). */
export interface Readable {
  kind: Entry["kind"];
  subkind?: string;
  seat: string | null;
}

/** What visibility reads besides the entry: the config's rules, the tasks, and the entries that opened them. */
export type ReadContext = Pick<TableState, "config" | "tasks" | "origins">;

/** How a decision by quorum on `proposer`'s proposal is judged: as a decision that seat wrote. */
export function quorumDecisionSource(proposer: string): Readable {
  return { kind: "decision", seat: proposer };
}

/** The entry that opened the task with id `task`, as a rule judges it; null when unknown (nobody with a rule reads it). */
export function taskSource(context: ReadContext, task: string): Readable | null {
  const opened = own(context.tasks, task);
  return opened ? proposalSource(context, opened.proposal.seq) : null;
}

/** The sources of `entry` (empty for an entry that carries nothing of another); null marks one that is unknown. */
export function sourcesOf(context: ReadContext, entry: Entry): (Readable | null)[] {
  if (entry.kind === "approval") return [taskSource(context, entry.task)];
  if (entry.kind !== "system") return [];
  switch (entry.subkind) {
    case "task_opened":
      return [proposalSource(context, entry.data.proposal.seq)];
    case "task_state":
      return [taskSource(context, entry.data.task)];
    case "decision":
      return [quorumDecisionSource(entry.data.seat)];
    case "subtable_result":
      return entry.data.decision ? [{ kind: "decision", seat: entry.data.decision.seat }] : [];
    case "subtable_opened":
      return [{ kind: "system", seat: entry.data.opener }];
    default:
      return [];
  }
}

function proposalSource(context: ReadContext, seq: number): Readable | null {
  const origin = own(context.origins, String(seq));
  return origin ? { kind: origin.kind, seat: origin.seat } : null;
}
