/**
 * The hash chain (docs/SPEC.md §4.3): leaf = H(0x00 || JCS(entry without leaf, link)),
 * link = H(0x01 || prev_link || leaf), with prev_link of entry 1 = 32 zero bytes. The 0x00/0x01
 * prefixes keep leaves and links in separate domains (as RFC 6962 §2.1 does for Merkle trees).
 */
import { concatBytes, fromHex, toHex, utf8 } from "../encoding/bytes.js";
import { canonicalBytes } from "../encoding/canonical.js";
import { withoutStringMembers } from "../encoding/canonical-text.js";
import { sha256, type HashFunction } from "../encoding/hash.js";
import type { Entry, UnchainedEntry } from "../schemas/entry.js";

/** The link before entry 1. */
export const GENESIS_LINK = "0".repeat(64);

const LEAF_PREFIX = Uint8Array.of(0x00);
const LINK_PREFIX = Uint8Array.of(0x01);

/** Leaf hash (hex) of an entry; any `leaf`/`link` fields present are ignored. */
export function leafOf(entry: UnchainedEntry | Entry): string {
  const { leaf: _leaf, link: _link, ...rest } = entry as Entry;
  return toHex(sha256(concatBytes(LEAF_PREFIX, canonicalBytes(rest))));
}

/**
 * Leaf hash (hex) of an entry from `text`, its canonical JSON with `leaf` and `link` (as an export
 * line carries it), without writing it again: when `text` is canonicalize(entry), exactly
 * leafOf(entry). Null when `text` lacks either member.
 */
export function leafOfCanonical(text: string, hash: HashFunction = sha256): string | null {
  const unchained = withoutStringMembers(text, ["leaf", "link"]);
  // The prefix 0x00 is U+0000's one UTF-8 byte.
  return unchained === null ? null : toHex(hash(utf8(`\u0000${unchained}`)));
}

/** Link hash (hex) after `prevLink` with `leaf` (`hash`: the SHA-256 to use, by default the protocol's own). */
export function linkOf(prevLink: string, leaf: string, hash: HashFunction = sha256): string {
  return toHex(hash(concatBytes(LINK_PREFIX, fromHex(prevLink), fromHex(leaf))));
}

/** Chains an entry after `prevLink`: fills in its leaf and link. */
export function chainEntry(entry: UnchainedEntry, prevLink: string): Entry {
  const leaf = leafOf(entry);
  return { ...entry, leaf, link: linkOf(prevLink, leaf) } as Entry;
}
