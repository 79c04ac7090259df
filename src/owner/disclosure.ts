/**
 * The `never_disclose` check (docs/ROOMS.md): every key and every string or number value anywhere
 * in what a seat is about to sign, however deeply nested (`__proto__` is an ordinary key here),
 * compared with each listed string after both are folded the same way: Unicode NFKC (so NFD and
 * full-width forms meet their plain form), case folded, and stripped of invisible format and
 * default-ignorable characters (zero-width spaces and joiners, bidi controls). The check is
 * literal: "2400" is caught in "２４００" or "2\u200b400", "twenty-four hundred" is not.
 */

/**
 * Top-level fields of a submission that carry nothing the agent wrote: `nonce` (drawn by the
 * client library), `table` and `seat` (the seat's own place), `offer` / `grant` / `auction` (the hash
 * of an entry already in the ledger, which the schema requires to be one) and a sealed bid's
 * `commitment` (a SHA-256 over the bid and a random salt; the bid itself is checked, as `reveals`).
 * Checking them would refuse honest messages whose random nonce or hash happens to contain a listed
 * string ("2400" turns up in about one random nonce in a hundred); they cannot carry new words, so
 * they are left out.
 */
const NOT_AUTHORED = new Set(["nonce", "table", "seat", "offer", "grant", "auction", "commitment"]);

/** What of a submission the agent wrote: every field but those in NOT_AUTHORED (at the top level only). */
export function authoredPart(submission: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(submission).filter(([key]) => !NOT_AUTHORED.has(key)));
}

/** `text` folded for comparison: NFKC, case folded, invisible characters removed. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "");
}

/** Where a listed string was found: its index in `never_disclose` and the path of the field. */
export interface Disclosure {
  index: number;
  path: string;
}

/** The first listed string found in any key or value of `value`, or null when none is. */
export function findDisclosure(value: unknown, never: readonly string[]): Disclosure | null {
  const needles = never.map(foldText).map((needle, index) => ({ needle, index })).filter((n) => n.needle !== "");
  if (needles.length === 0) return null;
  const hit = (text: string, path: string): Disclosure | null => {
    const folded = foldText(text);
    const found = needles.find((n) => folded.includes(n.needle));
    return found ? { index: found.index, path } : null;
  };
  const walk = (v: unknown, path: string, seen: Set<object>): Disclosure | null => {
    if (typeof v === "string") return hit(v, path);
    if (typeof v === "number" || typeof v === "bigint") return hit(String(v), path);
    if (typeof v !== "object" || v === null || seen.has(v)) return null;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${path}[${i}]`, seen);
        if (found) return found;
      }
      return null;
    }
    for (const key of Object.keys(v)) {
      const inner = `${path}.${key}`;
      const found = hit(key, inner) ?? walk((v as Record<string, unknown>)[key], inner, seen);
      if (found) return found;
    }
    return null;
  };
  return walk(value, "$", new Set());
}
