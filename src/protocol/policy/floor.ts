/**
 * Floor moves (docs/SPEC.md §5.2): the topology policy (topologies/) decides who gets the floor
 * when it starts and after each turn, raised hands included; the bot-depth rule hands it to a
 * human. `applyFloorEntry` replays a recorded move through the same policy, so deciding and
 * replaying cannot disagree.
 */
import type { SystemEntryOf } from "../schemas/entry.js";
import type { TableState } from "./state.js";
import { presentSeats } from "./state.js";
import { topologyOf } from "./topology.js";
import type { FloorMove, Turn } from "./topologies/policy.js";
import { has } from "../encoding/records.js";

export type { FloorMove } from "./topologies/policy.js";

/** Entry kinds that end the holder's turn. */
export const TURN_KINDS: ReadonlySet<string> = new Set(["say", "pass", "proposal", "decision"]);

/** Whether every seat the topology names has joined, so the floor can start. */
export function floorCanStart(state: TableState): boolean {
  const topology = topologyOf(state.config.topology);
  return topology.hasFloor && !state.floor.started && topology.participants.every((s) => has(state.seats, s));
}

/** The move that starts the floor. */
export function startMove(state: TableState): FloorMove {
  return topologyOf(state.config.topology).start(state);
}

/** The move after the holder's turn ended with `turn`; null when the holder keeps the floor. */
export function nextMove(state: TableState, turn: Turn): FloorMove | null {
  return topologyOf(state.config.topology).next(state, turn);
}

/** The human seat the bot-depth rule hands the floor to (first present human by join order), if any. */
export function humanForBotDepth(state: TableState): string | null {
  return presentSeats(state).find((s) => s.human)?.name ?? null;
}

/** Whether the bot-only run has reached `max_bot_depth`. */
export function botDepthReached(state: TableState): boolean {
  const max = state.config.floor?.max_bot_depth;
  return max !== undefined && state.floor.bot_run >= max;
}

/** Replays a recorded floor entry onto the state (mutates it). */
export function applyFloorEntry(state: TableState, entry: Pick<SystemEntryOf<"floor">, "data">): void {
  const { holder, round, reason } = entry.data;
  const floor = state.floor;
  topologyOf(state.config.topology).granted(state, entry.data);
  if (reason === "start" || reason === "turn" || reason === "judge") {
    floor.started = true;
  } else if (reason === "hand") {
    floor.hands = floor.hands.filter((h) => h !== holder);
  } else if (reason === "bot_depth") {
    floor.bot_run = 0;
  }
  floor.holder = holder;
  floor.round = round;
}
