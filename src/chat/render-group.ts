/**
 * What a market's chat group is sent, and what its members are answered, in the chat's language
 * (docs/CHAT-APPS.md "Groups"): the greeting when the group is bound, and listings as lines (their
 * number, side, the member's words on one safe line, category, public price, owner, and UNVERIFIED
 * for one posted from a group). Nothing about an owner's approvals, notes, questions, mandates or
 * rooms is ever rendered here: a group's audience receives no such event
 * (src/protocol/reading/group-events.ts). The market's news (a new listing, a deal done) goes out in
 * batches, one message for as many items as fit the platform's limits (src/chat/send.ts).
 */
import type { GroupBoundNotice, GroupNews, GroupUnboundNotice } from "../protocol/schemas/notify.js";
import type { ListingSide, PriceRange } from "../protocol/schemas/market.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { safeLine } from "../text/framing.js";
import { majorUnits } from "../text/terms.js";
import { t } from "./i18n.js";
import type { ChatMessage } from "./message.js";

/** The longest a listing's title is quoted in a group or a reply; the ledger keeps it whole. */
const TITLE_CHARS = 120;

/** The greeting a newly bound group gets (an unbinding is silent, and says only which market let the group go). */
export function groupMessage(event: GroupBoundNotice | GroupUnboundNotice, lang: Lang): ChatMessage {
  const market = t(lang, "group.bound", { table: event.table, topic: safeLine(event.topic, 200) });
  return {
    title: t(lang, "title.group_bound"),
    lines: event.type === "group_bound" ? [market, t(lang, "group.how")] : [market],
    actions: [],
  };
}

/** A public price range in `lang`: what a seller asks at least, a buyer pays at most, both, or "price on request". */
export function groupPriceText(lang: Lang, price: PriceRange | null | undefined): string {
  if (!price) return t(lang, "group.price.ask");
  const at = (amount: number) => `${majorUnits(amount, price.currency)} ${price.currency}`;
  if (price.min !== undefined && price.max !== undefined)
    return price.min === price.max
      ? at(price.min)
      : t(lang, "group.price.range", { min: at(price.min), max: at(price.max) });
  return price.min !== undefined
    ? t(lang, "group.price.from", { amount: at(price.min) })
    : t(lang, "group.price.upto", { amount: at(price.max!) });
}

/** A listing as a group or a member reads it. */
export interface ListingShown {
  seq: number;
  side: ListingSide;
  title: string;
  category: string;
  price?: PriceRange | null | undefined;
  owner: string;
  /** Posted from a chat group (relay-attested): marked UNVERIFIED. */
  fromGroup: boolean;
}

/** The words a listing line fills its template with, in `lang`: the member's words quoted on one safe line, the owner's name likewise. */
export function listingValues(lang: Lang, l: ListingShown): Record<string, string | number> {
  return {
    seq: l.seq,
    side: t(lang, l.side === "offer" ? "group.side.offer" : "group.side.want"),
    title: JSON.stringify(safeLine(l.title, TITLE_CHARS)),
    category: l.category,
    price: groupPriceText(lang, l.price),
    owner: safeLine(l.owner, 64),
    mark: l.fromGroup ? t(lang, "group.unverified") : "",
  };
}

/** One listing as a line of a member's `/listings` or `/mine` answer. */
export function listingLine(lang: Lang, l: ListingShown): string {
  return t(lang, "group.listing_line", listingValues(lang, l));
}

/** A batch of a market's news as one message to a group in `lang`: the market as its title, then a line per item, oldest first. */
export function groupNewsMessage(events: readonly GroupNews[], lang: Lang): ChatMessage {
  return {
    title: t(lang, "title.group_news", { table: events[0]!.table }),
    lines: events.map((e) => newsLine(lang, e)),
    actions: [],
  };
}

function newsLine(lang: Lang, e: GroupNews): string {
  const quantity = t(lang, "group.quantity", { quantity: e.quantity });
  if (e.news === "deal") {
    const deal = { seq: e.seq, title: JSON.stringify(safeLine(e.title, TITLE_CHARS)), category: e.category, quantity };
    return e.price
      ? t(lang, "group.news.deal_price", { ...deal, price: groupPriceText(lang, e.price) })
      : t(lang, "group.news.deal", deal);
  }
  const shown = {
    seq: e.seq,
    side: e.side ?? "offer",
    title: e.title,
    category: e.category,
    price: e.price,
    owner: e.owner ?? "",
    fromGroup: e.via !== undefined,
  };
  return t(lang, "group.news.listing", { ...listingValues(lang, shown), quantity });
}
