/**
 * Liveness of the floor (docs/SPEC.md §5.2, decision 0190): a floor move that ends the
 * topology's floor, or leaves a topology that has a floor with nobody holding it, closes the
 * table. Once nobody holds such a floor nobody can be granted it again (only a holder's turn moves
 * it; a seat that left never returns, and a name seated again after a revocation, §5.13, is not
 * granted the floor by its join), so the table would otherwise stay open with nobody to
 * speak: a hub_spoke whose hub left, a delegation with nobody present up the line, a rotation
 * whose every seat left.
 */
import type { CloseReason } from "../schemas/entry.js";
import type { FloorMove } from "./topologies/policy.js";
import type { TableState } from "./state.js";
import { topologyOf } from "./topology.js";

/** The reason `move` closes the table (`rounds_exhausted` for a floor that ran out, `no_speaker` for one nobody can hold), or null for a grant. */
export function floorEndReason(state: TableState, move: FloorMove): CloseReason | null {
  const topology = topologyOf(state.config.topology);
  if ("exhausted" in move) return topology.finite ? "rounds_exhausted" : "no_speaker";
  return move.holder === null && topology.hasFloor ? "no_speaker" : null;
}
