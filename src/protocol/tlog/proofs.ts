/**
 * Merkle inclusion and consistency proofs of RFC 9162 §2.1.3 and §2.1.4 (the same proofs as RFC 6962
 * §2.1.1 and §2.1.2): made from a source of perfect-subtree hashes, and verified from the proof alone.
 * Verification never throws; it answers false for any proof that does not fit.
 */
import { TrestleError } from "../errors.js";
import { bytesEqual } from "../encoding/bytes.js";
import { EMPTY_ROOT, HASH_BYTES, isPowerOfTwo, nodeHash, splitPoint } from "./merkle.js";

/** Hashes of perfect subtrees: `perfect(level, index)` is MTH of leaves [index·2^level, (index+1)·2^level). */
export interface HashSource {
  perfect(level: number, index: number): Uint8Array;
}

/** A perfect subtree of a tree: `level` is its height, `index` its position among subtrees of that height. */
export interface SubtreeRef {
  readonly level: number;
  readonly index: number;
}

/** A range of leaves [start, end) whose MTH is one proof element, in proof order. */
export type LeafRange = readonly [start: number, end: number];

/** A proof has at most 63 hashes for any tree below 2^63 leaves (tlog-witness caps it there too). */
export const MAX_PROOF_HASHES = 63;

/** The perfect subtrees whose hashes make MTH(D[start:end]), left to right; start must be aligned as in RFC 9162's recursion. */
export function rangeSubtrees(start: number, end: number): SubtreeRef[] {
  const n = end - start;
  if (isPowerOfTwo(n) && start % n === 0) return [{ level: Math.round(Math.log2(n)), index: start / n }];
  if (n < 2) throw new RangeError(`no Merkle subtree covers [${start}, ${end})`);
  const k = splitPoint(n);
  return [...rangeSubtrees(start, start + k), ...rangeSubtrees(start + k, end)];
}

/** MTH(D[start:end]) from a hash source (RFC 9162 §2.1.1's recursion over perfect subtrees); EMPTY_ROOT for no leaves. */
export function rangeHash(start: number, end: number, source: HashSource): Uint8Array {
  const n = end - start;
  if (n === 0) return EMPTY_ROOT;
  if (n < 0) throw new RangeError(`no Merkle subtree covers [${start}, ${end})`);
  if (isPowerOfTwo(n) && start % n === 0) return source.perfect(Math.round(Math.log2(n)), start / n);
  const k = splitPoint(n);
  return nodeHash(rangeHash(start, start + k, source), rangeHash(start + k, end, source));
}

/** The ranges PATH(index, D[0:size]) hashes (RFC 9162 §2.1.3.1), in proof order; needs index < size. */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  checkSizes(index, size, index < size, "an inclusion proof needs index < size");
  const out: LeafRange[] = [];
  const walk = (start: number, end: number): void => {
    if (end - start <= 1) return;
    const mid = start + splitPoint(end - start);
    if (index < mid) {
      walk(start, mid);
      out.push([mid, end]);
    } else {
      walk(mid, end);
      out.push([start, mid]);
    }
  };
  walk(0, size);
  return out;
}

/** The ranges PROOF(first, D[0:second]) hashes (RFC 9162 §2.1.4.1), in proof order; empty when first is 0 or equals second. */
export function consistencyRanges(first: number, second: number): LeafRange[] {
  checkSizes(first, second, first <= second, "a consistency proof needs first ≤ second");
  const out: LeafRange[] = [];
  const sub = (m: number, start: number, end: number, whole: boolean): void => {
    if (start + m === end) {
      if (!whole) out.push([start, end]);
      return;
    }
    const mid = start + splitPoint(end - start);
    if (start + m <= mid) {
      sub(m, start, mid, whole);
      out.push([mid, end]);
    } else {
      sub(start + m - mid, mid, end, false);
      out.push([start, mid]);
    }
  };
  if (first > 0 && first < second) sub(first, 0, second, true);
  return out;
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves. */
export function inclusionProof(index: number, size: number, source: HashSource): Uint8Array[] {
  return inclusionRanges(index, size).map(([start, end]) => rangeHash(start, end, source));
}

/** The consistency proof from the tree of `first` leaves to the tree of `second` leaves. */
export function consistencyProof(first: number, second: number, source: HashSource): Uint8Array[] {
  return consistencyRanges(first, second).map(([start, end]) => rangeHash(start, end, source));
}

/** True iff `proof` shows the leaf hash at `index` is in the tree of `size` leaves with root `root` (RFC 9162 §2.1.3.2). */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!validSizes(index, size) || index >= size || !validHashes([leaf, root, ...proof])) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && bytesEqual(r, root);
}

/**
 * True iff `proof` shows the tree of `first` leaves with root `firstRoot` is a prefix of the tree of
 * `second` leaves with root `secondRoot` (RFC 9162 §2.1.4.2). Equal sizes need an empty proof and
 * equal roots; first = 0 needs an empty proof (the empty tree is a prefix of every tree, tlog-witness).
 */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): boolean {
  if (!validSizes(first, second) || first > second || !validHashes([firstRoot, secondRoot, ...proof])) return false;
  if (first === 0 || first === second) return proof.length === 0 && (first === 0 || bytesEqual(firstRoot, secondRoot));
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) [fn, sn] = [(fn - 1) / 2, Math.floor(sn / 2)];
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && bytesEqual(fr, firstRoot) && bytesEqual(sr, secondRoot);
}

/** A hash source over every leaf hash of a tree held in memory; each level is built once. */
export function memoryHashSource(leafHashes: readonly Uint8Array[]): HashSource {
  const levels: Uint8Array[][] = [[...leafHashes]];
  return {
    perfect(level, index) {
      while (levels.length <= level) {
        const below = levels[levels.length - 1]!;
        const next: Uint8Array[] = [];
        for (let i = 0; i + 1 < below.length; i += 2) next.push(nodeHash(below[i]!, below[i + 1]!));
        levels.push(next);
      }
      const hash = levels[level]![index];
      if (hash === undefined) throw new RangeError(`no perfect subtree at level ${level}, index ${index}`);
      return hash;
    },
  };
}

function validSizes(a: number, b: number): boolean {
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && a >= 0 && b >= 0;
}

function validHashes(hashes: readonly Uint8Array[]): boolean {
  return (
    hashes.length <= MAX_PROOF_HASHES + 2 && hashes.every((h) => h instanceof Uint8Array && h.length === HASH_BYTES)
  );
}

function checkSizes(a: number, b: number, ordered: boolean, message: string): void {
  if (!validSizes(a, b) || !ordered) throw new TrestleError("E_SCHEMA", message, { sizes: [a, b] });
}
