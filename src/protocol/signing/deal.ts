/**
 * The owner signature a deal_sign entry carries (docs/SPEC.md §4.1, §5.10): purpose `deal`, by the
 * entry's `owner_key`, over `{ scope: "deal", table, deal }`. The relay checks it before admitting
 * the entry and every verifier checks it again, with this same function; the policy checks that
 * the key is the owner's and the hash the deal's. In a match room the entry may also carry the
 * owner's consent to show the deal's terms in the market (purpose `price`, same key, decision 0529).
 */
import { dealStatement, priceStatement } from "../policy/deals.js";
import type { EntryDraft } from "../schemas/entry.js";
import type { RecordedStatement } from "./crypto.js";

/** The owner's deal statement a deal_sign entry records, then its consent to show the price when it carries one (purpose `price`, decision 0529); empty for every other entry. */
export function dealStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind === "system" || entry.kind === "approval" || !("owner_sig" in entry) || !("deal" in entry)) return [];
  const signed: RecordedStatement = {
    purpose: "deal",
    statement: dealStatement(entry.table, entry.deal),
    key: entry.owner_key,
    sig: entry.owner_sig,
  };
  const shown = "show_price" in entry ? entry.show_price : undefined;
  if (!shown) return [signed];
  return [
    signed,
    {
      purpose: "price",
      statement: priceStatement(shown.market, shown.match, entry.deal),
      key: entry.owner_key,
      sig: shown.sig,
    },
  ];
}
