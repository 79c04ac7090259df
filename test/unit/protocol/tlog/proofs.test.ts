/**
 * Inclusion and consistency proofs (RFC 9162 §2.1.3, §2.1.4): the CT test vectors, the naive RFC
 * recursion at every size 1..64, and refusal of every flipped bit, wrong size and reordered proof.
 */
import { describe, expect, it } from "vitest";
import {
  consistencyProof,
  fromHex,
  inclusionProof,
  leafHash,
  memoryHashSource,
  rangeHash,
  rootOfLeafHashes,
  toHex,
  verifyConsistency,
  verifyInclusion,
} from "../../../../src/protocol/index.js";
import { CT_CONSISTENCY, CT_INCLUSION, CT_LEAVES, generatedLeaf, mth, path, proof } from "./reference.js";
import { refusalCode } from "../../../support/refused.js";

const MAX = 64;
const data = Array.from({ length: MAX }, (_, i) => generatedLeaf(i));
const leaves = data.map(leafHash);
const source = memoryHashSource(leaves);
const roots = Array.from({ length: MAX + 1 }, (_, n) => rootOfLeafHashes(leaves.slice(0, n)));

/** Every copy of a proof with one bit flipped. */
function flips(proof: Uint8Array[]): Uint8Array[][] {
  return proof.flatMap((hash, i) =>
    Array.from({ length: 256 }, (_, bit) => {
      const copy = proof.map((h) => h.slice());
      copy[i]![bit >> 3]! ^= 1 << (bit & 7);
      return copy;
    }).filter((_, bit) => bit % 37 === i % 37),
  );
}

describe("inclusion proofs", () => {
  it("match the CT test vectors and verify against the CT roots", () => {
    const ct = memoryHashSource(CT_LEAVES.map(leafHash));
    for (const [index, size, want] of CT_INCLUSION) {
      const got = inclusionProof(index, size, ct);
      expect(got.map(toHex)).toEqual(want);
      expect(
        verifyInclusion(
          index,
          size,
          leafHash(CT_LEAVES[index]!),
          want.map(fromHex),
          rootOfLeafHashes(CT_LEAVES.slice(0, size).map(leafHash)),
        ),
      ).toBe(true);
    }
  });

  it("equal the RFC's PATH and verify for every leaf of every size 1..64", () => {
    const wrong: string[] = [];
    for (let size = 1; size <= MAX; size++) {
      for (let index = 0; index < size; index++) {
        const got = inclusionProof(index, size, source);
        if (got.map(toHex).join() !== path(index, data, size).map(toHex).join()) wrong.push(`path ${index} of ${size}`);
        if (!verifyInclusion(index, size, leaves[index]!, got, roots[size]!)) wrong.push(`verify ${index} of ${size}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  describe("when the proof, leaf, index, size or root is wrong", () => {
    it("refuses every one, never throwing", () => {
      for (const [index, size] of [
        [0, 1],
        [3, 7],
        [5, 8],
        [12, 13],
        [31, 64],
        [40, 61],
      ] as const) {
        const good = inclusionProof(index, size, source);
        const root = roots[size]!;
        const leaf = leaves[index]!;
        for (const bad of flips(good)) expect(verifyInclusion(index, size, leaf, bad, root)).toBe(false);
        expect(verifyInclusion(index, size, leaves[(index + 1) % size]!, good, size === 1 ? roots[2]! : root)).toBe(
          false,
        );
        expect(verifyInclusion(index + 1, size, leaf, good, root)).toBe(false);
        if (index > 0) expect(verifyInclusion(index - 1, size, leaf, good, root)).toBe(false);
        expect(verifyInclusion(index, size * 2, leaf, good, root)).toBe(false);
        expect(verifyInclusion(index, size + 1, leaf, good, roots[size + 1] ?? root)).toBe(false);
        expect(verifyInclusion(index, size, leaf, [...good, root], root)).toBe(false);
        expect(verifyInclusion(index, size, leaf, [root, ...good], root)).toBe(false);
        if (good.length > 0) expect(verifyInclusion(index, size, leaf, good.slice(0, -1), root)).toBe(false);
        if (good.length > 1) expect(verifyInclusion(index, size, leaf, [...good].reverse(), root)).toBe(false);
        expect(verifyInclusion(index, size, leaf, good, roots[0]!)).toBe(false);
        expect(verifyInclusion(index, size, leaf, [...good.slice(0, -1), new Uint8Array(31)], root)).toBe(false);
      }
      expect(verifyInclusion(1, 1, leaves[0]!, [], roots[1]!)).toBe(false);
      expect(verifyInclusion(0, 0, leaves[0]!, [], roots[0]!)).toBe(false);
      expect(verifyInclusion(-1, 4, leaves[0]!, [], roots[4]!)).toBe(false);
      expect(verifyInclusion(0.5, 4, leaves[0]!, [], roots[4]!)).toBe(false);
    });
  });
});

describe("consistency proofs", () => {
  it("match the CT test vectors and verify between the CT roots", () => {
    const ct = memoryHashSource(CT_LEAVES.map(leafHash));
    const ctRoot = (n: number) => rootOfLeafHashes(CT_LEAVES.slice(0, n).map(leafHash));
    for (const [first, second, want] of CT_CONSISTENCY) {
      expect(consistencyProof(first, second, ct).map(toHex)).toEqual(want);
      expect(verifyConsistency(first, second, want.map(fromHex), ctRoot(first), ctRoot(second))).toBe(true);
    }
  });

  it("equal the RFC's PROOF and verify for every pair of sizes 0 ≤ m ≤ n ≤ 64", () => {
    const wrong: string[] = [];
    for (let second = 1; second <= MAX; second++) {
      for (let first = 0; first <= second; first++) {
        const got = consistencyProof(first, second, source);
        const want = first === 0 ? [] : proof(first, data, second);
        if (got.map(toHex).join() !== want.map(toHex).join()) wrong.push(`proof ${first} to ${second}`);
        if (!verifyConsistency(first, second, got, roots[first]!, roots[second]!))
          wrong.push(`verify ${first} to ${second}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  describe("when the proof, a size or a root is wrong", () => {
    it("refuses every one, never throwing", () => {
      for (const [first, second] of [
        [1, 2],
        [3, 7],
        [4, 8],
        [6, 8],
        [13, 64],
        [32, 33],
        [50, 63],
      ] as const) {
        const good = consistencyProof(first, second, source);
        const [a, b] = [roots[first]!, roots[second]!];
        for (const bad of flips(good)) expect(verifyConsistency(first, second, bad, a, b)).toBe(false);
        expect(verifyConsistency(first, second, good, roots[first - 1]!, b)).toBe(false);
        expect(verifyConsistency(first, second, good, a, roots[second - 1]!)).toBe(false);
        expect(verifyConsistency(first + 1, second, good, roots[first + 1]!, b)).toBe(false);
        expect(verifyConsistency(first, second + 1, good, a, roots[second + 1] ?? b)).toBe(false);
        expect(verifyConsistency(first, second, [...good, a], a, b)).toBe(false);
        expect(verifyConsistency(first, second, good.slice(1), a, b)).toBe(false);
        expect(verifyConsistency(first, second, [], a, b)).toBe(false);
        expect(verifyConsistency(second, first, good, b, a)).toBe(false);
      }
      expect(verifyConsistency(5, 5, [], roots[5]!, roots[5]!)).toBe(true);
      expect(verifyConsistency(5, 5, [], roots[5]!, roots[6]!)).toBe(false);
      expect(verifyConsistency(5, 5, [roots[5]!], roots[5]!, roots[5]!)).toBe(false);
      expect(verifyConsistency(0, 5, [], roots[0]!, roots[5]!)).toBe(true);
      expect(verifyConsistency(0, 5, [roots[5]!], roots[0]!, roots[5]!)).toBe(false);
    });
  });
});

describe("range hashes", () => {
  it("give the empty tree's root for no leaves, and every prefix's root", () => {
    expect(toHex(rangeHash(0, 0, source))).toBe(toHex(roots[0]!));
    for (let n = 1; n <= MAX; n++) expect(toHex(rangeHash(0, n, source))).toBe(toHex(roots[n]!));
  });
});

describe("when a proof is asked for sizes that do not exist", () => {
  it("refuses with E_SCHEMA", () => {
    expect(refusalCode(() => inclusionProof(4, 4, source))).toBe("E_SCHEMA");
    expect(refusalCode(() => inclusionProof(-1, 4, source))).toBe("E_SCHEMA");
    expect(refusalCode(() => consistencyProof(5, 4, source))).toBe("E_SCHEMA");
    expect(toHex(mth(data, 3))).toBe(toHex(roots[3]!));
  });
});
