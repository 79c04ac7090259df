/**
 * C2SP tlog-tiles: path encoding and strict parsing, the specification's size examples, proofs and
 * roots computed from tiles alone (equal to those from every leaf), and entry bundles.
 */
import { describe, expect, it } from "vitest";
import {
  consistencyProof,
  consistencyRanges,
  decodeEntryBundle,
  encodeEntryBundle,
  inclusionProof,
  inclusionRanges,
  leafHash,
  memoryHashSource,
  parseTilePath,
  rangeHash,
  rootOfLeafHashes,
  tileBytes,
  tileHashSource,
  tileIndexPath,
  tilePath,
  tilesForRanges,
  tilesForSize,
  toHex,
  type Tile,
} from "../../../../src/protocol/index.js";
import { refusalCode } from "../../../support/refused.js";
import { generatedLeaf } from "./reference.js";

describe("tile paths", () => {
  it("encode indexes in x-prefixed groups of three digits, as the specification's example", () => {
    expect(tileIndexPath(1234067)).toBe("x001/x234/067");
    expect(tileIndexPath(0)).toBe("000");
    expect(tileIndexPath(1000)).toBe("x001/000");
    expect(tilePath({ level: 0, index: 1234067, width: 256 })).toBe("tile/0/x001/x234/067");
    expect(tilePath({ level: 2, index: 5, width: 17 })).toBe("tile/2/005.p/17");
    expect(tilePath({ level: "entries", index: 273, width: 112 })).toBe("tile/entries/273.p/112");
  });

  it("parse back what they write", () => {
    for (const path of ["tile/0/x001/x234/067", "tile/63/000", "tile/entries/273.p/112", "tile/1/x999/999.p/255"]) {
      expect(tilePath(parseTilePath(path))).toBe(path);
    }
    expect(parseTilePath("tile/entries/001")).toEqual({ level: "entries", index: 1, width: 256 });
  });

  describe("when a path is not canonical", () => {
    const bad = [
      "tile/0/1",
      "tile/0/0001",
      "tile/00/000",
      "tile/64/000",
      "tile/0/x000/001",
      "tile/0/001/002",
      "tile/0/x001",
      "tile/0/000.p/0",
      "tile/0/000.p/256",
      "tile/0/000.p/017",
      "tile/0/000.p/",
      "tile/data/000",
      "tile/8/0/000",
      "/tile/0/000",
      "tile/0/000/",
    ];
    for (const path of bad) {
      it(`refuses ${path} with E_SCHEMA`, async () => {
        expect(await refusalCode(() => parseTilePath(path))).toBe("E_SCHEMA");
      });
    }
  });
});

describe("the tiles of a tree", () => {
  const summary = (tiles: Tile[]) => {
    const out = new Map<string, number>();
    for (const t of tiles) out.set(`L${t.level} w${t.width}`, (out.get(`L${t.level} w${t.width}`) ?? 0) + 1);
    return Object.fromEntries(out);
  };

  it("are, at size 70,000, 273 full and one 112-wide at level 0, a full and a 17-wide at level 1, and one 1-wide at level 2", () => {
    expect(summary(tilesForSize(70000))).toEqual({
      "L0 w256": 273,
      "L0 w112": 1,
      "L1 w256": 1,
      "L1 w17": 1,
      "L2 w1": 1,
    });
  });

  it("are, at size 256, one full level-0 tile and a 1-wide level-1 tile", () => {
    expect(summary(tilesForSize(256))).toEqual({ "L0 w256": 1, "L1 w1": 1 });
    expect(tilesForSize(0)).toEqual([]);
  });
});

describe("proofs and roots from tiles", () => {
  const SIZE = 70000;
  const leaves = Array.from({ length: SIZE }, (_, i) => leafHash(generatedLeaf(i)));
  const memory = memoryHashSource(leaves);
  const served = new Map(tilesForSize(SIZE).map((t) => [tilePath(t), tileBytes(t, memory)]));

  it("serve tiles whose level-0 bytes are the leaf hashes themselves", () => {
    expect(toHex(rangeHash(0, 1000, memory))).toBe(toHex(rootOfLeafHashes(leaves.slice(0, 1000))));
    expect(served.get("tile/0/001")!.subarray(0, 32)).toEqual(leaves[256]);
    expect(served.get("tile/0/273.p/112")).toHaveLength(112 * 32);
  });

  it("give the same roots, inclusion and consistency proofs as every leaf does, fetching only the tiles named", () => {
    const cases: [number, number][] = [
      [0, 1],
      [255, 256],
      [256, 257],
      [1000, 65536],
      [65535, 65537],
      [69999, 70000],
      [12345, 70000],
    ];
    for (const [index, size] of cases) {
      const needed = tilesForRanges(
        [...inclusionRanges(index, size), ...consistencyRanges(index, size), [0, size]],
        size,
      );
      const fetched = new Set<string>();
      const fromTiles = tileHashSource(size, (tile) => {
        const path = tilePath(tile);
        fetched.add(path);
        const full = served.get(tilePath({ ...tile, width: 256 }));
        return full?.subarray(0, tile.width * 32) ?? served.get(path);
      });
      expect(toHex(rangeHash(0, size, fromTiles))).toBe(toHex(rangeHash(0, size, memory)));
      expect(inclusionProof(index, size, fromTiles).map(toHex)).toEqual(inclusionProof(index, size, memory).map(toHex));
      expect(consistencyProof(index, size, fromTiles).map(toHex)).toEqual(
        consistencyProof(index, size, memory).map(toHex),
      );
      expect([...fetched].every((p) => needed.some((t) => tilePath(t) === p))).toBe(true);
    }
  });

  describe("when a tile is missing or short", () => {
    it("refuses with E_SCHEMA", async () => {
      const none = tileHashSource(SIZE, () => undefined);
      expect(await refusalCode(() => inclusionProof(5, SIZE, none))).toBe("E_SCHEMA");
      const short = tileHashSource(SIZE, () => new Uint8Array(32));
      expect(await refusalCode(() => inclusionProof(5, SIZE, short))).toBe("E_SCHEMA");
    });
  });
});

describe("entry bundles", () => {
  it("round-trip entries as big-endian uint16 lengths and bytes", () => {
    const entries = [new Uint8Array(0), Uint8Array.of(1, 2, 3), new Uint8Array(0xffff).fill(7)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.subarray(0, 5)]).toEqual([0, 0, 0, 3, 1]);
    const decoded = decodeEntryBundle(bundle);
    expect(decoded.map((e) => toHex(e))).toEqual(entries.map((e) => toHex(e)));
  });

  describe("when an entry is too long or the bytes are cut", () => {
    it("refuses with E_TOO_LARGE to write, and E_SCHEMA to read", async () => {
      expect(await refusalCode(() => encodeEntryBundle([new Uint8Array(0x10000)]))).toBe("E_TOO_LARGE");
      expect(await refusalCode(() => encodeEntryBundle(Array.from({ length: 257 }, () => new Uint8Array(0))))).toBe(
        "E_TOO_LARGE",
      );
      expect(await refusalCode(() => decodeEntryBundle(Uint8Array.of(0, 3, 1, 2)))).toBe("E_SCHEMA");
      expect(await refusalCode(() => decodeEntryBundle(Uint8Array.of(0)))).toBe("E_SCHEMA");
      expect(await refusalCode(() => decodeEntryBundle(new Uint8Array(2 * 257)))).toBe("E_SCHEMA");
    });
  });
});
