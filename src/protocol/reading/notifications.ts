/**
 * Which owners to notify about a batch of appended entries (docs/SPEC.md §11.3). Pure: the table
 * calls it after persisting, with the state after the batch, and sends each owner its events.
 * Event ids are `<table>:<seq>:<type>`, so the same batch always yields the same ids. About an
 * end-to-end encrypted room (§5.12) an event carries no content: no topic, no body (`e2e: true`).
 * A room that closes with a deal tells every owner what the deal binds (the offer's terms or the
 * auction's price), except about an e2e room. Room news (room-news.ts) goes to the owners whose
 * config asks for its kind.
 */
import { cutText } from "../encoding/text.js";
import { chatRefusal } from "../policy/chat-approve.js";
import { own } from "../encoding/records.js";
import { ownerKeyOf, ownerKeys } from "../policy/owners.js";
import type { TableState } from "../policy/state.js";
import { isE2eRoom } from "../policy/sealed.js";
import { pauseHolders } from "../policy/pause.js";
import { newsReaders, roomNewsOf } from "./room-news.js";
import { groupEventOf, groupNewsOf } from "./group-events.js";
import type { Entry } from "../schemas/entry.js";
import { groupAudience, NOTIFY_TEXT_CHARS, type DealNotice, type Notification } from "../schemas/notify.js";

/** What every event about `state`'s table carries: its id and topic, or for an e2e room no topic and `e2e`. */
export function noticeBase(state: TableState): { table: string; topic: string; e2e?: true } {
  return isE2eRoom(state)
    ? { table: state.table, topic: "", e2e: true }
    : { table: state.table, topic: state.config.topic };
}

/** Events per owner public key (and for a market's chat groups, for their audience: groupAudience) for `entries` (already appended), judged against `state` after them. */
export function notificationsFor(state: TableState, entries: readonly Entry[]): Map<string, Notification[]> {
  const out = new Map<string, Notification[]>();
  const base = noticeBase(state);
  const text = (body: string) => (base.e2e ? "" : cutText(body, NOTIFY_TEXT_CHARS));
  const everyone = ownerKeys(state);
  const add = (keys: readonly string[], event: Notification) => {
    for (const key of keys) out.set(key, [...(out.get(key) ?? []), event]);
  };
  for (const entry of entries) {
    const id = (type: string) => `${state.table}:${entry.seq}:${type}`;
    const news = roomNewsOf(state, entry, base);
    if (news) add(newsReaders(state, news.news), news);
    // A market's chat groups (§5.15 "Groups"): their audience's object takes a bound group as a channel, drops an unbound one,
    // and tells the groups of new listings and done deals.
    const grouped = groupEventOf(entry, base) ?? groupNewsOf(state, entry, base);
    if (grouped) add([groupAudience(state.table)], grouped);
    // Chat approvals (§5.6): a relay-attested approval is told to its owner on every channel.
    if (entry.kind === "approval" && entry.via !== undefined) {
      const key = own(state.config.owners, entry.owner)?.public_key;
      if (key)
        add([key], {
          ...base,
          type: "chat_approval",
          id: id("chat_approval"),
          seq: entry.seq,
          task: entry.task,
          verdict: entry.verdict,
          via: entry.via,
        });
    }
    if (entry.kind === "decision") {
      add(everyone, {
        ...base,
        type: "decision_reached",
        id: id("decision_reached"),
        seq: entry.seq,
        seat: entry.seat,
        body: text(entry.body),
      });
    }
    if (entry.kind !== "system") continue;
    switch (entry.subkind) {
      case "table_opened":
        add(everyone, { ...base, type: "table_opened", id: id("table_opened"), seq: entry.seq });
        break;
      // Rooms (§5.10): an owner admitted by invite gets the room on its list as it joins.
      case "seat_joined":
        if (entry.data.join.owner_key !== undefined)
          add([entry.data.join.owner_key], { ...base, type: "table_opened", id: id("table_opened"), seq: entry.seq });
        break;
      case "floor": {
        const seat = entry.data.holder === null ? undefined : own(state.seats, entry.data.holder);
        const ownerKey = seat?.human ? ownerKeyOf(state, seat.owner) : undefined;
        if (seat && ownerKey) {
          add([ownerKey], {
            ...base,
            type: "floor_to_human",
            id: id("floor_to_human"),
            seq: entry.seq,
            seat: seat.name,
            round: entry.data.round,
          });
        }
        break;
      }
      case "table_closed": {
        const deal = base.e2e ? null : dealOf(state);
        add(everyone, {
          ...base,
          type: "table_closed",
          id: id("table_closed"),
          seq: entry.seq,
          reason: entry.data.reason,
          ...(deal ? { deal } : {}),
        });
        break;
      }
      case "decision":
        add(everyone, {
          ...base,
          type: "decision_reached",
          id: id("decision_reached"),
          seq: entry.seq,
          seat: entry.data.seat,
          body: text(entry.data.body),
        });
        break;
      case "table_paused":
      case "table_resumed":
        add(everyone, {
          ...base,
          type: entry.subkind,
          id: id(entry.subkind),
          seq: entry.seq,
          owner: entry.data.owner,
          via: entry.data.via,
          pauses: pauseHolders(state.pauses),
        });
        break;
      // Commit gateway (§5.6): a task waiting for its owner (not auto-approved), and a stalled one.
      case "task_opened": {
        const { task, owner, proposal, effects } = entry.data;
        const key = own(state.config.owners, owner)?.public_key;
        const proposer = entries.find((e) => e.seq === proposal.seq)?.seat;
        if (key && proposer && own(state.tasks, task)?.state === "awaiting_approval") {
          const chat_approve = chatRefusal(state, owner, task) === null;
          add([key], {
            ...base,
            type: "approval_needed",
            id: id("approval_needed"),
            task,
            proposal_seq: proposal.seq,
            proposer,
            effects,
            chat_approve,
          });
        }
        break;
      }
      case "task_state": {
        const owner = own(state.tasks, entry.data.task)?.owner;
        const key = owner === undefined ? undefined : own(state.config.owners, owner)?.public_key;
        if (key && entry.data.state === "stalled")
          add([key], { ...base, type: "task_stalled", id: id("task_stalled"), task: entry.data.task });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** What the room's deal binds: the accepted offer, or the auction's price; null when the room did not close with a deal. */
function dealOf(state: TableState): DealNotice | null {
  const outcome = state.room?.outcome;
  if (!outcome || outcome.outcome !== "deal") return null;
  const offer = outcome.offer === null ? undefined : own(state.room!.offers, outcome.offer);
  if (offer) return { offer: { seq: offer.seq, seat: offer.seat, terms: offer.terms, expires: offer.expires } };
  const auction = outcome.auction === null ? undefined : own(state.room!.auctions, outcome.auction);
  if (auction && auction.price !== null)
    return { auction: { seq: auction.seq, price: auction.price, currency: auction.currency } };
  return null;
}
