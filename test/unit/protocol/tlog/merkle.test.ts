/** RFC 6962 hashing and the frontier a table keeps: CT reference vectors, and the naive recursion at every size. */
import { describe, expect, it } from "vitest";
import {
  appendToFrontier,
  EMPTY_FRONTIER,
  EMPTY_ROOT,
  frontierFromRecord,
  FrontierSchema,
  frontierRoot,
  frontierToRecord,
  leafHash,
  nodeHash,
  rootOfLeafHashes,
  toHex,
  utf8,
  type Frontier,
} from "../../../../src/protocol/index.js";
import { CT_LEAVES, CT_ROOTS, generatedLeaf, mth } from "./reference.js";

describe("leaf and node hashes", () => {
  it("match the RFC 6962 hasher vectors of the CT tests", () => {
    expect(toHex(EMPTY_ROOT)).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(toHex(leafHash(new Uint8Array(0)))).toBe("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
    expect(toHex(leafHash(utf8("L123456")))).toBe("395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56");
    expect(toHex(nodeHash(utf8("N123"), utf8("N456")))).toBe(
      "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb",
    );
  });
});

describe("roots", () => {
  it("match the CT roots for sizes 0 to 8", () => {
    for (let n = 0; n <= 8; n++) expect(toHex(rootOfLeafHashes(CT_LEAVES.slice(0, n).map(leafHash)))).toBe(CT_ROOTS[n]);
  });

  it("equal the naive recursion, and the frontier's root, at every size up to 130", () => {
    const data = Array.from({ length: 130 }, (_, i) => generatedLeaf(i));
    let frontier: Frontier = EMPTY_FRONTIER;
    for (let n = 0; n <= 130; n++) {
      const want = toHex(mth(data, n));
      expect(toHex(frontierRoot(frontier))).toBe(want);
      expect(frontier.nodes.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n + 1)));
      if (n < 130) frontier = appendToFrontier(frontier, leafHash(data[n]!));
    }
    expect(toHex(rootOfLeafHashes(data.map(leafHash)))).toBe(toHex(frontierRoot(frontier)));
  });

  it("do not change the frontier they were appended to", () => {
    const one = appendToFrontier(EMPTY_FRONTIER, leafHash(CT_LEAVES[0]!));
    appendToFrontier(one, leafHash(CT_LEAVES[1]!));
    expect(one.size).toBe(1);
    expect(toHex(frontierRoot(one))).toBe(CT_ROOTS[1]);
  });
});

describe("stored frontiers", () => {
  it("round-trip through their record", () => {
    const frontier = CT_LEAVES.slice(0, 7).map(leafHash).reduce(appendToFrontier, EMPTY_FRONTIER);
    const record = FrontierSchema.parse(JSON.parse(JSON.stringify(frontierToRecord(frontier))));
    expect(toHex(frontierRoot(frontierFromRecord(record)))).toBe(CT_ROOTS[7]);
  });

  describe("when a record does not fit its size", () => {
    it("refuses one node too many or too few, and a negative size", () => {
      const node = "00".repeat(32);
      expect(FrontierSchema.safeParse({ size: 3, nodes: [node] }).success).toBe(false);
      expect(FrontierSchema.safeParse({ size: 4, nodes: [node, node] }).success).toBe(false);
      expect(FrontierSchema.safeParse({ size: -1, nodes: [] }).success).toBe(false);
      expect(FrontierSchema.safeParse({ size: 4, nodes: [node] }).success).toBe(true);
    });
  });
});
