/**
 * Building a seat's projection from the folded state and the entries after its cursor. The
 * prefix is computed from the state alone (O(seats + decisions)); the tail from the entries given
 * (O(tail)); nothing here walks the ledger.
 */
import { canonicalSha256 } from "../encoding/hash.js";
import { LIMITS } from "../limits/limits.js";
import { cutText } from "../encoding/text.js";
import { presentSeats, type DecisionState, type TableState } from "../policy/state.js";
import { pauseHolders } from "../policy/pause.js";
import { canReadTask, ruleOf, seatCanReadDecision } from "./visibility.js";
import type { Entry } from "../schemas/entry.js";
import type { Prefix, ProjectedEntry, Projection } from "../schemas/projection.js";
import { gatewayData, openTasks, projectApproval, taskOpenedData } from "./projection-gateway.js";
import { roomData } from "./projection-room.js";
import { isSealedText } from "../signing/sealed-text.js";
import { isE2eRoom } from "../policy/sealed.js";

/**
 * The stable prefix: rules, present seats with cards, decisions in force. For `seat`, the rules
 * add its visibility rule and the decisions are those it may read (docs/SPEC.md §5.3).
 */
export function projectionPrefix(state: TableState, seat?: string): Prefix {
  const { config } = state;
  const rules: Prefix["rules"] = { topology: config.topology, termination: config.termination };
  if (config.floor) rules.floor = config.floor;
  const rule = seat === undefined ? undefined : ruleOf(config, seat);
  if (rule) rules.visibility = rule;
  const readable = (d: DecisionState) => seat === undefined || seatCanReadDecision(config, seat, d);
  return {
    table: state.table,
    topic: config.topic,
    rules,
    seats: presentSeats(state).map((s) => ({ name: s.name, owner: s.owner, human: s.human, card: s.card })),
    decisions: state.decisions.filter(readable).map((d) => ({ ...d })),
  };
}

/**
 * One entry as a model reads it: no signatures, hashes or timestamps; long bodies cut, except a
 * sealed body of an end-to-end encrypted room (`e2e`: the entry's table is one), as a cut
 * ciphertext opens for nobody. Anywhere else text that only looks sealed is cut like any other
 * (decision 0448).
 */
export function projectEntry(entry: Entry, e2e = false): ProjectedEntry {
  if (entry.kind === "system") {
    const out: ProjectedEntry = { seq: entry.seq, kind: "system", subkind: entry.subkind, data: systemData(entry) };
    if (entry.subkind === "decision") withBody(out, entry.data.body, e2e);
    if (entry.subkind === "subtable_result" && entry.data.decision) withBody(out, entry.data.decision.body, e2e);
    return out;
  }
  if (entry.kind === "approval") return projectApproval(entry);
  const out: ProjectedEntry = { seq: entry.seq, kind: entry.kind, seat: entry.seat };
  if ("to" in entry && entry.to) out.to = entry.to;
  if ("re" in entry && entry.re !== undefined) out.re = entry.re;
  if ("refs" in entry && entry.refs) out.refs = entry.refs;
  if (entry.kind === "vote") out.choice = entry.choice;
  withBody(out, entry.body, e2e);
  if (entry.truncated) out.truncated = true;
  const data = gatewayData(entry) ?? roomData(entry);
  if (data) out.data = data;
  return out;
}

/** Sets a projected entry's body, cut to the projection limit with a reference to the full entry; in an e2e room (§5.12) sealed text is never cut. */
function withBody(out: ProjectedEntry, body: string, e2e: boolean): void {
  if (body.length > LIMITS.projection_body_chars && !(e2e && isSealedText(body))) {
    out.body = cutText(body, LIMITS.projection_body_chars);
    out.more = `entry:${out.seq}`;
  } else if (body !== "") {
    out.body = body;
  }
}

function systemData(entry: Extract<Entry, { kind: "system" }>): Record<string, unknown> {
  switch (entry.subkind) {
    case "table_opened":
      return {
        topic: entry.data.config.topic,
        creator: entry.data.creator,
        ...(entry.data.parent ? { parent: entry.data.parent.table } : {}),
      };
    case "seat_joined":
      return { seat: entry.data.join.seat, owner: entry.data.join.owner, human: entry.data.join.human };
    case "task_opened":
      return taskOpenedData(entry);
    case "subtable_opened":
      return {
        table: entry.data.config.id,
        topic: entry.data.config.topic,
        opener: entry.data.opener,
        seats: Object.keys(entry.data.config.seats ?? {}),
      };
    case "subtable_result":
      return { table: entry.data.table, reason: entry.data.reason, decision: decisionWithoutBody(entry.data.decision) };
    case "decision": {
      const { body: _body, ...rest } = entry.data;
      return rest;
    }
    case "custody":
      return {
        from: entry.data.from,
        to: entry.data.to,
        after: entry.data.head.seq,
        owners: entry.data.owners.map((o) => o.owner),
      };
    default:
      return { ...entry.data };
  }
}

/** A reported decision without its body (the projected entry carries the body, cut like any other). */
function decisionWithoutBody(decision: { body: string } | null): Record<string, unknown> | null {
  if (!decision) return null;
  const { body: _body, ...rest } = decision;
  return rest;
}

/** The projection for `seat`: prefix from the state; tail = the visible entries up to `cursor`, the last seq examined. */
export function buildProjection(
  state: TableState,
  seat: string,
  page: { entries: readonly Entry[]; cursor: number; more: boolean },
): Projection {
  const prefix = projectionPrefix(state, seat);
  const e2e = isE2eRoom(state);
  const tail = page.entries.map((entry) => projectEntry(entry, e2e));
  const holder = state.floor.holder;
  return {
    table: state.table,
    seat,
    prefix,
    prefix_sha256: canonicalSha256(prefix),
    tail,
    cursor: page.cursor,
    more: page.more,
    floor: { holder, round: state.floor.round, yours: holder === seat },
    closed: state.closed?.reason ?? null,
    pauses: pauseHolders(state.pauses),
    tasks: openTasks(state, (task) => canReadTask(state, { seat }, task)),
  };
}
