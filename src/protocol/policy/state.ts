/**
 * The folded table state (docs/SPEC.md §3): everything the policy needs to judge the next write,
 * derived only from ledger entries. Plain JSON data, so two folds compare by canonical bytes.
 */
import type { CapabilityCard } from "../schemas/card.js";
import type { TableConfig } from "../schemas/config.js";
import type { CloseReason } from "../schemas/entry.js";
import type { ControlVia } from "../schemas/control.js";
import type { TaskState } from "../schemas/task.js";
import type { RoomState } from "./room-state.js";

/** A seat as the ledger recorded it. */
export interface SeatState {
  name: string;
  owner: string;
  key: string;
  human: boolean;
  card: CapabilityCard;
  joined: number;
  left: number | null;
}

/**
 * Who may speak. `cursor` is the next rotation slot (round, pos) still to be granted; `holder` may
 * be a rotation speaker, a raised hand, or a human the bot-depth rule handed the floor to.
 */
export interface FloorState {
  started: boolean;
  holder: string | null;
  round: number;
  cursor: { round: number; pos: number };
  hands: string[];
  bot_run: number;
}

/** A decision in force; `by: "quorum"` when the table reached it by votes on `seat`'s proposal. */
export interface DecisionState {
  seq: number;
  seat: string;
  body: string;
  refs?: string[];
  by?: "quorum";
}

/** One seat's vote on a proposal. */
export interface BallotState {
  seat: string;
  owner: string;
  choice: "yes" | "no" | "abstain";
}

/** A proposal open for votes (the newest LIMITS.open_proposals stay open). */
export interface ProposalState {
  seq: number;
  seat: string;
  body: string;
  refs?: string[];
  votes: BallotState[];
}

/** A sub-table this table opened: the seq of its subtable_opened, and of its subtable_result once reported. */
export interface SubtableState {
  opened: number;
  result: number | null;
}

/** An open or answered request (§5.7), keyed by its request_id. */
export interface RequestState {
  seq: number;
  seat: string;
  type: string;
  to: string[] | null;
  /** Seq of the response that resolved it. */
  resolved: number | null;
}

/** An authored entry that opened tasks: who wrote it and as what; visibility judges the task's entries by it (§5.3). */
export interface OriginState {
  seat: string;
  kind: "proposal" | "decision";
}

/** The whole table state after some prefix of the ledger. */
export interface TableState {
  table: string;
  config: TableConfig;
  relay: string;
  creator: string;
  seq: number;
  seats: Record<string, SeatState>;
  floor: FloorState;
  tokens: number;
  authored: number;
  decisions: DecisionState[];
  closed: { reason: CloseReason; seq: number } | null;
  /** Set by `table_paused`, cleared by `table_resumed` (policy/pause.ts). */
  paused: { seq: number; owner: string; via: ControlVia } | null;
  /** Commit gateway (§5.6): tasks by id, requests by request_id, owners who signed the config. */
  tasks: Record<string, TaskState>;
  requests: Record<string, RequestState>;
  endorsed: string[];
  /** Chat approvals (§5.6): tasks every effect of which their owner's `chat_approve` rules match, recorded when opened. */
  chat_covered: Record<string, true>;
  /** Proposals open for votes, oldest first. */
  proposals: ProposalState[];
  /** Sub-tables opened here, by table id. */
  subtables: Record<string, SubtableState>;
  /** Entries that opened tasks, by seq (decimal): visibility of what they caused (decision 0192). */
  origins: Record<string, OriginState>;
  /** Rooms (§5.10): invites, parties, offers, grants and the outcome; null unless the config has `room`. */
  room: RoomState | null;
}

/** A copy of the state that shares nothing with the original. */
export function cloneState(state: TableState): TableState {
  return JSON.parse(JSON.stringify(state)) as TableState;
}

/** Seats currently at the table (joined, not left), in join order. */
export function presentSeats(state: TableState): SeatState[] {
  return Object.values(state.seats)
    .filter((s) => s.left === null)
    .sort((a, b) => a.joined - b.joined);
}
