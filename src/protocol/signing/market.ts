/**
 * The signatures a market's entries carry beside their own (docs/SPEC.md §5.15, decision 0460): a
 * match room's first entry carries the relay's head over the market at the match (purpose `head`,
 * by the relay key the room's first entry names), and a recorded deal carries both owners' deal
 * signatures (purpose `deal`, by the keys the match names), and when it shows the deal's terms both
 * owners' consents (purpose `price`, by the same keys, over the market, the match and the deal's
 * hash; decision 0529). The relay checks them before admitting
 * the entry, and every verifier checks them again as statements the entry records.
 */
import { citedHead } from "../policy/market/citation.js";
import { dealStatement, priceStatement } from "../policy/deals.js";
import type { EntryDraft } from "../schemas/entry.js";
import type { RecordedStatement } from "./crypto.js";

/** The head a match room's opening carries and the deal signatures a deal record carries; empty for every other entry. */
export function marketStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind !== "system") return [];
  if (entry.subkind === "table_opened") {
    const citation = entry.data.config.room?.match;
    return citation
      ? [
          {
            purpose: "head",
            statement: citedHead(citation, entry.data.relay),
            key: entry.data.relay,
            sig: citation.sig,
          },
        ]
      : [];
  }
  if (entry.subkind === "deal_recorded") {
    const { data } = entry;
    const signed = data.signatures.map((s) => ({
      purpose: "deal" as const,
      statement: dealStatement(data.room, data.deal),
      key: s.key,
      sig: s.sig,
    }));
    const consents = (data.price?.consents ?? []).map((sig, i) => ({
      purpose: "price" as const,
      statement: priceStatement(entry.table, data.match, data.deal),
      key: data.signatures[i]!.key,
      sig,
    }));
    return [...signed, ...consents];
  }
  return [];
}
