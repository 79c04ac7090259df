/**
 * Applying visibility rules (docs/SPEC.md §5.3): which entries a principal may read by content.
 * Owners read everything (decision 0003); a seat without a rule reads everything; a seat always
 * reads its own entries; everyone reads custody entries (§8.4). Authored entries must match the rule's `seats` and `kinds`; system entries
 * have no author and match on kind alone (`decision` for a quorum decision, `system` for the rest).
 * An entry that carries what another entry said is read only with its sources (visibility-sources.ts).
 * Everything else reaches the reader as `{ seq, leaf }`, so its chain check stays complete.
 */
import { own } from "../encoding/records.js";
import type { Principal } from "../schemas/auth.js";
import type { TableConfig } from "../schemas/config.js";
import type { Entry } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type { VisibilityRule, VisibleKind } from "../schemas/visibility.js";
import type { TaskState } from "../schemas/task.js";
import type { DecisionState } from "../policy/state.js";
import { quorumDecisionSource, sourcesOf, taskSource, type ReadContext, type Readable } from "./visibility-sources.js";

export type { ReadContext } from "./visibility-sources.js";

/** The rule for `seat`, or undefined when it reads everything. */
export function ruleOf(config: TableConfig, seat: string): VisibilityRule | undefined {
  return config.visibility ? own(config.visibility, seat) : undefined;
}

/** The kind a rule matches an entry by. */
export function visibleKindOf(entry: Readable): VisibleKind {
  if (entry.kind === "system") return entry.subkind === "decision" ? "decision" : "system";
  return entry.kind;
}

/** Whether `seat` may read `entry` by content. A custody entry is read by everyone: it says which relay's heads count (§8.4). */
export function seatCanRead(config: TableConfig, seat: string, entry: Readable): boolean {
  const rule = ruleOf(config, seat);
  if (!rule || (entry.kind === "system" && entry.subkind === "custody")) return true;
  if (entry.seat === seat) return true;
  if (rule.kinds && !rule.kinds.includes(visibleKindOf(entry))) return false;
  return entry.seat === null || !rule.seats || rule.seats.includes(entry.seat);
}

/** Whether `seat` may read `entry` by content: the entry itself, and every entry it carries what of (decision 0192). */
export function seatCanReadEntry(context: ReadContext, seat: string, entry: Entry): boolean {
  if (!ruleOf(context.config, seat)) return true;
  return (
    seatCanRead(context.config, seat, entry) &&
    sourcesOf(context, entry).every((s) => s !== null && seatCanRead(context.config, seat, s))
  );
}

/** Whether `principal` may read `entry` by content (owners: always). The one check every read path applies. */
export function canRead(context: ReadContext, principal: Principal, entry: Entry): boolean {
  return "owner" in principal || seatCanReadEntry(context, principal.seat, entry);
}

/** Whether `seat` may read a decision in force: a seat's as its decision entry, one by quorum also as a decision by the proposer. */
export function seatCanReadDecision(config: TableConfig, seat: string, decision: DecisionState): boolean {
  if (!decision.by) return seatCanRead(config, seat, { kind: "decision", seat: decision.seat });
  return (
    seatCanRead(config, seat, { kind: "system", subkind: "decision", seat: null }) &&
    seatCanRead(config, seat, quorumDecisionSource(decision.seat))
  );
}

/** Whether `principal` may read the table's tasks: they are made of task_opened and task_state entries, so a seat needs to read system entries. */
function canReadTasks(config: TableConfig, principal: Principal): boolean {
  return (
    "owner" in principal || seatCanRead(config, principal.seat, { kind: "system", subkind: "task_opened", seat: null })
  );
}

/** Whether `principal` may read `task`: the task entries at all, and the entry that opened it. */
export function canReadTask(context: ReadContext, principal: Principal, task: TaskState): boolean {
  if ("owner" in principal || !ruleOf(context.config, principal.seat)) return true;
  const source = taskSource(context, task.id);
  return (
    canReadTasks(context.config, principal) && source !== null && seatCanRead(context.config, principal.seat, source)
  );
}

/** Entries as `principal` reads them: in full where it may, as `{ seq, leaf }` elsewhere. */
export function viewOf(context: ReadContext, principal: Principal, entries: readonly Entry[]): (Entry | HiddenEntry)[] {
  return entries.map((e) => (canRead(context, principal, e) ? e : { seq: e.seq, leaf: e.leaf }));
}
