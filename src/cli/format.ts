/**
 * Human renderings shared by the commands: one line per ledger entry (`[#15] judge decision: …`),
 * a verification report with its coverage, and short head references.
 */
import { isEntry, projectEntry, type Entry, type HiddenEntry, type ProjectedEntry, type SignedHead, type VerifyReport } from "../protocol/index.js";
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
  if (e.kind === "system") return `${seq} ${c.dim(systemText(e.subkind ?? "", e.data ?? {}))}`;
  const to = e.to ? ` → ${e.to.join(", ")}` : "";
  const body = e.body ? `: ${e.body}` : "";
  const more = e.more ? c.dim(` … (${e.more})`) : "";
  const cut = e.truncated ? c.yellow(" (truncated by the relay)") : "";
  return `${seq} ${c.cyan(e.seat ?? "?")} ${c.bold(e.kind)}${to}${body}${more}${cut}`;
}

function systemText(subkind: string, data: Record<string, unknown>): string {
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
