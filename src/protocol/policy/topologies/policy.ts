/**
 * The topology policy interface (docs/SPEC.md §5.1): how one topology starts the floor, who gets it
 * after a turn (raised hands included: each topology decides when a hand is served), what a
 * recorded grant changes in its own part of the floor state, and who may address whom. floor.ts
 * and admit.ts own everything topologies share (bot depth, humans, closing).
 */
import { TrestleError } from "../../errors.js";
import type { FloorReason, SystemEntryOf } from "../../schemas/entry.js";
import type { TableState } from "../state.js";
import { own } from "../../encoding/records.js";

/** A floor move: the next holder, or the end of the topology's floor (rounds_exhausted). */
export type FloorMove = { holder: string | null; round: number; reason: FloorReason } | { exhausted: true };

/** A recorded grant, as a floor entry carries it. */
export type FloorGrant = SystemEntryOf<"floor">["data"];

/** An authored entry as a topology sees it: who wrote it, its kind, and whom it addressed. */
export interface Turn {
  seat: string;
  kind: string;
  to?: readonly string[] | undefined;
}

/** How one topology moves the floor; pure functions of the config and the folded state. */
export interface TopologyPolicy {
  /** Whether the topology has a floor at all (open tables do not). */
  readonly hasFloor: boolean;
  /** Seats that must all join before the floor starts, each with the config path naming it. */
  readonly participants: readonly string[];
  readonly paths: readonly string[];
  /** Whether the floor can run out, so `rounds_exhausted` can fire. */
  readonly finite: boolean;
  /** Who may decide when `floor.decision_by` is not set. */
  readonly deciders: "any" | readonly string[];
  /** Config rules a schema cannot state, as [path, message] problems (empty when the topology is sound). */
  problems(): [string, string][];
  /** The grant that starts the floor once every participant joined. */
  start(state: TableState): FloorMove;
  /** The move after the holder's turn ended with `turn`; null when the holder keeps the floor. */
  next(state: TableState, turn: Turn): FloorMove | null;
  /** Replays a recorded grant onto the topology's part of the floor state (mutates it). */
  granted(state: TableState, grant: FloorGrant): void;
  /** Throws E_NOT_ALLOWED when `entry` addresses seats the topology does not let its author address. */
  checkAddressing(state: TableState, entry: Turn): void;
}

/** Whether `seat` has joined and not left. */
export function isPresent(state: TableState, seat: string): boolean {
  return own(state.seats, seat)?.left === null;
}

/** The grant of the oldest raised hand in `round`, if a hand is raised. */
export function oldestHand(state: TableState, round: number): FloorMove | null {
  const hand = state.floor.hands[0];
  return hand === undefined ? null : { holder: hand, round, reason: "hand" };
}

/** Refuses an entry that breaks a topology's addressing rule. */
export function notAllowed(message: string, details?: Record<string, unknown>): never {
  throw new TrestleError("E_NOT_ALLOWED", message, details);
}
