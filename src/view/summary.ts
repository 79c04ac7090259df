/**
 * A table's summary for the principal window (wire.ts TableSummary), derived purely from the
 * verified entries an owner session followed and the policy's own fold of them (docs/SPEC.md §3):
 * floor holder, budgets used, seats, tasks with their effects in plain words and what this owner
 * may do about each (§5.6), sub-tables (§5.9), every owner's pause and what this owner may sign
 * about pausing (§5.5), seats revoked and revocable (§5.13), and the verification verdict (§8.2).
 */
import { oneLine, reportLines } from "../text/format.js";
import { stylesFor } from "../text/styles.js";
import {
  has,
  own,
  pauseHolders,
  presentSeats,
  revocationOf,
  type Entry,
  type SignedHead,
  type TableState,
  type TaskState,
  type VerifyReport,
} from "../protocol/index.js";
import { effectWords, safeBody } from "./entry-view.js";
import type { SessionStatus, TableSummary, TaskView, Verification } from "./wire.js";

/** What a summary is made of. `items[i]` is entry i + 1: the ledger from its start, all by content. */
export interface SummaryInput {
  table: string;
  me: string;
  state: TableState | null;
  items: readonly Entry[];
  status: SessionStatus;
  problem: { code: string; message: string } | null;
  head: SignedHead | null;
  report: VerifyReport | null;
}

const PLAIN = stylesFor(false);

/** The summary of one table as `me` sees it. */
export function tableSummary(input: SummaryInput): TableSummary {
  const { state, me } = input;
  const config = state?.config;
  const seats = state ? Object.values(state.seats).sort((a, b) => a.joined - b.joined) : [];
  return {
    table: input.table,
    parent: config?.parent ?? null,
    topic: config ? oneLine(config.topic) : "",
    status: input.status,
    problem: input.problem ? { code: input.problem.code, message: oneLine(input.problem.message) } : null,
    closed: state?.closed?.reason ?? null,
    pauses: state ? pauseHolders(state.pauses).map((p) => ({ ...p, mine: p.owner === me })) : [],
    floor: state?.floor.holder ?? null,
    round: state?.floor.round ?? 0,
    budgets: state ? budgets(state) : [],
    seats: seats.map((s) => ({
      name: s.name,
      owner: s.owner,
      human: s.human,
      present: s.left === null,
      mine: s.owner === me,
      revoked: state ? (revocationOf(state, s.key)?.seq ?? null) : null,
      can_revoke: s.owner === me && s.left === null,
    })),
    control: state ? controlFor(state, me) : null,
    tasks: state
      ? Object.values(state.tasks)
          .sort((a, b) => a.opened - b.opened)
          .map((task) => taskView(task, input.items, me))
      : [],
    subtables: state ? subtables(state, input.items) : [],
    head: input.head ? { seq: input.head.seq, link: input.head.link.slice(0, 12) } : null,
    verification: input.report ? verification(input.report) : null,
  };
}

/** What `me` can sign at an open table: lift their own pause (no seat needed), else pause it from a present seat (§5.5). */
function controlFor(state: TableState, me: string): TableSummary["control"] {
  if (state.closed !== null) return null;
  if (has(state.pauses, me)) return "resume";
  return presentSeats(state).some((s) => s.owner === me) ? "pause" : null;
}

/** Tokens spent, entries written and rounds played (once the topology has rounds), each with the limit the config sets (null: none). */
function budgets(state: TableState): TableSummary["budgets"] {
  let tokens: number | null = null;
  let entries: number | null = null;
  for (const condition of state.config.termination.any) {
    if (typeof condition !== "object") continue;
    if ("budget_tokens" in condition) tokens = condition.budget_tokens;
    if ("max_entries" in condition) entries = condition.max_entries;
  }
  const topology = state.config.topology;
  const rounds = "rounds" in topology && typeof topology.rounds === "number" ? topology.rounds : null;
  const all = [
    { label: "tokens", used: state.tokens, limit: tokens },
    { label: "entries", used: state.seq, limit: entries },
    { label: "rounds", used: state.floor.round, limit: rounds },
  ];
  return all.filter((b) => b.label !== "rounds" || b.limit !== null || b.used > 0);
}

/** A task with its proposal and this owner's part: approve while it waits, reject while nothing has run. */
function taskView(task: TaskState, items: readonly Entry[], me: string): TaskView {
  const proposal = items[task.proposal.seq - 1];
  const opened = items[task.opened - 1];
  const effects = opened?.kind === "system" && opened.subkind === "task_opened" ? opened.data.effects : [];
  const mine = task.owner === me;
  const unrun = task.state === "approved" || (task.state === "stalled" && task.executor === null);
  return {
    id: task.id,
    owner: task.owner,
    state: task.state,
    executor: task.executor,
    proposal: task.proposal.seq,
    proposer: proposal && proposal.kind !== "system" && proposal.kind !== "approval" ? oneLine(proposal.seat) : "?",
    proposal_lines:
      proposal && (proposal.kind === "proposal" || proposal.kind === "decision") ? safeBody(proposal.body) : [],
    effects: effects.map(effectWords),
    mine,
    can_approve: mine && task.state === "awaiting_approval",
    can_reject: mine && (task.state === "awaiting_approval" || unrun),
  };
}

function subtables(state: TableState, items: readonly Entry[]): TableSummary["subtables"] {
  return Object.entries(state.subtables).map(([table, sub]) => {
    const opened = items[sub.opened - 1];
    const result = sub.result === null ? undefined : items[sub.result - 1];
    return {
      table,
      topic: opened?.kind === "system" && opened.subkind === "subtable_opened" ? oneLine(opened.data.config.topic) : "",
      closed: result?.kind === "system" && result.subkind === "subtable_result" ? oneLine(result.data.reason) : null,
    };
  });
}

/** The verdict, how far signatures were checked, and the CLI's words for what was refuted, left unchecked and covered. */
function verification(report: VerifyReport): Verification {
  const refutedSeq = report.verdict === "REFUTED" ? (report.refuted?.seq ?? null) : null;
  return {
    verdict: report.verdict,
    through: report.verdict === "REFUTED" ? Math.max(0, (refutedSeq ?? 1) - 1) : report.last_seq,
    refuted_seq: refutedSeq,
    lines: reportLines(report, PLAIN)
      .slice(1)
      .map((line) => line.trim()),
  };
}

/** Whether `owner` with key `key` is an owner of the table `config` describes (a sub-table this window should follow too). */
export function ownsTable(
  owners: Readonly<Record<string, { public_key: string }>>,
  owner: string,
  key: string,
): boolean {
  return own(owners, owner)?.public_key === key;
}
