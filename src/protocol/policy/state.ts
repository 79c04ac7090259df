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
import type { MarketState } from "./market/market-state.js";

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

/** One owner's pause in force (§5.5): its `table_paused` entry and how it was made (`owner`: signed with the owner key). */
export interface PauseState {
  seq: number;
  via: ControlVia;
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

/** A seat key its owner revoked (policy/seat-revoke.ts): refused at this table from entry `seq` on. */
export interface RevokedKeyState {
  seat: string;
  owner: string;
  key: string;
  seq: number;
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
  /** Each owner's pause, by owner name: set by their `table_paused`, cleared only by their own `table_resumed` (policy/pause.ts). */
  pauses: Record<string, PauseState>;
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
  /** Rooms (§5.10): invites, parties, offers, grants and the outcome; null unless the config has `room` or `market` (a market admits its members as a room admits parties). */
  room: RoomState | null;
  /** Markets (§5.15): listings, matches and the open index; null unless the config has `market`. */
  market: MarketState | null;
  /** Custody (§8.4): seq of the newest custody entry (from it on, `relay` holds the table); null while the first relay does. */
  custody: number | null;
  /** Revocation (§5.13): every seat key revoked here, oldest first; each is refused from its entry on. */
  revoked: RevokedKeyState[];
}

/**
 * The version of the policy that folds entries into this state. Bump it whenever a change to
 * src/protocol/policy could fold the same entries differently (test/unit/protocol/state-version.test.ts
 * notices such a change): a relay's stored checkpoints of another version are then ignored and the
 * state is folded from the ledger again.
 */
export const STATE_VERSION = 11;

/**
 * A copy of the state that admit may change freely: every part is copied except the config, which
 * nothing changes once the table is opened, so it is shared (it is frozen: frozenConfig). Copied by walking the plain data, not through JSON text, which cost more than the rest
 * of an admit.
 */
export function cloneState(state: TableState): TableState {
  const { config, ...rest } = state;
  return { ...copyPlain(rest), config };
}

/** The config a state holds: a copy, deeply frozen, since every state admit makes from it shares it (cloneState). */
export function frozenConfig(config: TableConfig): TableConfig {
  return deepFreeze(copyPlain(config));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function copyPlain<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copied = copyPlain((value as Record<string, unknown>)[key]);
    // "__proto__" is an ordinary key in the data (as JSON.parse makes it), never the prototype.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: copied, writable: true, enumerable: true, configurable: true });
    else out[key] = copied;
  }
  return out as T;
}

/** Seats currently at the table (joined, not left), in join order. */
export function presentSeats(state: TableState): SeatState[] {
  return Object.values(state.seats)
    .filter((s) => s.left === null)
    .sort((a, b) => a.joined - b.joined);
}
