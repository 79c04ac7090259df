/**
 * What the table wrote, as items of an inert data block (src/text/framing.ts): the
 * projection prefix (topic, rules, seats with their cards, decisions in force), projected entries,
 * and ledger entries read from history. Every name, title, body and value here may have been
 * chosen by another seat or by the relay, so all of it goes through the framing, never around it.
 */
import type { InertItem } from "./framing.js";
import {
  isEntry,
  projectEntry,
  type CapabilityCard,
  type Entry,
  type HiddenEntry,
  type Prefix,
  type ProjectedEntry,
} from "../protocol/index.js";

/** The prefix as items: the table and its topic, the rules, each seat with its card, each decision in force. */
export function prefixItems(prefix: Prefix, me: string | null): InertItem[] {
  const { topology, ...rest } = prefix.rules;
  const items: InertItem[] = [
    { header: `table ${prefix.table}, topic: ${prefix.topic}` },
    { header: `rules (topology ${topology.kind})`, fields: [["topology", topology], ...Object.entries(rest)] },
  ];
  for (const seat of prefix.seats) {
    const who = `seat ${seat.name}${seat.name === me ? " (you)" : ""}, owner ${seat.owner}${seat.human ? ", a person" : ", a bot"}`;
    items.push({ header: `${who}; card: ${cardText(seat.card)}` });
  }
  for (const decision of prefix.decisions) {
    const refs = decision.refs ? `, refs ${decision.refs.join(" ")}` : "";
    items.push({
      header: `decision in force #${decision.seq} by ${decision.seat}${decision.by ? ` (by ${decision.by})` : ""}${refs}`,
      body: decision.body,
    });
  }
  return items;
}

/** One projected entry as an item; `me` marks this seat's own entries. */
export function entryItem(entry: ProjectedEntry, me: string | null): InertItem {
  const parts = [`[#${entry.seq}]`];
  if (entry.kind === "system") parts.push(`system ${entry.subkind ?? "?"}`);
  else if (entry.seat !== undefined) parts.push(`${entry.seat}${entry.seat === me ? " (you)" : ""} ${entry.kind}`);
  else parts.push(entry.kind);
  if (entry.choice) parts.push(entry.choice);
  if (entry.to) parts.push(`to ${entry.to.join(", ")}`);
  if (entry.re !== undefined) parts.push(`re #${entry.re}`);
  if (entry.refs) parts.push(`refs ${entry.refs.join(" ")}`);
  if (entry.truncated) parts.push("(cut by the relay to the floor's max_chars)");
  if (entry.more) parts.push(`(shortened here; trestle_history with from ${entry.seq} shows all of ${entry.more})`);
  return { header: parts.join(" "), fields: entry.data ? Object.entries(entry.data) : [], body: entry.body };
}

/** One ledger entry from history (full body for authored entries) or a hidden one. */
export function historyItem(item: Entry | HiddenEntry, me: string | null): InertItem {
  if (!isEntry(item)) return { header: `[#${item.seq}] (hidden from this reader; its leaf hash still chains)` };
  const projected = projectEntry(item);
  if (item.kind !== "system" && item.kind !== "approval" && projected.more !== undefined) {
    const { more: _more, ...whole } = projected;
    return entryItem({ ...whole, body: item.body }, me);
  }
  return entryItem(projected, me);
}

function cardText(card: CapabilityCard): string {
  const parts: string[] = [];
  if (card.role !== undefined) parts.push(`role "${card.role}"`);
  if (card.summary !== undefined) parts.push(`summary "${card.summary}"`);
  if (card.skills !== undefined) parts.push(`skills ${card.skills.map((s) => `"${s}"`).join(", ")}`);
  if (card.model !== undefined) parts.push(`model "${card.model}"`);
  return parts.length === 0 ? "(empty)" : parts.join(", ");
}
