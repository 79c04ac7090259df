/**
 * Naming a record keyed by the leaf of the entry that wrote it (an offer, a grant, an auction, a
 * listing) as every surface does: by that entry's seq, its hash, or a prefix of at least 8 hex
 * characters of it.
 */
import { TrestleError, type ErrorCode } from "../protocol/index.js";

/** The one leaf among `held`'s keys that `ref` names; E_SCHEMA for a ref that is neither a seq nor hex or that names several, `unknown` when it names none (`what` in `where`). */
export function entryRef(
  held: Record<string, { seq: number }>,
  ref: string | number,
  what: string,
  unknown: ErrorCode,
  where: string,
): string {
  const text = String(ref).trim().toLowerCase();
  let matches: string[];
  if (/^[1-9][0-9]{0,15}$/.test(text)) matches = Object.keys(held).filter((leaf) => held[leaf]!.seq === Number(text));
  else if (/^[0-9a-f]{8,64}$/.test(text)) matches = Object.keys(held).filter((leaf) => leaf.startsWith(text));
  else
    throw new TrestleError(
      "E_SCHEMA",
      `name the ${what} by its entry's seq or its hash (at least 8 hex characters), not "${String(ref)}"`,
    );
  if (matches.length === 0) throw new TrestleError(unknown, `no ${what} ${String(ref)} in ${where}`);
  if (matches.length > 1)
    throw new TrestleError("E_SCHEMA", `${String(ref)} names ${matches.length} ${what}s; give more of the hash`);
  return matches[0]!;
}
