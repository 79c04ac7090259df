/**
 * C2SP tlog-tiles: the paths `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, which tiles a
 * tree of a given size has, which tiles a root or proof needs, a tile's bytes from a hash source,
 * a hash source over fetched tiles, and entry bundles (uint16 length-prefixed entries).
 */
import { concatBytes } from "../encoding/bytes.js";
import { TrestleError } from "../errors.js";
import { HASH_BYTES, nodeHash } from "./merkle.js";
import { rangeSubtrees, type HashSource, type LeafRange, type SubtreeRef } from "./proofs.js";

/** A tile spans 8 Merkle levels: each hash in a level-L tile is a subtree of height 8·L. */
export const TILE_HEIGHT = 8;

/** A full tile holds 256 hashes (8192 bytes). */
export const TILE_WIDTH = 256;

/** One tile of hashes: `width` is 256 for a full tile, 1–255 for a partial one. */
export interface Tile {
  readonly level: number;
  readonly index: number;
  readonly width: number;
}

/** A parsed tiles path: a hash tile, or an entry bundle (`level` is "entries"). */
export type TilePath = Tile | { readonly level: "entries"; readonly index: number; readonly width: number };

/** The path elements of a tile index: zero-padded 3-digit groups, all but the last prefixed `x` (1234067 → x001/x234/067). */
export function tileIndexPath(index: number): string {
  checkIndex(index);
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, "0"));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join("/");
}

/** The path of a hash tile or entry bundle, relative to the log prefix: `tile/<L>/<N>[.p/<W>]`. */
export function tilePath(tile: TilePath): string {
  if (tile.level !== "entries" && !(Number.isInteger(tile.level) && tile.level >= 0 && tile.level <= 63))
    throw new TrestleError("E_SCHEMA", "a tile level is 0 to 63");
  if (!Number.isInteger(tile.width) || tile.width < 1 || tile.width > TILE_WIDTH)
    throw new TrestleError("E_SCHEMA", "a tile width is 1 to 256");
  const suffix = tile.width === TILE_WIDTH ? "" : `.p/${tile.width}`;
  return `tile/${tile.level}/${tileIndexPath(tile.index)}${suffix}`;
}

/** The tile or entry bundle a path names; E_SCHEMA unless the path is exactly the canonical one. */
export function parseTilePath(path: string): TilePath {
  const match = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!match) throw new TrestleError("E_SCHEMA", "not a tile path", { path });
  const index = match[2]!.split("/").reduce((n, group) => n * 1000 + Number(group.replace("x", "")), 0);
  const width = match[3] === undefined ? TILE_WIDTH : Number(match[3]);
  const level = match[1] === "entries" ? "entries" : Number(match[1]);
  if (
    !Number.isSafeInteger(index) ||
    (match[3] !== undefined && width >= TILE_WIDTH) ||
    (level !== "entries" && level > 63)
  )
    throw new TrestleError("E_SCHEMA", "tile path out of range", { path });
  const tile: TilePath = { level, index, width };
  if (tilePath(tile) !== path) throw new TrestleError("E_SCHEMA", "tile path is not canonical", { path });
  return tile;
}

/** The width of tile (level, index) in a tree of `size` leaves: 256 if full, 1–255 if partial, 0 if it does not exist yet. */
export function tileWidth(level: number, index: number, size: number): number {
  const hashes = Math.floor(size / TILE_WIDTH ** level);
  const before = index * TILE_WIDTH;
  return Math.max(0, Math.min(TILE_WIDTH, hashes - before));
}

/** Every tile a tree of `size` leaves has, level by level, full ones then the partial one (O(size / 256)). */
export function tilesForSize(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; Math.floor(size / TILE_WIDTH ** level) > 0; level++) {
    const hashes = Math.floor(size / TILE_WIDTH ** level);
    for (let index = 0; index * TILE_WIDTH < hashes; index++)
      tiles.push({ level, index, width: tileWidth(level, index, size) });
  }
  return tiles;
}

/** The tile, at its width for a tree of `size`, whose hashes make the perfect subtree `ref`. */
export function tileOfSubtree(ref: SubtreeRef, size: number): Tile {
  const level = Math.floor(ref.level / TILE_HEIGHT);
  const first = ref.index * 2 ** (ref.level - level * TILE_HEIGHT);
  const index = Math.floor(first / TILE_WIDTH);
  const width = tileWidth(level, index, size);
  if ((ref.index + 1) * 2 ** ref.level > size || width === 0)
    throw new TrestleError("E_SCHEMA", "that subtree is not in the tree", { ...ref, size });
  return { level, index, width };
}

/** The distinct tiles, at their widths for a tree of `size`, that the hashes of these leaf ranges need. */
export function tilesForRanges(ranges: readonly LeafRange[], size: number): Tile[] {
  const tiles = new Map<string, Tile>();
  for (const [start, end] of ranges) {
    for (const ref of rangeSubtrees(start, end)) {
      const tile = tileOfSubtree(ref, size);
      tiles.set(tilePath(tile), tile);
    }
  }
  return [...tiles.values()];
}

/** The bytes of a tile: its `width` hashes at Merkle level 8·L, from a source of perfect-subtree hashes. */
export function tileBytes(tile: Tile, source: HashSource): Uint8Array {
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < tile.width; i++)
    hashes.push(source.perfect(tile.level * TILE_HEIGHT, tile.index * TILE_WIDTH + i));
  return concatBytes(...hashes);
}

/**
 * A hash source over tiles of a tree of `size` leaves; `read` answers a tile's bytes (at the width
 * tileOfSubtree names) or undefined. Throws E_SCHEMA for a missing or wrongly sized tile.
 */
export function tileHashSource(size: number, read: (tile: Tile) => Uint8Array | undefined): HashSource {
  return {
    perfect(level, index) {
      const tile = tileOfSubtree({ level, index }, size);
      const data = read(tile);
      if (!data || data.length !== tile.width * HASH_BYTES)
        throw new TrestleError("E_SCHEMA", `tile ${tilePath(tile)} is missing or not ${tile.width} hashes`);
      const span = 2 ** (level - tile.level * TILE_HEIGHT);
      const first = index * span - tile.index * TILE_WIDTH;
      let row: Uint8Array[] = [];
      for (let i = 0; i < span; i++) row.push(data.subarray((first + i) * HASH_BYTES, (first + i + 1) * HASH_BYTES));
      while (row.length > 1) row = row.filter((_, i) => i % 2 === 0).map((left, i) => nodeHash(left, row[2 * i + 1]!));
      return row[0]!;
    },
  };
}

/** An entry is at most 65535 bytes in a bundle (its length is a big-endian uint16). */
export const ENTRY_BUNDLE_MAX_ENTRY_BYTES = 0xffff;

/** An entry bundle: each entry as a big-endian uint16 length and its bytes; E_TOO_LARGE for an entry past 65535 bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  if (entries.length > TILE_WIDTH) throw new TrestleError("E_TOO_LARGE", "an entry bundle holds at most 256 entries");
  return concatBytes(
    ...entries.flatMap((entry) => {
      if (entry.length > ENTRY_BUNDLE_MAX_ENTRY_BYTES)
        throw new TrestleError("E_TOO_LARGE", "an entry in a bundle is at most 65535 bytes");
      return [Uint8Array.of(entry.length >> 8, entry.length & 0xff), entry];
    }),
  );
}

/** The entries of a bundle; E_SCHEMA when a length runs past the end or there are more than 256. */
export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  for (let at = 0; at < bundle.length;) {
    if (at + 2 > bundle.length) throw new TrestleError("E_SCHEMA", "an entry bundle ends inside a length");
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.length) throw new TrestleError("E_SCHEMA", "an entry bundle ends inside an entry");
    entries.push(bundle.slice(at + 2, at + 2 + length));
    at += 2 + length;
  }
  if (entries.length > TILE_WIDTH) throw new TrestleError("E_SCHEMA", "an entry bundle holds at most 256 entries");
  return entries;
}

function checkIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new TrestleError("E_SCHEMA", "a tile index is a non-negative safe integer");
}
