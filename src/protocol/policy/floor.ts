/**
 * Floor moves (docs/SPEC.md §5.2): raised hands first, then the topology's rotation, skipping
 * seats that left; the bot-depth rule hands the floor to a human. `nextMove` decides and
 * `applyFloorEntry` replays a recorded move; both use the same scan, so they cannot disagree.
 */
import type { FloorReason, SystemEntryOf } from "../schemas/entry.js";
import type { TableState } from "./state.js";
import { presentSeats } from "./state.js";
import { rotationOf } from "./topology.js";
import type { SlotPosition } from "./topologies/rotation.js";
import { has, own } from "../records.js";

/** A floor move: the next holder, or the end of the rotation. */
export type FloorMove =
  | { holder: string | null; round: number; reason: FloorReason }
  | { exhausted: true };

/** Entry kinds that end the holder's turn. */
export const TURN_KINDS: ReadonlySet<string> = new Set(["say", "pass", "proposal", "decision"]);

/** First rotation slot at or after the cursor whose seat is present, and the cursor after it. */
function scanRotation(state: TableState): { seat: string; reason: "turn" | "judge"; at: SlotPosition; after: SlotPosition } | null {
  const rotation = rotationOf(state.config.topology);
  let at = state.floor.cursor;
  // Bounded: a full pass over every slot of two rounds finds a present seat or none exists.
  for (let guard = 0; guard < 2 * (rotation.participants.length + 1); guard++) {
    const slot = rotation.slot(at);
    if (!slot) return null;
    const after = rotation.next(at);
    if (own(state.seats, slot.seat)?.left === null) return { ...slot, at, after };
    at = after;
  }
  return null;
}

/** Whether every seat the topology names has joined, so the floor can start. */
export function floorCanStart(state: TableState): boolean {
  const rotation = rotationOf(state.config.topology);
  return rotation.hasFloor && !state.floor.started && rotation.participants.every((s) => has(state.seats, s));
}

/** The move that starts the floor. */
export function startMove(state: TableState): FloorMove {
  const scan = scanRotation(state);
  return scan ? { holder: scan.seat, round: scan.at.round, reason: "start" } : { exhausted: true };
}

/** The move after the holder's turn ends: a raised hand, else the next rotation slot. */
export function nextMove(state: TableState): FloorMove {
  const hand = state.floor.hands[0];
  if (hand !== undefined) return { holder: hand, round: state.floor.cursor.round, reason: "hand" };
  if (!rotationOf(state.config.topology).hasFloor) return { holder: null, round: 0, reason: "human_done" };
  const scan = scanRotation(state);
  return scan ? { holder: scan.seat, round: scan.at.round, reason: scan.reason } : { exhausted: true };
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
  if (reason === "start" || reason === "turn" || reason === "judge") {
    const scan = scanRotation(state);
    if (scan) floor.cursor = scan.after;
    floor.started = true;
  } else if (reason === "hand") {
    floor.hands = floor.hands.filter((h) => h !== holder);
  } else if (reason === "bot_depth") {
    floor.bot_run = 0;
  }
  floor.holder = holder;
  floor.round = round;
}
