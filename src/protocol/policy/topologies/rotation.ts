/**
 * The rotation a floor-based topology walks: numbered rounds of slots, each slot a seat.
 * Topology modules describe their rotation; the floor logic (floor.ts) walks it.
 */

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

/** How one topology moves the floor; pure data and functions of the config. */
export interface Rotation {
  /** Whether the topology has a floor at all (open tables do not). */
  hasFloor: boolean;
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

/** Position after `at` in rounds of `length` slots. */
export function nextInRounds(at: SlotPosition, length: number): SlotPosition {
  return at.pos + 1 < length ? { round: at.round, pos: at.pos + 1 } : { round: at.round + 1, pos: 0 };
}
