/**
 * The owner signature a deal_sign entry carries (docs/SPEC.md §4.1, §5.10): purpose `deal`, by the
 * entry's `owner_key`, over `{ scope: "deal", table, deal }`. The relay checks it before admitting
 * the entry and every verifier checks it again, with this same function; the policy checks that
 * the key is the owner's and the hash the deal's.
 */
import { dealStatement } from "../policy/deals.js";
import type { EntryDraft } from "../schemas/entry.js";
import type { RecordedStatement } from "./crypto.js";

/** The owner's deal statement a deal_sign entry records; empty for every other entry. */
export function dealStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind === "system" || entry.kind === "approval" || !("owner_sig" in entry) || !("deal" in entry)) return [];
  return [{ purpose: "deal", statement: dealStatement(entry.table, entry.deal), key: entry.owner_key, sig: entry.owner_sig }];
}
