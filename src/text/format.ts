/**
 * Human renderings shared by the CLI commands, the MCP tools, the principal window and the demo: one line per ledger entry (`[#15] judge decision: …`,
 * task moves and approvals included), effects as `owner: action on resource {args}`, tasks, a
 * verification report with its coverage, a chat channel's health, and short head references. What seats and the relay
 * wrote is untrusted and goes through the inbound framing's reductions (src/text/framing.ts):
 * names, topics and reasons become one safe line, a body's further lines are each marked
 * `      | `, and structured values are escaped JSON, so nothing printed can pass for another
 * entry or reach the terminal as an escape sequence.
 */
import { bodyLines, safeJson, safeLine } from "./framing.js";
import {
  CHAT_PLATFORM_NAMES,
  ControlViaSchema,
  holdersText,
  isEntry,
  viaText,
  type AttemptRecord,
  type ChannelHealth,
  projectEntry,
  type Effect,
  type Entry,
  type HiddenEntry,
  type PauseHolder,
  type ProjectedEntry,
  type SignedHead,
  type TaskState,
  type VerifyReport,
} from "../protocol/index.js";
import type { Styles } from "./styles.js";
import { roomText } from "./commitment.js";
import { moneyText } from "./terms.js";

/** `#seq link…` of a head. */
export function headRef(head: SignedHead): string {
  return `#${head.seq} ${head.link.slice(0, 12)}…`;
}

/** One ledger entry (or a hidden one) as a line. */
export function entryLine(item: Entry | HiddenEntry, c: Styles): string {
  return isEntry(item)
    ? projectedLine(projectEntry(item), c)
    : `${c.dim(`[#${item.seq}]`)} ${c.dim("(hidden from this reader)")}`;
}

/** One projected entry: its line, then each further line of its body marked `      | `, then its effects. */
export function projectedLine(e: ProjectedEntry, c: Styles): string {
  const seq = c.dim(`[#${e.seq}]`);
  if (e.kind === "system") {
    const body = e.body && BODY_SUBKINDS.has(e.subkind ?? "") ? `: ${bodyText(e.body)}` : "";
    return `${seq} ${c.dim(oneLine(systemText(e.subkind ?? "", e.data ?? {})))}${body}`;
  }
  if (e.kind === "approval") {
    const data = e.data ?? {};
    const via = data.via ? ` (via ${oneLine(data.via)})` : " (signed with the owner key)";
    return `${seq} ${c.cyan(`owner ${oneLine(data.owner)}`)} ${c.bold(`${oneLine(data.verdict)}s`)} task ${oneLine(data.task)}${via}`;
  }
  const to = e.to ? ` → ${e.to.join(", ")}` : "";
  const about = gatewayText(e) || roomText(e);
  const body = e.body ? `: ${bodyText(e.body)}` : "";
  const more = e.more ? c.dim(` … (${oneLine(e.more)})`) : "";
  const cut = e.truncated ? c.yellow(" (truncated by the relay)") : "";
  const effects = Array.isArray(e.data?.effects)
    ? (e.data.effects as Effect[]).map((x) => c.yellow(`\n      effect ${effectText(x)}`)).join("")
    : "";
  return `${seq} ${c.cyan(oneLine(e.seat ?? "?"))} ${c.bold(oneLine(e.kind))}${about}${to}${body}${more}${cut}${effects}`;
}

/** An effect as `owner: action on resource {args}` (args omitted when empty, escaped JSON otherwise). */
export function effectText(effect: Effect): string {
  const args = Object.keys(effect.args).length > 0 ? ` ${safeJson(effect.args)}` : "";
  return `${oneLine(`${effect.owner}: ${effect.action} on ${effect.resource}`)}${args}`;
}

/** System entries whose body (a decision's text) is printed after their line. */
const BODY_SUBKINDS: ReadonlySet<string> = new Set(["decision", "subtable_result"]);

/** A body: its first line as is, each further one on a line of its own marked as the body's. */
export function bodyText(body: string): string {
  return bodyLines(body).join("\n      | ");
}

/** Any value as one safe line (no control, format or line-breaking character), long enough for a topic. */
export function oneLine(value: unknown): string {
  return safeLine(String(value), 1000);
}

/** A task as one line: id, state, executor and the entry that opened it. */
export function taskLine(task: TaskState, c: Styles): string {
  const colour =
    task.state === "verified"
      ? c.green
      : task.state === "rejected" || task.state === "failed" || task.state === "stalled"
        ? c.red
        : c.yellow;
  return `${c.bold(task.id)}  ${colour(task.state)}  owner ${task.owner}, executor ${task.executor ?? "-"}, opened by #${task.proposal.seq}`;
}

/** The task, vote or request (and verdict) an authored entry is about, as text after its kind (with a leading space; "" when none). */
export function gatewayText(e: ProjectedEntry): string {
  const data = e.data ?? {};
  if (e.kind === "vote") return ` ${e.choice ?? "?"} on #${e.re ?? "?"}`;
  if (typeof data.request_id === "string")
    return ` ${oneLine(data.type)} ${oneLine(data.request_id)}${data.verdict === undefined ? "" : `: ${oneLine(data.verdict)}`}`;
  if (typeof data.task !== "string") return "";
  return e.kind === "verify"
    ? ` ${oneLine(data.verdict)} on task ${oneLine(data.task)}`
    : ` on task ${oneLine(data.task)}`;
}

/** A system entry's line, its body (for BODY_SUBKINDS) left out. */
export function systemText(subkind: string, data: Record<string, unknown>): string {
  switch (subkind) {
    case "table_opened":
      return `table opened by ${String(data.creator)}: ${String(data.topic)}`;
    case "seat_joined":
      return `${String(data.seat)} joined (owner ${String(data.owner)}${data.human ? ", human" : ""})`;
    case "seat_left":
      return `${String(data.seat)} left (${String(data.reason)})`;
    case "floor":
      return data.holder === null
        ? `floor is free (round ${String(data.round)})`
        : `floor → ${String(data.holder)} (round ${String(data.round)}, ${String(data.reason)})`;
    case "table_closed":
      return `table closed (${String(data.reason)})`;
    case "task_opened":
      return `task ${String(data.task)} opened for ${String(data.owner)} by #${String(data.proposal)}`;
    case "task_state":
      return `task ${String(data.task)} → ${String(data.state)} (${String(data.reason)}${data.cause === null ? "" : ` #${String(data.cause)}`})`;
    case "table_paused":
      return `${String(data.owner)} paused the table (${controlVia(data.via)})`;
    case "table_resumed":
      return `${String(data.owner)} lifted their own pause (${controlVia(data.via)})`;
    case "decision":
      return `decision by quorum on #${String(data.proposal)} (${String(data.yes)} yes of ${String(data.electorate)})`;
    case "subtable_opened":
      return `sub-table ${String(data.table)} opened by ${String(data.opener)}: ${String(data.topic)}`;
    case "subtable_result":
      return `sub-table ${String(data.table)} closed (${String(data.reason)})`;
    case "invite_issued":
      return `invite ${String(data.invite).slice(0, 8)}… issued by ${String(data.by)}, until ${new Date(Number(data.expires)).toISOString()}${data.replaces === undefined ? "" : ` (replacing ${String(data.replaces).slice(0, 8)}…)`}`;
    case "seat_ejected":
      return `${String(data.seat)} ejected by ${String(data.by)}`;
    case "seat_revoked":
      return `${String(data.seat)} REVOKED by its owner ${String(data.owner)}: key ${String(data.seat_key).slice(0, 8)}… is refused here from now on`;
    case "auction_settled":
      return `auction ${String(data.auction).slice(0, 12)}… settled: ${data.outcome === "deal" && typeof data.price === "number" ? `deal at ${moneyText(data.price, String(data.currency))}` : `no deal (${String(data.reason)})`}`;
    default:
      return `${subkind} ${safeJson(data)}`;
  }
}

/** The pauses in force in words: who holds each and how, or that none holds (docs/SPEC.md §5.5). */
export function pausesText(holders: readonly PauseHolder[]): string {
  return holders.length === 0
    ? "no pause holds: the table takes writes"
    : `paused by ${holdersText(holders)}: no seat writes until each of them lifts their own pause`;
}

/** How a control entry was made, in words ("owner key", or the chat app). */
function controlVia(via: unknown): string {
  const parsed = ControlViaSchema.safeParse(via);
  return parsed.success ? viaText(parsed.data) : oneLine(via);
}

/** A verification report: verdict, what was refuted or left unchecked, and the coverage. */
export function reportLines(report: VerifyReport, c: Styles): string[] {
  const colour = report.verdict === "CLEAN" ? c.green : report.verdict === "REFUTED" ? c.red : c.yellow;
  const lines = [
    `${c.bold(colour(report.verdict))}  table ${oneLine(report.table ?? "?")}, ${report.last_seq} entries`,
  ];
  if (report.refuted) {
    const where = report.refuted.seq !== null ? `entry #${report.refuted.seq}` : `line ${report.refuted.line ?? "?"}`;
    lines.push(`  refuted at ${where}: ${oneLine(report.refuted.reason)}`);
  }
  for (const item of report.unchecked) lines.push(`  not checked: ${oneLine(item)}`);
  const v = report.coverage;
  lines.push(
    c.dim(
      `  coverage: ${v.by_content}/${v.entries} by content, ${v.by_hash} by hash, ${v.signatures} signatures, ` +
        `${v.heads} heads (newest #${v.head_seq ?? "-"}), truncated ${v.truncated_checked} checked / ${v.truncated_unchecked} not, ` +
        `relay key ${v.relay_key_pinned ? "pinned" : "NOT pinned"}, policy replay ${v.policy_replay}`,
    ),
  );
  for (const past of v.past_keys ?? []) {
    lines.push(
      `  past relay key ${past.relay}: entries #${past.from}-#${past.to} are attested only by its heads (newest checked #${past.head_seq ?? "-"})`,
    );
  }
  return lines;
}

/**
 * One channel as a line: platform, account, label and language, state, deliveries, newest attempt,
 * and the notifications it gave up on (the label and the platform's words reduced to one safe line).
 */
export function channelLine(channel: ChannelHealth, c: Styles): string {
  return `${channel.platform} ${channel.account} (${oneLine(channel.label)}, ${channel.lang})  ${channelHealthText(channel, c)}`;
}

/** How delivery to a channel stands, on one line: its state, what it delivered, its newest attempt, and what it gave up on. */
export function channelHealthText(channel: ChannelHealth, c: Styles): string {
  const delivered =
    channel.delivered > 0
      ? `${channel.delivered} delivered, last ${iso(channel.last_delivered_at)}`
      : "never delivered";
  const last = channel.last_attempt ? `; last attempt ${attemptText(channel.last_attempt)}` : "";
  const lost = channel.last_undelivered;
  const undelivered =
    channel.undelivered > 0 && lost
      ? c.red(
          `; ${channel.undelivered} NOT DELIVERED, newest ${oneLine(lost.event)} (${lost.reason ?? "failed"}) at ${iso(lost.at)}`,
        )
      : "";
  return `${stateText(channel, c)}  ${delivered}${last}${undelivered}`;
}

function stateText(channel: ChannelHealth, c: Styles): string {
  switch (channel.state) {
    case "ok":
      return c.green("ok");
    case "unproven":
      return c.yellow("UNPROVEN");
    case "failing":
      return c.red("failed");
    case "quota_exhausted":
      return c.red(`${CHAT_PLATFORM_NAMES[channel.platform]} monthly quota exhausted`);
    case "removed":
      return c.red("REMOVED: the bot can no longer post there");
    case "migrated":
      return c.red("MIGRATED: the group has a new id, bind it again");
  }
}

function attemptText(attempt: AttemptRecord): string {
  const status = attempt.http_status === null ? "" : ` HTTP ${attempt.http_status}`;
  const reason = attempt.reason === null ? "" : ` ${attempt.reason}`;
  const detail = attempt.detail === null ? "" : `: ${oneLine(attempt.detail)}`;
  const resends = attempt.resends > 0 ? ` (resend ${attempt.resends})` : "";
  return `${attempt.status}${status}${reason}${resends}${detail} at ${iso(attempt.at)}`;
}

function iso(ms: number | null): string {
  return ms === null ? "-" : new Date(ms).toISOString();
}
