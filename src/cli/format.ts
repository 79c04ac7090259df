/**
 * Human renderings shared by the commands: one line per ledger entry (`[#15] judge decision: …`,
 * task moves and approvals included), effects as `owner: action on resource {args}`, tasks, a
 * verification report with its coverage, and short head references.
 */
import {
  canonicalize,
  isEntry,
  projectEntry,
  type Effect,
  type Entry,
  type HiddenEntry,
  type ProjectedEntry,
  type SignedHead,
  type TaskState,
  type VerifyReport,
} from "../protocol/index.js";
import type { Styles } from "./output.js";

/** `#seq link…` of a head. */
export function headRef(head: SignedHead): string {
  return `#${head.seq} ${head.link.slice(0, 12)}…`;
}

/** One ledger entry (or a hidden one) as a line. */
export function entryLine(item: Entry | HiddenEntry, c: Styles): string {
  return isEntry(item) ? projectedLine(projectEntry(item), c) : `${c.dim(`[#${item.seq}]`)} ${c.dim("(hidden from this reader)")}`;
}

/** One projected entry as a line. */
export function projectedLine(e: ProjectedEntry, c: Styles): string {
  const seq = c.dim(`[#${e.seq}]`);
  if (e.kind === "system") return `${seq} ${c.dim(systemText(e.subkind ?? "", e.data ?? {}, e.body))}`;
  if (e.kind === "approval") {
    const data = e.data ?? {};
    const via = data.via ? ` (via ${String(data.via)})` : " (signed with the owner key)";
    return `${seq} ${c.cyan(`owner ${String(data.owner)}`)} ${c.bold(`${String(data.verdict)}s`)} task ${String(data.task)}${via}`;
  }
  const to = e.to ? ` → ${e.to.join(", ")}` : "";
  const about = gatewayText(e);
  const body = e.body ? `: ${e.body}` : "";
  const more = e.more ? c.dim(` … (${e.more})`) : "";
  const cut = e.truncated ? c.yellow(" (truncated by the relay)") : "";
  const effects = Array.isArray(e.data?.effects) ? (e.data.effects as Effect[]).map((x) => c.yellow(`\n      effect ${effectText(x)}`)).join("") : "";
  return `${seq} ${c.cyan(e.seat ?? "?")} ${c.bold(e.kind)}${about}${to}${body}${more}${cut}${effects}`;
}

/** An effect as `owner: action on resource {args}` (args omitted when empty). */
export function effectText(effect: Effect): string {
  const args = Object.keys(effect.args).length > 0 ? ` ${canonicalize(effect.args)}` : "";
  return `${effect.owner}: ${effect.action} on ${effect.resource}${args}`;
}

/** A task as one line: id, state, executor and the entry that opened it. */
export function taskLine(task: TaskState, c: Styles): string {
  const colour = task.state === "verified" ? c.green : task.state === "rejected" || task.state === "failed" || task.state === "stalled" ? c.red : c.yellow;
  return `${c.bold(task.id)}  ${colour(task.state)}  owner ${task.owner}, executor ${task.executor ?? "-"}, opened by #${task.proposal.seq}`;
}

/** The task (and vote or verdict) an authored entry is about, as text after its kind. */
function gatewayText(e: ProjectedEntry): string {
  const data = e.data ?? {};
  if (e.kind === "vote") return ` ${e.choice ?? "?"} on #${e.re ?? "?"}`;
  if (typeof data.task !== "string") return "";
  return e.kind === "verify" ? ` ${String(data.verdict)} on task ${data.task}` : ` on task ${data.task}`;
}

function systemText(subkind: string, data: Record<string, unknown>, body: string | undefined): string {
  switch (subkind) {
    case "table_opened":
      return `table opened by ${String(data.creator)}: ${String(data.topic)}`;
    case "seat_joined":
      return `${String(data.seat)} joined (owner ${String(data.owner)}${data.human ? ", human" : ""})`;
    case "seat_left":
      return `${String(data.seat)} left (${String(data.reason)})`;
    case "floor":
      return data.holder === null ? `floor is free (round ${String(data.round)})` : `floor → ${String(data.holder)} (round ${String(data.round)}, ${String(data.reason)})`;
    case "table_closed":
      return `table closed (${String(data.reason)})`;
    case "task_opened":
      return `task ${String(data.task)} opened for ${String(data.owner)} by #${String(data.proposal)}`;
    case "task_state":
      return `task ${String(data.task)} → ${String(data.state)} (${String(data.reason)}${data.cause === null ? "" : ` #${String(data.cause)}`})`;
    case "table_paused":
    case "table_resumed":
      return `table ${subkind === "table_paused" ? "paused" : "resumed"} by ${String(data.owner)} (${String(data.via)})`;
    case "decision":
      return `decision by quorum on #${String(data.proposal)} (${String(data.yes)} yes of ${String(data.electorate)}): ${body ?? ""}`;
    case "subtable_opened":
      return `sub-table ${String(data.table)} opened by ${String(data.opener)}: ${String(data.topic)}`;
    case "subtable_result":
      return `sub-table ${String(data.table)} closed (${String(data.reason)})${body ? `: ${body}` : ""}`;
    default:
      return `${subkind} ${JSON.stringify(data)}`;
  }
}

/** A verification report: verdict, what was refuted or left unchecked, and the coverage. */
export function reportLines(report: VerifyReport, c: Styles): string[] {
  const colour = report.verdict === "CLEAN" ? c.green : report.verdict === "REFUTED" ? c.red : c.yellow;
  const lines = [`${c.bold(colour(report.verdict))}  table ${report.table ?? "?"}, ${report.last_seq} entries`];
  if (report.refuted) {
    const where = report.refuted.seq !== null ? `entry #${report.refuted.seq}` : `line ${report.refuted.line ?? "?"}`;
    lines.push(`  refuted at ${where}: ${report.refuted.reason}`);
  }
  for (const item of report.unchecked) lines.push(`  not checked: ${item}`);
  const v = report.coverage;
  lines.push(
    c.dim(
      `  coverage: ${v.by_content}/${v.entries} by content, ${v.by_hash} by hash, ${v.signatures} signatures, ` +
        `${v.heads} heads (newest #${v.head_seq ?? "-"}), truncated ${v.truncated_checked} checked / ${v.truncated_unchecked} not, ` +
        `relay key ${v.relay_key_pinned ? "pinned" : "NOT pinned"}, policy replay ${v.policy_replay}`,
    ),
  );
  return lines;
}
