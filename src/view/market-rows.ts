/**
 * An owner's part of a market for the principal window (wire.ts MarketEvent), from the market's
 * board (src/text/market-board.ts): the owner's listings, its matches with where each match's room
 * stands (from the room's verified fold when the window follows it, else whether the relay has
 * it) and what the page may do there, and its allowance in words (read-only: what the store
 * counts, against the limits the market seat's mandate sets). Pure: no I/O, no clock.
 */
import type { RoomPresence } from "../client/index.js";
import type { AllowanceCommitment, AllowanceFile } from "../owner/allowance-store.js";
import type { MandateAllowance } from "../owner/records.js";
import { allowanceTotals } from "../owner/allowance-store.js";
import { own, type TableState } from "../protocol/index.js";
import { allowanceAmount, commitmentText } from "../text/allowance.js";
import type { BoardMatch, MarketBoard } from "../text/market-board.js";
import type { AllowanceView, DealView, MarketListing, MarketMatch } from "./wire.js";

/** The listings of owner `me` on `board`, live first. */
export function ownListings(board: MarketBoard, me: string): MarketListing[] {
  return board.listings.filter((l) => l.owner === me).map(({ owner: _owner, ...listing }) => listing);
}

/** A match's room as the window follows it: its verified fold and its deals in words. */
export interface FollowedRoom {
  state: TableState;
  deals: DealView[];
}

/** What is known of a match's room: followed (its fold), or only whether the relay has it (`unknown` when the relay did not say). */
export type RoomSeen = { followed: FollowedRoom } | { presence: RoomPresence | "unknown" };

/** The matches on `board` in which owner `me` (key `myKey`) is a side, oldest first, each with how its room stands (`seen(room)`). */
export function ownMatches(
  board: MarketBoard,
  me: string,
  myKey: string,
  seen: (room: string) => RoomSeen,
): MarketMatch[] {
  return board.matches
    .filter((m) => m.offer.key === myKey || m.want.key === myKey)
    .map((m) => matchRow(m, me, myKey, seen(m.room)));
}

/** One of `me`'s matches for the page: this owner's listing first, the other side, and its room's standing. */
export function matchRow(m: BoardMatch, me: string, myKey: string, seen: RoomSeen): MarketMatch {
  const offering = m.offer.key === myKey;
  const [mine, theirs] = offering ? [m.offer, m.want] : [m.want, m.offer];
  const followed = "followed" in seen ? seen.followed : null;
  return {
    seq: m.seq,
    side: offering ? "offer" : "want",
    title: mine.title,
    their_title: theirs.title,
    other: theirs.owner,
    words: m.words,
    sale: m.sale,
    quantity: m.quantity,
    room: m.room,
    ...roomStanding(m, me, myKey, seen),
    deals: followed?.deals ?? [],
    recorded: m.deal,
  };
}

/** Where the room of `m` stands for `me`, in words, whether `me` is in it, and what the page's button does. */
function roomStanding(
  m: BoardMatch,
  me: string,
  myKey: string,
  seen: RoomSeen,
): Pick<MarketMatch, "state" | "state_words" | "entered" | "action"> {
  if ("presence" in seen) {
    const entered = false;
    if (m.deal !== null)
      return {
        state: "deal_done",
        state_words: `deal done: recorded in the market at #${m.deal}`,
        entered,
        action: null,
      };
    if (seen.presence === "none")
      return { state: "not_opened", state_words: "not opened yet: either side opens it", entered, action: "open" };
    if (seen.presence === "deleted")
      return { state: "no_deal", state_words: "no deal: the room was deleted", entered, action: null };
    if (seen.presence === "unknown")
      return {
        state: "unknown",
        state_words: "not known: the relay did not say whether the room exists",
        entered,
        action: "enter",
      };
    return {
      state: "open",
      state_words: "open: the other side opened it; enter it to negotiate",
      entered,
      action: "enter",
    };
  }
  const { state, deals } = seen.followed;
  const entered = inRoom(state, me, myKey);
  const action = entered ? null : "enter";
  if (m.deal !== null)
    return {
      state: "deal_done",
      state_words: `deal done: both owners signed, recorded in the market at #${m.deal}`,
      entered,
      action: null,
    };
  const done = deals.find((d) => d.status === "done");
  if (done)
    return {
      state: "deal_done",
      state_words: `deal done: both owners signed the deal on offer #${done.offer_seq}; the market has not recorded it yet`,
      entered,
      action: null,
    };
  if (state.closed !== null)
    return {
      state: "no_deal",
      state_words: `no deal: the room closed (${state.closed.reason}) at #${state.closed.seq}`,
      entered,
      action: null,
    };
  const pending = deals.find((d) => d.status === "pending");
  if (pending)
    return {
      state: "deal_pending",
      state_words: `deal pending on offer #${pending.offer_seq}: ${pending.lines[0] ?? ""}`.trim(),
      entered,
      action,
    };
  return {
    state: "open",
    state_words: entered ? "open: negotiating" : "open: the other side opened it; enter it to negotiate",
    entered,
    action,
  };
}

/** Whether owner `me` (key `myKey`) is in the room `state` folds: its creator, or a party admitted and not ejected. */
function inRoom(state: TableState, me: string, myKey: string): boolean {
  if (own(state.config.owners, me)?.public_key === myKey) return true;
  const party = state.room ? own(state.room.parties, me) : undefined;
  return party !== undefined && party.public_key === myKey && party.ejected === null;
}

/** The allowance limits a mandate sets, and which seat's mandate at which table. */
export interface AllowanceLimit {
  allowance: MandateAllowance;
  seat: string;
  table: string;
}

/** What was read: the store (or why it cannot be trusted), and the limits (or why no mandate could be read). */
export interface AllowanceRead {
  store: { file: AllowanceFile } | { problem: string };
  limit: AllowanceLimit | null;
  mandateProblem: string | null;
}

/** The allowance in words: the figures (what is counted against the limits), where the limits come from, and each commitment (open first). */
export function allowanceView({ store, limit, mandateProblem }: AllowanceRead): AllowanceView {
  const commitments = "file" in store ? store.file.commitments : [];
  const currency = limit?.allowance.currency ?? commitments.find((c) => c.currency !== undefined)?.currency;
  const totals = allowanceTotals(commitments);
  const money = (n: number) => allowanceAmount(n, currency);
  const total = limit?.allowance.total ?? null;
  const openLimit = limit?.allowance.open ?? null;
  const figures: AllowanceView["figures"] = [
    { name: "total", label: "Allowance", value: total === null ? "not set" : money(total) },
    { name: "spent", label: "Spent", value: money(totals.spent) },
    { name: "reserved", label: "Reserved", value: money(totals.reserved) },
    ...(total === null
      ? []
      : [{ name: "left" as const, label: "Left", value: money(Math.max(0, total - totals.spent - totals.reserved)) }]),
    {
      name: "open",
      label: "Open commitments",
      value: openLimit === null ? String(totals.open) : `${totals.open} of at most ${openLimit}`,
    },
  ];
  const source = limit
    ? `set by ${limit.seat}'s mandate at ${limit.table}, which the rooms of its matches carry; counted by this home's allowance store`
    : "no allowance set: no mandate of your seats at this market in this home has one (trestle mandate set --allowance)";
  const problems = ["problem" in store ? store.problem : null, mandateProblem].filter((p): p is string => p !== null);
  return {
    currency: currency ?? null,
    total,
    open_limit: openLimit,
    source: limit ? `${limit.seat}'s mandate at ${limit.table}` : null,
    spent: totals.spent,
    reserved: totals.reserved,
    open: totals.open,
    figures,
    lines: [source],
    commitments: [...commitments]
      .sort((a, b) => Number(b.state === "open") - Number(a.state === "open") || a.at - b.at)
      .map(commitmentWords),
    problem: problems.length === 0 ? null : problems.join("; "),
  };
}

/** One commitment in words: open or spent, the write and its room, the side, and what it counts (the buyer's amount; the seller's one open commitment). */
function commitmentWords(c: AllowanceCommitment): AllowanceView["commitments"][number] {
  const counts =
    c.side === "buyer"
      ? `: ${allowanceAmount(c.amount, c.currency)}`
      : c.state === "open"
        ? ": counts as one open commitment"
        : "";
  return {
    state: c.state,
    words: `${c.state}: ${commitmentText(c)} by ${c.seat} in ${c.room}, as the ${c.side}${counts}`,
  };
}
