/**
 * The signatures a market's entries carry beside their own (docs/SPEC.md §5.15, decision 0460): a
 * match room's first entry carries the relay's head over the market at the match (purpose `head`,
 * by the relay key the room's first entry names), and a recorded deal carries both owners' deal
 * signatures (purpose `deal`, by the keys the match names). The relay checks them before admitting
 * the entry, and every verifier checks them again as statements the entry records.
 */
import { citedHead } from "../policy/market/citation.js";
import { dealStatement } from "../policy/deals.js";
import type { EntryDraft } from "../schemas/entry.js";
import type { RecordedStatement } from "./crypto.js";

/** The head a match room's opening carries and the deal signatures a deal record carries; empty for every other entry. */
export function marketStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind !== "system") return [];
  if (entry.subkind === "table_opened") {
    const citation = entry.data.config.room?.match;
    return citation ? [{ purpose: "head", statement: citedHead(citation, entry.data.relay), key: entry.data.relay, sig: citation.sig }] : [];
  }
  if (entry.subkind === "deal_recorded") {
    return entry.data.signatures.map((s) => ({ purpose: "deal" as const, statement: dealStatement(entry.data.room, entry.data.deal), key: s.key, sig: s.sig }));
  }
  return [];
}
