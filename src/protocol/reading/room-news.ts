/**
 * Room news (docs/SPEC.md §11.3): which room entries are news for the owners' chat apps, what each
 * says, and which owners get it. Offers, counters, accepts, rejections, a deal's signatures (done
 * once both owners signed, pending before), a close without a deal, an auction's settlement and
 * an ejection; about an end-to-end encrypted room (§5.12) the news carries the kind and the seat,
 * never the terms or the price. Each owner gets the kinds its config's `room_news` asks for
 * (default `commitments`); an owner admitted by invite has no config entry and gets the default.
 * Pure, like notifications.ts, which calls it.
 */
import { own } from "../encoding/records.js";
import { dealOwners, dealStatus } from "../policy/deals.js";
import { ownerEntries } from "../policy/owners.js";
import type { DealState } from "../policy/room-state.js";
import type { TableState } from "../policy/state.js";
import type { RoomNewsSetting } from "../schemas/config.js";
import type { Entry } from "../schemas/entry.js";
import { COMMITMENT_NEWS, type RoomNews, type RoomNewsKind } from "../schemas/notify.js";
import type { Terms } from "../schemas/room.js";

/** What every piece of news about the table carries (notifications.ts noticeBase). */
type Base = { table: string; topic: string; e2e?: true };

/** The room news entry `entry` makes, judged against `state` after its batch; null when it is none. */
export function roomNewsOf(state: TableState, entry: Entry, base: Base): RoomNews | null {
  const room = state.room;
  if (!room) return null;
  const news = (news: RoomNewsKind, seat: string, fields: { terms?: Terms | undefined; waiting?: string[]; by?: string; reason?: RoomNews["reason"] } = {}): RoomNews => {
    const { terms, ...rest } = fields;
    return { ...base, type: "room_news", id: `${state.table}:${entry.seq}:${news}`, news, seat, seq: entry.seq, ...rest, ...(terms && !base.e2e ? { terms } : {}) };
  };
  switch (entry.kind) {
    case "offer":
    case "counter":
      return news(entry.kind, entry.seat, { terms: entry.terms });
    case "accept":
      return news("accept", entry.seat, { terms: own(room.offers, entry.offer)?.terms });
    case "reject":
      return news("reject", entry.seat, { terms: own(room.offers, entry.offer)?.terms });
    case "deal_sign": {
      const deal = own(room.deals, entry.offer);
      return deal ? news(dealNews(deal), entry.seat, dealFields(deal)) : null;
    }
    case "close": {
      if (entry.outcome === "no_deal") return news("no_deal", entry.seat);
      const deal = entry.offer === undefined ? undefined : own(room.deals, entry.offer);
      return deal ? news(dealNews(deal), entry.seat, dealFields(deal)) : null;
    }
    case "system": {
      if (entry.subkind === "seat_ejected") return news("ejected", entry.data.seat, { by: entry.data.by });
      if (entry.subkind !== "auction_settled") return null;
      const auction = own(room.auctions, entry.data.auction);
      if (!auction) return null;
      const settled = entry.data;
      return settled.outcome === "deal"
        ? news("auction_deal", auction.seat, { terms: { amount: settled.price, currency: settled.currency } })
        : news("auction_no_deal", auction.seat, { reason: settled.reason });
    }
    default:
      return null;
  }
}

/** Whether a deal is done (both owners signed) or pending. */
function dealNews(deal: DealState): RoomNewsKind {
  return dealStatus(deal) === "done" ? "deal_done" : "deal_pending";
}

/** A deal's terms and, while pending, the owners who have not signed it. */
function dealFields(deal: DealState): { terms: Terms; waiting?: string[] } {
  const waiting = dealOwners(deal).filter((owner, i, all) => !Object.hasOwn(deal.signed, owner) && all.indexOf(owner) === i);
  return { terms: deal.terms.terms, ...(waiting.length > 0 ? { waiting } : {}) };
}

/** Owner `name`'s room news setting: its config entry's `room_news`, or `commitments`. */
export function roomNewsSetting(state: TableState, name: string): RoomNewsSetting {
  return own(state.config.owners, name)?.room_news ?? "commitments";
}

/** Whether `setting` asks for news of kind `kind`. */
export function wantsNews(setting: RoomNewsSetting, kind: RoomNewsKind): boolean {
  return setting === "all" || (setting === "commitments" && COMMITMENT_NEWS.has(kind));
}

/** The public keys of the owners whose setting asks for news of kind `kind`. */
export function newsReaders(state: TableState, kind: RoomNewsKind): string[] {
  return ownerEntries(state).flatMap(([name, key]) => (wantsNews(roomNewsSetting(state, name), kind) ? [key] : []));
}
