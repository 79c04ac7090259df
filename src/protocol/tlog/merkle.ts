/**
 * The RFC 6962 / RFC 9162 §2.1 Merkle Tree Hash over SHA-256: leaf and node hashes, the root of a
 * list of leaf hashes, and the O(log n) frontier a table keeps to append a leaf and know its root.
 * Tree sizes are safe integers; the arithmetic avoids 32-bit bitwise operators on purpose.
 */
import * as z from "zod";
import { concatBytes, fromHex, toHex } from "../encoding/bytes.js";
import { sha256, type HashFunction } from "../encoding/hash.js";
import { Sha256Schema } from "../schemas/primitives.js";

/** A SHA-256 digest is 32 bytes. */
export const HASH_BYTES = 32;

/** MTH({}) = SHA-256 of the empty string, the root of the empty tree (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** RFC 9162 §2.1.1's two hashes over a given SHA-256 (`hash`): a chain's `leaf` is `leaf` of its entry's canonical bytes and its `link` is `node` of the previous link and the leaf (ledger/chain.ts, SPEC §4.3). */
export function treeHashes(hash: HashFunction): {
  leaf(data: Uint8Array): Uint8Array;
  node(left: Uint8Array, right: Uint8Array): Uint8Array;
} {
  return {
    leaf: (data) => hash(concatBytes(Uint8Array.of(0), data)),
    node: (left, right) => hash(concatBytes(Uint8Array.of(1), left, right)),
  };
}

const HASHES = treeHashes(sha256);

/** Leaf hash: SHA-256(0x00 || data) (RFC 9162 §2.1.1); equals a chain entry's `leaf` (SPEC §4.3). */
export function leafHash(data: Uint8Array): Uint8Array {
  return HASHES.leaf(data);
}

/** Interior node hash: SHA-256(0x01 || left || right) (RFC 9162 §2.1.1). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return HASHES.node(left, right);
}

/** The largest power of two strictly below n (n ≥ 2), the split point k of RFC 9162 §2.1.1. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** True iff n is a power of two (1, 2, 4, …). */
export function isPowerOfTwo(n: number): boolean {
  if (n < 1 || !Number.isSafeInteger(n)) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

/** The root of a tree whose leaf hashes are given in order: MTH(D[0:n]); EMPTY_ROOT for none. */
export function rootOfLeafHashes(leafHashes: readonly Uint8Array[]): Uint8Array {
  return frontierRoot(leafHashes.reduce(appendToFrontier, EMPTY_FRONTIER));
}

/**
 * The right edge of a tree of `size` leaves: the roots of its perfect subtrees, largest (leftmost)
 * first, one per set bit of `size`. Enough to append a leaf and to compute the root, never more.
 */
export interface Frontier {
  readonly size: number;
  readonly nodes: readonly Uint8Array[];
}

/** The frontier of the empty tree. */
export const EMPTY_FRONTIER: Frontier = { size: 0, nodes: [] };

/** The frontier after appending one leaf hash; the input is not changed. O(log n) hashes. */
export function appendToFrontier(frontier: Frontier, leaf: Uint8Array): Frontier {
  const nodes = [...frontier.nodes];
  let carry = leaf;
  // Each trailing 1 bit of the old size is a perfect subtree the new leaf completes a sibling for.
  for (let size = frontier.size; size % 2 === 1; size = (size - 1) / 2) carry = nodeHash(nodes.pop()!, carry);
  nodes.push(carry);
  return { size: frontier.size + 1, nodes };
}

/** The root of the tree a frontier stands for: its subtree roots folded right to left. */
export function frontierRoot(frontier: Frontier): Uint8Array {
  const nodes = frontier.nodes;
  if (nodes.length === 0) return EMPTY_ROOT;
  let root = nodes[nodes.length - 1]!;
  for (let i = nodes.length - 2; i >= 0; i--) root = nodeHash(nodes[i]!, root);
  return root;
}

/** The number of set bits in a safe integer: how many perfect subtrees a tree of that size has. */
export function popCount(n: number): number {
  let count = 0;
  for (; n > 0; n = Math.floor(n / 2)) count += n % 2;
  return count;
}

/** A frontier as stored (hex nodes); `nodes` has exactly one entry per set bit of `size`. */
export const FrontierSchema = z
  .strictObject({
    size: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    nodes: z.array(Sha256Schema).max(53),
  })
  .refine((f) => f.nodes.length === popCount(f.size), { message: "a frontier holds one node per set bit of its size" });
export type FrontierRecord = z.infer<typeof FrontierSchema>;

/** The stored form of a frontier (hex nodes), the inverse of frontierFromRecord. */
export function frontierToRecord(frontier: Frontier): FrontierRecord {
  return { size: frontier.size, nodes: frontier.nodes.map(toHex) };
}

/** A frontier from its stored form, which must already have passed FrontierSchema. */
export function frontierFromRecord(record: FrontierRecord): Frontier {
  return { size: record.size, nodes: record.nodes.map(fromHex) };
}
