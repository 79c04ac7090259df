/**
 * Building a seat's projection from the folded state and the entries after its cursor. The
 * prefix is computed from the state alone (O(seats + decisions)); the tail from the entries given
 * (O(tail)); nothing here walks the ledger.
 */
import { canonicalSha256 } from "./hash.js";
import { LIMITS } from "./limits.js";
import { cutText } from "./text.js";
import { presentSeats, type TableState } from "./policy/state.js";
import type { Entry } from "./schemas/entry.js";
import type { Prefix, ProjectedEntry, Projection } from "./schemas/projection.js";
import { gatewayData, openTasks, projectApproval, taskOpenedData } from "./projection-gateway.js";

/** The stable prefix: rules, present seats with cards, decisions in force. */
export function projectionPrefix(state: TableState): Prefix {
  const { config } = state;
  const rules: Prefix["rules"] = { topology: config.topology, termination: config.termination };
  if (config.floor) rules.floor = config.floor;
  return {
    table: state.table,
    topic: config.topic,
    rules,
    seats: presentSeats(state).map((s) => ({ name: s.name, owner: s.owner, human: s.human, card: s.card })),
    decisions: state.decisions.map((d) => ({ ...d })),
  };
}

/** One entry as a model reads it: no signatures, hashes or timestamps; long bodies cut. */
export function projectEntry(entry: Entry): ProjectedEntry {
  if (entry.kind === "system") {
    return { seq: entry.seq, kind: "system", subkind: entry.subkind, data: systemData(entry) };
  }
  if (entry.kind === "approval") return projectApproval(entry);
  const out: ProjectedEntry = { seq: entry.seq, kind: entry.kind, seat: entry.seat };
  if ("to" in entry && entry.to) out.to = entry.to;
  if ("re" in entry && entry.re !== undefined) out.re = entry.re;
  if ("refs" in entry && entry.refs) out.refs = entry.refs;
  if (entry.body.length > LIMITS.projection_body_chars) {
    out.body = cutText(entry.body, LIMITS.projection_body_chars);
    out.more = `entry:${entry.seq}`;
  } else if (entry.body !== "") {
    out.body = entry.body;
  }
  if (entry.truncated) out.truncated = true;
  const data = gatewayData(entry);
  if (data) out.data = data;
  return out;
}

function systemData(entry: Extract<Entry, { kind: "system" }>): Record<string, unknown> {
  switch (entry.subkind) {
    case "table_opened":
      return { topic: entry.data.config.topic, creator: entry.data.creator };
    case "seat_joined":
      return { seat: entry.data.join.seat, owner: entry.data.join.owner, human: entry.data.join.human };
    case "task_opened":
      return taskOpenedData(entry);
    default:
      return { ...entry.data };
  }
}

/** The projection for `seat`: prefix from the state; tail = the visible entries up to `cursor`, the last seq examined. */
export function buildProjection(
  state: TableState,
  seat: string,
  page: { entries: readonly Entry[]; cursor: number; more: boolean },
): Projection {
  const prefix = projectionPrefix(state);
  const tail = page.entries.map(projectEntry);
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
    tasks: openTasks(state),
  };
}
