import { describe, expect, it } from "vitest";
import { concatBytes, toHex, utf8 } from "../../../../src/protocol/encoding/bytes.js";
import {
  appendToFrontier,
  EMPTY_FRONTIER,
  frontierRoot,
  leafHash,
  rootOfLeafHashes,
} from "../../../../src/protocol/tlog/merkle.js";
import { memoryHashSource } from "../../../../src/protocol/tlog/proofs.js";
import {
  appendToTails,
  EMPTY_TAILS,
  tailsFrontier,
  tailsOf,
  tailsRoot,
  tailWidths,
} from "../../../../src/protocol/tlog/tile-tails.js";
import { tileBytes, tilesForSize } from "../../../../src/protocol/tlog/tiles.js";
import { refusalCode } from "../../../support/refused.js";

const leaves = (n: number, from = 0) => Array.from({ length: n }, (_, i) => leafHash(utf8(`entry ${from + i}`)));

describe("tile tails", () => {
  it("give the same root and frontier as the whole tree at every size, appended in uneven batches", () => {
    const all = leaves(3000);
    let tails = EMPTY_TAILS;
    let frontier = EMPTY_FRONTIER;
    for (let at = 0; at < all.length;) {
      const batch = all.slice(at, at + 1 + (at % 613));
      tails = appendToTails(tails, batch).tails;
      frontier = batch.reduce(appendToFrontier, frontier);
      at += batch.length;
      {
        expect(toHex(tailsRoot(tails))).toBe(toHex(frontierRoot(frontier)));
        expect(tailsFrontier(tails).nodes.map(toHex)).toEqual(frontier.nodes.map(toHex));
      }
    }
    expect(toHex(tailsRoot(tails))).toBe(toHex(rootOfLeafHashes(all)));
  });

  it(
    "emit each full tile once, with the bytes tileBytes makes and its root, level 1 after its 256th level-0 tile",
    { timeout: 60_000 },
    () => {
      // Distinct 32-byte leaves without hashing each one: only the tree's own hashes cost time here.
      const all = Array.from({ length: 65_536 + 300 }, (_, i) =>
        new Uint8Array(32).fill(i % 251).map((b, j) => (j < 4 ? (i >> (8 * j)) & 0xff : b)),
      );
      const source = memoryHashSource(all);
      const { tails, full } = appendToTails(EMPTY_TAILS, all);
      const expected = tilesForSize(all.length).filter((t) => t.width === 256);
      expect(full.map((t) => `${t.level}/${t.index}`).sort()).toEqual(
        expected.map((t) => `${t.level}/${t.index}`).sort(),
      );
      for (const tile of full.filter((t) => t.index === 0 || t.index === 255 || t.level === 1)) {
        expect(toHex(tile.hashes)).toBe(toHex(tileBytes({ level: tile.level, index: tile.index, width: 256 }, source)));
        expect(toHex(tile.root)).toBe(toHex(source.perfect(tile.level * 8 + 8, tile.index)));
      }
      expect(tails.levels.map((l) => l.length)).toEqual(tailWidths(all.length));
      expect(tailWidths(all.length)).toEqual([44, 1, 1]);
    },
  );

  it("are rebuilt from their stored hashes into the same tails", () => {
    const { tails } = appendToTails(EMPTY_TAILS, leaves(1000));
    const again = tailsOf(1000, tails.levels);
    expect(toHex(tailsRoot(again))).toBe(toHex(tailsRoot(tails)));
  });

  describe("when the stored hashes do not fit the size", () => {
    it("refuse them with E_SCHEMA", async () => {
      const { tails } = appendToTails(EMPTY_TAILS, leaves(300));
      expect(await refusalCode(() => tailsOf(301, tails.levels))).toBe("E_SCHEMA");
      expect(await refusalCode(() => tailsOf(300 + 256, tails.levels))).toBe("E_SCHEMA");
      expect(await refusalCode(() => appendToTails(EMPTY_TAILS, [concatBytes(new Uint8Array(31))]))).toBe("E_SCHEMA");
    });
  });
});
