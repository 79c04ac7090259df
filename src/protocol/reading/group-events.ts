/**
 * What a market tells its chat groups' audience (docs/SPEC.md §5.15 "Groups"): that a group was
 * bound (its object takes it as a channel and greets it) or unbound (it drops it), and the groups'
 * news: a new listing, a seat's or one posted from a group, and a deal both owners signed, by its
 * item and quantity. Nothing else: no match, withdrawal, approval, note, question or mandate, and
 * nothing from a room (a deal's price stays there unless both owners let the market show it). Pure: a function of the entry just appended and
 * the state after it, so each event is recorded in the entry's own transaction and survives a crash
 * like every owner notification (§11.3); a market with no group bound tells its groups nothing.
 */
import { own } from "../encoding/records.js";
import type { TableState } from "../policy/state.js";
import type { Entry } from "../schemas/entry.js";
import type { GroupBoundNotice, GroupNews, GroupUnboundNotice } from "../schemas/notify.js";

/** The group audience's event for `entry` under the market's `base` (its id `<table>:<seq>:<type>`); null for anything else. */
export function groupEventOf(
  entry: Entry,
  base: { table: string; topic: string },
): GroupBoundNotice | GroupUnboundNotice | null {
  if (entry.kind !== "system") return null;
  const id = (type: string) => `${base.table}:${entry.seq}:${type}`;
  if (entry.subkind === "group_bound") {
    const { platform, group, lang } = entry.data;
    return { ...base, type: "group_bound", id: id("group_bound"), seq: entry.seq, platform, group, lang };
  }
  if (entry.subkind === "group_unbound")
    return {
      ...base,
      type: "group_unbound",
      id: id("group_unbound"),
      seq: entry.seq,
      platform: entry.data.platform,
      group: entry.data.group,
    };
  return null;
}

/** The groups' news `entry` is, judged against `state` after it, under the market's `base`; null for anything the groups are not told, or when no group is bound. */
export function groupNewsOf(state: TableState, entry: Entry, base: { table: string; topic: string }): GroupNews | null {
  const market = state.market;
  if (!market || Object.keys(market.groups).length === 0) return null;
  const id = (news: string) => `${base.table}:${entry.seq}:group_${news}`;
  const listing = own(market.listings, entry.leaf);
  if (listing && (entry.kind === "listing" || (entry.kind === "system" && entry.subkind === "group_listing"))) {
    const { side, title, category, quantity, owner, price, via } = listing;
    return {
      ...base,
      type: "group_news",
      id: id("listing"),
      news: "listing",
      seq: entry.seq,
      side,
      title,
      category,
      quantity,
      owner,
      ...(price ? { price } : {}),
      ...(via ? { via } : {}),
    };
  }
  if (entry.kind !== "system" || entry.subkind !== "deal_recorded") return null;
  const match = own(market.matches, String(entry.data.match));
  const offer = match ? own(market.listings, match.offer) : undefined;
  if (!offer) return null;
  const shown = entry.data.price?.terms.terms;
  const price =
    shown?.amount !== undefined && shown.currency !== undefined
      ? { price: { currency: shown.currency, min: shown.amount, max: shown.amount } }
      : {};
  return {
    ...base,
    type: "group_news",
    id: id("deal"),
    news: "deal",
    seq: entry.seq,
    title: offer.title,
    category: offer.category,
    quantity: entry.data.quantity,
    ...price,
  };
}
