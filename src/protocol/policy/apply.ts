/**
 * The fold (docs/SPEC.md §3): `applyEntry` moves a state over one ledger entry, `fold` over a
 * whole ledger. Entries are trusted here (the ledger's own or already admitted); judging a write
 * is admit.ts's job.
 */
import { TrestleError } from "../errors.js";
import type { Entry, SystemEntryOf, UnchainedEntry } from "../schemas/entry.js";
import { applyFloorEntry, TURN_KINDS } from "./floor.js";
import { applyEndorsement, applyGatewayAuthored, applyTaskEntry, restartTaskClocks } from "./apply-gateway.js";
import { frozenConfig, type TableState } from "./state.js";
import { tokenCost } from "./termination.js";
import { foldControl, isPaused } from "./pause.js";
import { carriedSeats } from "./admit-subtable.js";
import { applyBallot, applyQuorumDecision } from "./votes.js";
import { own } from "../encoding/records.js";
import { applyEject, applyInvite, applyPartyJoin } from "./invites.js";
import { applyRoomKind } from "./kinds/registry.js";
import { emptyRoom } from "./room-state.js";
import { applySettlement } from "./auctions.js";
import { applyCustody } from "./custody.js";
import { applyRevoke } from "./seat-revoke.js";
import { applyMarketDeal, applyMarketKind, applyMatch } from "./market/registry.js";
import { emptyMarket } from "./market/market-state.js";
import { applyListingSettled } from "./market/sealed-settlement.js";
import { applyGroupBound, applyGroupListing, applyGroupUnbound, applyGroupUnlist } from "./market/groups.js";
import { leafOf } from "../ledger/chain.js";

/** The state right after the first entry, `table_opened`. */
export function openedState(entry: Pick<SystemEntryOf<"table_opened">, "seq" | "data">): TableState {
  return {
    table: entry.data.config.id,
    config: frozenConfig(entry.data.config),
    relay: entry.data.relay,
    creator: entry.data.creator,
    seq: entry.seq,
    seats: carriedSeats(entry.data.parent),
    floor: {
      started: false,
      holder: null,
      round: 0,
      cursor: { round: 1, pos: 0 },
      hands: [],
      bot_run: 0,
    },
    tokens: 0,
    authored: 0,
    decisions: [],
    closed: null,
    pauses: {},
    tasks: {},
    requests: {},
    // A sub-table's config is signed by the opening seat's key, not by any owner: nobody endorsed it.
    endorsed: entry.data.parent ? [] : [entry.data.creator],
    chat_covered: {},
    proposals: [],
    subtables: {},
    origins: {},
    room: entry.data.config.room || entry.data.config.market ? emptyRoom() : null,
    market: entry.data.config.market ? emptyMarket(entry.data.config.market.categories) : null,
    custody: null,
    revoked: [],
  };
}

/** Applies one entry (seq must be state.seq + 1); mutates and returns `state`. */
export function applyEntry(state: TableState, entry: UnchainedEntry): TableState {
  if (entry.seq !== state.seq + 1) {
    throw new TrestleError("E_INTERNAL", `entry ${entry.seq} applied after ${state.seq}`);
  }
  state.seq = entry.seq;
  if (entry.kind === "system") {
    applySystem(state, entry);
    return state;
  }
  if (entry.kind === "approval") return state;
  const seat = own(state.seats, entry.seat);
  state.authored += 1;
  state.tokens += tokenCost(entry);
  if (seat?.human) state.floor.bot_run = 0;
  else if (TURN_KINDS.has(entry.kind)) state.floor.bot_run += 1;
  if (entry.kind === "raise_hand") state.floor.hands.push(entry.seat);
  if (entry.kind === "decision") {
    state.decisions.push({
      seq: entry.seq,
      seat: entry.seat,
      body: entry.body,
      ...(entry.refs ? { refs: [...entry.refs] } : {}),
    });
  }
  if (entry.kind === "proposal" || entry.kind === "vote") applyBallot(state, entry);
  applyGatewayAuthored(state, entry);
  applyRoomKind(state, entry);
  applyMarketKind(state, entry);
  return state;
}

function applySystem(state: TableState, entry: Extract<UnchainedEntry, { kind: "system" }>): void {
  switch (entry.subkind) {
    case "table_opened":
      throw new TrestleError("E_INTERNAL", "table_opened can only be the first entry");
    case "seat_joined": {
      const { join, card } = entry.data;
      // A name whose key was revoked is seated again in place (§5.13): the revoked key stays in state.revoked.
      state.seats[join.seat] = {
        name: join.seat,
        owner: join.owner,
        key: join.seat_key,
        human: join.human,
        card,
        joined: entry.seq,
        left: null,
      };
      applyEndorsement(state, join);
      if (state.room) applyPartyJoin(state.room, join, entry.seq);
      return;
    }
    case "seat_left": {
      const seat = own(state.seats, entry.data.seat);
      if (seat) seat.left = entry.seq;
      state.floor.hands = state.floor.hands.filter((h) => h !== entry.data.seat);
      return;
    }
    case "floor":
      applyFloorEntry(state, entry);
      return;
    case "table_closed":
      state.closed = { reason: entry.data.reason, seq: entry.seq };
      state.floor.holder = null;
      return;
    case "table_paused":
    case "table_resumed":
      foldControl(state.pauses, entry);
      // The table runs again once the last pause is lifted: the watchdog's clocks start over then.
      if (entry.subkind === "table_resumed" && !isPaused(state)) restartTaskClocks(state, entry.ts);
      return;
    case "task_opened":
    case "task_state":
      applyTaskEntry(state, entry);
      return;
    case "decision":
      applyQuorumDecision(state, entry);
      return;
    case "subtable_opened":
      state.subtables[entry.data.config.id] = { opened: entry.seq, result: null };
      return;
    case "subtable_result": {
      const child = own(state.subtables, entry.data.table);
      if (child) child.result = entry.seq;
      return;
    }
    case "invite_issued":
      if (state.room) applyInvite(state.room, entry);
      return;
    case "seat_ejected":
      applyEject(state, entry);
      return;
    case "auction_settled":
      if (state.room) applySettlement(state, state.room, entry);
      return;
    case "custody":
      applyCustody(state, entry);
      return;
    case "seat_revoked":
      applyRevoke(state, entry);
      return;
    case "match":
      applyMatch(state, entry);
      return;
    case "deal_recorded":
      applyMarketDeal(state, entry);
      return;
    case "listing_settled":
      applyListingSettled(state, entry);
      return;
    case "group_bound":
      applyGroupBound(state, entry);
      return;
    case "group_unbound":
      applyGroupUnbound(state, entry);
      return;
    case "group_listing":
      applyGroupListing(state, entry, leafOf(entry));
      return;
    case "group_unlist":
      applyGroupUnlist(state, entry);
      return;
  }
}

/** Applies `entries` (which must follow `state.seq` in order) onto `state`, a fold of the entries before them; mutates and returns it. */
export function foldOnto(state: TableState, entries: readonly (Entry | UnchainedEntry)[]): TableState {
  for (const entry of entries) applyEntry(state, entry);
  return state;
}

/** Folds a whole ledger (entries 1..n in order) into its state. */
export function fold(entries: readonly (Entry | UnchainedEntry)[]): TableState {
  const [first, ...rest] = entries;
  if (!first || first.kind !== "system" || first.subkind !== "table_opened" || first.seq !== 1) {
    throw new TrestleError("E_INTERNAL", "a ledger starts with table_opened at seq 1");
  }
  return foldOnto(openedState(first), rest);
}
