/**
 * The table's RFC 6962 Merkle tree in SQLite (docs/SPEC.md §12, decision 0395): one `tlog_tiles`
 * row per full tile (256 hashes at Merkle level 8·L and their root), written in the same
 * transaction as the entries that fill it, so an entry costs no row beyond its own (1/256 of one
 * on average). The tails (hashes not yet in a full tile) live in memory, read back from the
 * entries' `leaf` values and the tile rows' roots on first use after a wake, identically. A table
 * written before the tiles existed gets its tile rows on that first use (a one-time O(n) backfill).
 */
import { fromHex } from "../../../src/protocol/encoding/bytes.js";
import { TrestleError } from "../../../src/protocol/errors.js";
import { HASH_BYTES } from "../../../src/protocol/tlog/merkle.js";
import {
  appendToTails,
  EMPTY_TAILS,
  tailsOf,
  tailsRoot,
  tailWidths,
  type FullTile,
  type TileTails,
} from "../../../src/protocol/tlog/tile-tails.js";
import type { HashSource } from "../../../src/protocol/tlog/proofs.js";
import { tileHashSource, tilePath, TILE_WIDTH, type Tile } from "../../../src/protocol/tlog/tiles.js";
import { ensureTable, hasTable } from "./schema.js";

/** Leaves read per query while backfilling an old table's tiles. */
const BACKFILL_CHUNK = 4096;

/** A table's Merkle tree: tile rows in SQLite, tails in memory. */
export class MerkleTree {
  private tails: TileTails | null = null;

  constructor(
    private readonly sql: SqlStorage,
    /** The ledger's size now (its newest seq). */
    private readonly size: () => number,
  ) {}

  /** The tails after appending `leaves` (hex leaf hashes), writing the tile rows that became full; call inside the entries' transaction, then `adopt` after it commits. */
  grow(leaves: readonly string[]): TileTails {
    const { tails, full } = appendToTails(this.load(), leaves.map(fromHex));
    for (const tile of full) this.writeTile(tile);
    return tails;
  }

  /** Makes `tails` (from `grow`) current, once the transaction that wrote its rows committed. */
  adopt(tails: TileTails): void {
    this.tails = tails;
  }

  /** The root of the tree of every entry now. */
  root(): Uint8Array {
    return tailsRoot(this.load());
  }

  /**
   * The bytes of a tile at `width` as a tree of `treeSize` ≤ now leaves shows it: a full tile's
   * row, or the first `width` hashes of the tile it grew into (tlog-tiles lets a partial tile be
   * read later from its full one's prefix). E_NOT_FOUND when the tree has no such hashes yet.
   */
  tile(tile: Tile): Uint8Array {
    const tails = this.load();
    const row =
      hasTable(this.sql, "tlog_tiles") &&
      this.sql.exec("SELECT hashes FROM tlog_tiles WHERE level = ? AND idx = ?", tile.level, tile.index).toArray()[0];
    if (row) return new Uint8Array(row.hashes as ArrayBuffer).slice(0, tile.width * HASH_BYTES);
    const tail = tails.levels[tile.level] ?? [];
    const tailIndex = Math.floor(tails.size / TILE_WIDTH ** (tile.level + 1));
    if (tile.index !== tailIndex || tile.width > tail.length)
      throw new TrestleError(
        "E_NOT_FOUND",
        `the tree of ${tails.size} leaves has no tile ${tile.level}/${tile.index} of width ${tile.width}`,
      );
    const out = new Uint8Array(tile.width * HASH_BYTES);
    tail.slice(0, tile.width).forEach((hash, i) => out.set(hash, i * HASH_BYTES));
    return out;
  }

  /** The tree's hashes now (for proofs the relay makes), each tile read at most once per source. */
  hashSource(): HashSource {
    const read = new Map<string, Uint8Array>();
    return tileHashSource(this.load().size, (tile) => {
      const path = tilePath(tile);
      if (!read.has(path)) read.set(path, this.tile(tile));
      return read.get(path);
    });
  }

  /** The tails, read back (and the tile rows backfilled) on first use after a wake. */
  private load(): TileTails {
    if (this.tails) return this.tails;
    const size = this.size();
    if (size === 0) return EMPTY_TAILS;
    const fullLeafTiles = hasTable(this.sql, "tlog_tiles")
      ? Number(this.sql.exec("SELECT count(*) AS n FROM tlog_tiles WHERE level = 0").one().n)
      : 0;
    if (fullLeafTiles !== Math.floor(size / TILE_WIDTH)) this.backfill(size);
    const levels = tailWidths(size).map((width, level) => {
      const end = Math.floor(size / TILE_WIDTH ** level);
      if (level === 0) return this.leaves(end - width + 1, end);
      return this.sql
        .exec(
          "SELECT root FROM tlog_tiles WHERE level = ? AND idx >= ? AND idx < ? ORDER BY idx",
          level - 1,
          end - width,
          end,
        )
        .toArray()
        .map((r) => new Uint8Array(r.root as ArrayBuffer));
    });
    this.tails = tailsOf(size, levels);
    return this.tails;
  }

  /** Writes every full tile of the first `size` entries that has no row (a table from before the tiles). */
  private backfill(size: number): void {
    let tails = EMPTY_TAILS;
    for (let from = 1; from <= size; from += BACKFILL_CHUNK) {
      const grown = appendToTails(tails, this.leaves(from, Math.min(size, from + BACKFILL_CHUNK - 1)));
      for (const tile of grown.full) this.writeTile(tile, true);
      tails = grown.tails;
    }
  }

  /** The leaf hashes of entries from..to (seqs), from each row's chained `leaf`. */
  private leaves(from: number, to: number): Uint8Array[] {
    if (to < from) return [];
    return this.sql
      .exec(
        "SELECT json_extract(entry, '$.leaf') AS leaf FROM entries WHERE seq >= ? AND seq <= ? ORDER BY seq",
        from,
        to,
      )
      .toArray()
      .map((r) => fromHex(String(r.leaf)));
  }

  private writeTile(tile: FullTile, ifAbsent = false): void {
    const verb = ifAbsent ? "INSERT OR IGNORE" : "INSERT";
    ensureTable(this.sql, "tlog_tiles");
    this.sql.exec(
      `${verb} INTO tlog_tiles (level, idx, hashes, root) VALUES (?, ?, ?, ?)`,
      tile.level,
      tile.index,
      blob(tile.hashes),
      blob(tile.root),
    );
  }
}

/** A copy of `bytes` as the ArrayBuffer SQLite binds as a BLOB. */
function blob(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
