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
import { roomKindNews } from "../policy/kinds/registry.js";
import type { KindNews } from "../policy/kinds/kind-policy.js";
import { ownerEntries } from "../policy/owners.js";
import type { RoomState } from "../policy/room-state.js";
import type { TableState } from "../policy/state.js";
import type { RoomNewsSetting } from "../schemas/config.js";
import type { Entry } from "../schemas/entry.js";
import { COMMITMENT_NEWS, type RoomNews, type RoomNewsKind } from "../schemas/notify.js";

/** What every piece of news about the table carries (notifications.ts noticeBase). */
type Base = { table: string; topic: string; e2e?: true };

/** The room news entry `entry` makes, judged against `state` after its batch; null when it is none. */
export function roomNewsOf(state: TableState, entry: Entry, base: Base): RoomNews | null {
  const room = state.room;
  if (!room) return null;
  const told = entry.kind === "system" ? systemNews(state, room, entry) : roomKindNews(state, entry);
  if (!told) return null;
  const { news, terms, ...rest } = told;
  return {
    ...base,
    type: "room_news",
    id: `${state.table}:${entry.seq}:${news}`,
    news,
    seq: entry.seq,
    ...rest,
    ...(terms && !base.e2e ? { terms } : {}),
  };
}

/** The news of a system entry in a room: an ejection, or an auction's settlement. */
function systemNews(state: TableState, room: RoomState, entry: Extract<Entry, { kind: "system" }>): SystemNews | null {
  if (entry.subkind === "seat_ejected") return { news: "ejected", seat: entry.data.seat, by: entry.data.by };
  if (entry.subkind !== "auction_settled") return null;
  const auction = own(room.auctions, entry.data.auction);
  if (!auction) return null;
  const settled = entry.data;
  return settled.outcome === "deal"
    ? { news: "auction_deal", seat: auction.seat, terms: { amount: settled.price, currency: settled.currency } }
    : { news: "auction_no_deal", seat: auction.seat, reason: settled.reason };
}

/** What a system entry tells the owners: a room kind's news, or who ejected the seat, or why an auction ended without a deal. */
type SystemNews = KindNews & { by?: string; reason?: RoomNews["reason"] };

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
