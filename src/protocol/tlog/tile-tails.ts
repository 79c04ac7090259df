/**
 * What a log keeps to append leaves and serve tlog-tiles cheaply: per tile level, the hashes not yet
 * in a full tile (fewer than 256 each, so O(255 · log₂₅₆ n) hashes in all). Appending returns the
 * tiles that became full, each once, with its root (the level above's next hash); the tree's root
 * and frontier follow from the tails alone.
 */
import { concatBytes } from "../encoding/bytes.js";
import { TrestleError } from "../errors.js";
import {
  appendToFrontier,
  EMPTY_FRONTIER,
  frontierRoot,
  HASH_BYTES,
  rootOfLeafHashes,
  type Frontier,
} from "./merkle.js";
import { TILE_WIDTH } from "./tiles.js";

/** The tails of a tree of `size` leaves: `levels[L]` holds the hashes at Merkle level 8·L past the last full level-L tile. */
export interface TileTails {
  readonly size: number;
  readonly levels: readonly (readonly Uint8Array[])[];
}

/** A tile that became full: its 256 hashes (8192 bytes) and the root of the subtree they make. */
export interface FullTile {
  readonly level: number;
  readonly index: number;
  readonly hashes: Uint8Array;
  readonly root: Uint8Array;
}

/** The tails of the empty tree. */
export const EMPTY_TAILS: TileTails = { size: 0, levels: [] };

/** The tails after appending `leaves` (leaf hashes, in order) and the tiles that became full, lower levels first; the input is not changed. */
export function appendToTails(tails: TileTails, leaves: readonly Uint8Array[]): { tails: TileTails; full: FullTile[] } {
  const levels = tails.levels.map((level) => [...level]);
  const full: FullTile[] = [];
  let size = tails.size;
  for (const leaf of leaves) {
    if (leaf.length !== HASH_BYTES) throw new TrestleError("E_SCHEMA", "a leaf hash is 32 bytes");
    size += 1;
    let carry = leaf;
    for (let level = 0; ; level++) {
      const row = (levels[level] ??= []);
      row.push(carry);
      if (row.length < TILE_WIDTH) break;
      const index = Math.floor(size / TILE_WIDTH ** (level + 1)) - 1;
      carry = rootOfLeafHashes(row);
      full.push({ level, index, hashes: concatBytes(...row), root: carry });
      levels[level] = [];
    }
  }
  while (levels.length > 0 && levels[levels.length - 1]!.length === 0) levels.pop();
  return { tails: { size, levels }, full };
}

/** The tails of a tree of `size` leaves from each level's tail hashes (as read back from storage); E_SCHEMA when their counts are not the base-256 digits of `size`. */
export function tailsOf(size: number, levels: readonly (readonly Uint8Array[])[]): TileTails {
  let rest = size;
  for (const level of levels) {
    if (level.length !== rest % TILE_WIDTH)
      throw new TrestleError("E_SCHEMA", "tile tails do not match the tree size", { size });
    rest = Math.floor(rest / TILE_WIDTH);
  }
  if (rest !== 0) throw new TrestleError("E_SCHEMA", "tile tails do not match the tree size", { size });
  return { size, levels };
}

/** How many hashes each level's tail holds in a tree of `size` leaves: its base-256 digits, lowest first. */
export function tailWidths(size: number): number[] {
  const widths: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / TILE_WIDTH)) widths.push(rest % TILE_WIDTH);
  return widths;
}

/** The frontier (merkle.ts) of the tree the tails stand for: each level's tail folded, top level first. */
export function tailsFrontier(tails: TileTails): Frontier {
  const nodes: Uint8Array[] = [];
  for (let level = tails.levels.length - 1; level >= 0; level--)
    nodes.push(...tails.levels[level]!.reduce(appendToFrontier, EMPTY_FRONTIER).nodes);
  return { size: tails.size, nodes };
}

/** The root of the tree the tails stand for (EMPTY_ROOT for none). */
export function tailsRoot(tails: TileTails): Uint8Array {
  return frontierRoot(tailsFrontier(tails));
}
