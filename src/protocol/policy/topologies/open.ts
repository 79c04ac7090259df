/** `open` topology (rooms): no floor, no rotation; any seated seat writes at any time. */
import type { Rotation } from "./rotation.js";

/** The open rotation: no floor and no slots. */
export function openRotation(): Rotation {
  return {
    hasFloor: false,
    participants: [],
    paths: [],
    finite: false,
    slot: () => null,
    next: (at) => at,
  };
}
