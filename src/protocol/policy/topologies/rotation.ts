/**
 * Rotations (docs/SPEC.md §5.1): numbered rounds of slots, each slot a seat, walked by a cursor in
 * the floor state. broadcast, debate and pipeline describe their rotation; `rotationPolicy` turns
 * one into a topology policy: raised hands first (when the topology serves them), then the next
 * slot whose seat is present, and the end when no slot is left.
 */
import type { TableState } from "../state.js";
import { isPresent, oldestHand, type Turn, type FloorMove, type TopologyPolicy } from "./policy.js";

/** One granted slot. */
export interface Slot {
  seat: string;
  reason: "turn" | "judge";
}

/** A position in the rotation: round (from 1) and slot index within it. */
export interface SlotPosition {
  round: number;
  pos: number;
}

/** How one rotation walks; pure data and functions of the config. */
export interface Rotation {
  /** Seats that must all join before the floor starts, each with the config path naming it. */
  participants: string[];
  paths: string[];
  /** Whether the rotation ends, so `rounds_exhausted` can fire. */
  finite: boolean;
  /** The slot at a position, or null when the rotation has ended there. */
  slot(at: SlotPosition): Slot | null;
  /** The position after `at`. */
  next(at: SlotPosition): SlotPosition;
}

/** What a rotation topology adds to the shared walk. */
export interface RotationRules {
  /** Who decides when the config does not say (default: anyone). */
  deciders?: "any" | readonly string[];
  /** Whether a raised hand is served when the holder's turn ends now (default: always). */
  servesHands?(state: TableState): boolean;
  /** The topology's addressing rule (default: anyone may address any seat). */
  checkAddressing?(state: TableState, entry: Turn): void;
}

/** Position after `at` in rounds of `length` slots. */
export function nextInRounds(at: SlotPosition, length: number): SlotPosition {
  return at.pos + 1 < length ? { round: at.round, pos: at.pos + 1 } : { round: at.round + 1, pos: 0 };
}

/** First slot at or after the floor's cursor whose seat is present, and the cursor after it. */
export function scanRotation(
  rotation: Rotation,
  state: TableState,
): (Slot & { at: SlotPosition; after: SlotPosition }) | null {
  let at = state.floor.cursor;
  // Bounded: a full pass over every slot of two rounds finds a present seat or none exists.
  for (let step = 0; step < 2 * (rotation.participants.length + 1); step++) {
    const slot = rotation.slot(at);
    if (!slot) return null;
    const after = rotation.next(at);
    if (isPresent(state, slot.seat)) return { ...slot, at, after };
    at = after;
  }
  return null;
}

/** The topology policy that walks `rotation`. */
export function rotationPolicy(rotation: Rotation, rules: RotationRules = {}): TopologyPolicy {
  const scanMove = (state: TableState, reason?: "start"): FloorMove => {
    const scan = scanRotation(rotation, state);
    return scan ? { holder: scan.seat, round: scan.at.round, reason: reason ?? scan.reason } : { exhausted: true };
  };
  return {
    hasFloor: true,
    participants: rotation.participants,
    paths: rotation.paths,
    finite: rotation.finite,
    deciders: rules.deciders ?? "any",
    problems: () => [],
    start: (state) => scanMove(state, "start"),
    next(state) {
      const hand = (rules.servesHands?.(state) ?? true) ? oldestHand(state, state.floor.cursor.round) : null;
      return hand ?? scanMove(state);
    },
    granted(state, grant) {
      if (grant.reason !== "start" && grant.reason !== "turn" && grant.reason !== "judge") return;
      const scan = scanRotation(rotation, state);
      if (scan) state.floor.cursor = scan.after;
    },
    checkAddressing: rules.checkAddressing ?? (() => undefined),
  };
}
