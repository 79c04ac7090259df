/**
 * The hash chain (docs/SPEC.md §4.3): leaf = H(0x00 || JCS(entry without leaf, link)),
 * link = H(0x01 || prev_link || leaf), with prev_link of entry 1 = 32 zero bytes. The 0x00/0x01
 * prefixes keep leaves and links in separate domains: they are RFC 6962 §2.1's leaf and node hashes
 * (tlog/merkle.ts), so a table's leaves are also its Merkle tree's.
 */
import { fromHex, toHex, utf8 } from "../encoding/bytes.js";
import { canonicalBytes } from "../encoding/canonical.js";
import { withoutStringMembers } from "../encoding/canonical-text.js";
import { sha256, type HashFunction } from "../encoding/hash.js";
import { leafHash, treeHashes } from "../tlog/merkle.js";
import type { Entry, UnchainedEntry } from "../schemas/entry.js";

/** The link before entry 1. */
export const GENESIS_LINK = "0".repeat(64);

/** The bytes an entry's leaf hashes (its Merkle leaf data, an entry bundle's entry): JCS of the entry without `leaf` and `link`. */
export function leafData(entry: UnchainedEntry | Entry): Uint8Array {
  const { leaf: _leaf, link: _link, ...rest } = entry as Entry;
  return canonicalBytes(rest);
}

/** Leaf hash (hex) of an entry; any `leaf`/`link` fields present are ignored. */
export function leafOf(entry: UnchainedEntry | Entry): string {
  return toHex(leafHash(leafData(entry)));
}

/**
 * Leaf hash (hex) of an entry from `text`, its canonical JSON with `leaf` and `link` (as an export
 * line carries it), without writing it again: when `text` is canonicalize(entry), exactly
 * leafOf(entry). Null when `text` lacks either member.
 */
export function leafOfCanonical(text: string, hash: HashFunction = sha256): string | null {
  const unchained = withoutStringMembers(text, ["leaf", "link"]);
  return unchained === null ? null : toHex(treeHashes(hash).leaf(utf8(unchained)));
}

/** Link hash (hex) after `prevLink` with `leaf` (`hash`: the SHA-256 to use, by default the protocol's own). */
export function linkOf(prevLink: string, leaf: string, hash: HashFunction = sha256): string {
  return toHex(treeHashes(hash).node(fromHex(prevLink), fromHex(leaf)));
}

/** Chains an entry after `prevLink`: fills in its leaf and link. */
export function chainEntry(entry: UnchainedEntry, prevLink: string): Entry {
  const leaf = leafOf(entry);
  return { ...entry, leaf, link: linkOf(prevLink, leaf) } as Entry;
}
