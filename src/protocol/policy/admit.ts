/**
 * decide(state, draft) for trestle (docs/SPEC.md §3): `admit` either refuses a draft with a
 * TrestleError, or returns every entry to append (the draft as entry `seq`, then the system
 * entries it causes: tasks, leaving seats, decisions by quorum, floor moves, closing) and the state
 * after them. Pure: the input state is
 * never mutated (unless the caller hands it over: `consume`), and the same inputs always give the
 * same entries, so any verifier can replay it.
 */
import { TrestleError } from "../errors.js";
import type { TableConfig } from "../schemas/config.js";
import type { Entry, EntryDraft, SystemDraftOf, SystemEntryOf, UnchainedEntry } from "../schemas/entry.js";
import { checkAuthored } from "./admit-authored.js";
import { checkJoin } from "./admit-join.js";
import { checkApproval, checkEndorsement, checkGateway, worksAfterClose } from "./admit-gateway.js";
import { requestConsequences } from "./exchanges.js";
import { taskConsequences } from "./tasks.js";
import { checkWatchdog } from "./watchdog.js";
import { checkChildOpening, checkSubtableOpened, checkSubtableResult } from "./admit-subtable.js";
import { applyEntry, openedState } from "./apply.js";
import { validateConfig } from "./config-check.js";
import {
  botDepthReached,
  floorCanStart,
  humanForBotDepth,
  nextMove,
  startMove,
  TURN_KINDS,
  type FloorMove,
} from "./floor.js";
import { cloneState, type TableState } from "./state.js";
import { closeReasonAfter } from "./termination.js";
import { floorEndReason } from "./liveness.js";
import { fitLedger } from "./ledger-limit.js";
import { checkControl, checkNotPaused } from "./pause.js";
import { quorumDecision } from "./votes.js";
import { own } from "../encoding/records.js";
import { LIMITS } from "../limits/limits.js";
import { checkEject, checkInvite, ejectedSeatsLeft } from "./invites.js";
import { checkRoomKind, roomKindAfterClose, roomKindCloses, roomKindSettles } from "./kinds/registry.js";
import { checkSettlement } from "./auctions.js";
import { checkSealed } from "./sealed.js";
import { checkCustody, isCustodyDraft } from "./custody.js";
import { checkNotRevoked, checkRevoke, revokedSeatLeft } from "./seat-revoke.js";
import { checkMarketKind, marketConsequences } from "./market/registry.js";
import { checkDealRecorded } from "./market/recorded-deals.js";
import { checkListingSettled } from "./market/sealed-settlement.js";
import { checkMatchRoomCreator } from "./market/citation.js";
import { checkGroupBound, checkGroupListing, checkGroupUnbound, checkGroupUnlist } from "./market/groups.js";

/** Whether `draft` is a room write its kind lets land after the close (a deal's signature), while the ledger holds fewer than `maxEntries` entries. */
function signsAfterClose(state: TableState, draft: EntryDraft, maxEntries: number): boolean {
  return (
    draft.kind !== "system" && draft.kind !== "approval" && state.seq < maxEntries && roomKindAfterClose(state, draft)
  );
}

/** What an accepted draft produces. */
export interface Admitted {
  entries: UnchainedEntry[];
  state: TableState;
}

/**
 * Judges `draft` at time `now` against `state` (null before the table exists). `maxEntries` is the
 * relay's published ledger limit (LIMITS.entries); a verifier passes the limit the relay published.
 * With `consume`, `state` itself becomes the returned state (and is left half-changed by a
 * refusal): only for a caller that never uses it again, such as a verifier's replay.
 */
export function admit(
  state: TableState | null,
  draft: EntryDraft,
  now: number,
  maxEntries: number = LIMITS.entries,
  consume = false,
): Admitted {
  if (draft.kind === "system" && draft.subkind === "table_opened") return admitOpening(state, draft, now);
  if (!state) throw new TrestleError("E_TABLE_NOT_FOUND");
  if (draft.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `entry is for table "${draft.table}"`);
  // A revocation is a brake: it lands after the close too, where a revoked key could still do task work.
  if (
    state.closed &&
    !isCustodyDraft(draft) &&
    !isRevokeDraft(draft) &&
    !worksAfterClose(state, draft, maxEntries) &&
    !signsAfterClose(state, draft, maxEntries)
  ) {
    throw new TrestleError("E_CLOSED", `the table closed at entry ${state.closed.seq} (${state.closed.reason})`);
  }
  if (draft.kind === "system") {
    checkSystem(state, draft, now, maxEntries);
  } else if (draft.kind === "approval") {
    checkApproval(state, draft);
  } else {
    checkNotRevoked(state, draft.author.key);
    checkNotPaused(state, draft.seat);
    checkAuthored(state, draft);
    checkGateway(state, draft);
    checkRoomKind(state, draft, now);
    checkMarketKind(state, draft, now);
    checkSealed(state, draft);
  }
  const before = state.seq;
  const next = consume ? state : cloneState(state);
  const primary = { ...draft, seq: state.seq + 1, ts: now } as UnchainedEntry;
  applyEntry(next, primary);
  const admitted = withConsequences(next, primary, now);
  // The ledger limit (§5.4): the whole batch fits, with the ledger_full close when it leaves too little room.
  return { entries: fitLedger(admitted.state, admitted.entries, before, maxEntries, now), state: admitted.state };
}

/** The admitted batch: `primary` (already applied to `next`), then each entry it causes, applied in order. */
function withConsequences(next: TableState, primary: UnchainedEntry, now: number): Admitted {
  const entries = [primary];
  const emit = (entry: UnchainedEntry) => entries.push(applyEntry(next, entry) && entry);
  for (const effect of consequences(next, primary)) emit({ ...effect, seq: next.seq + 1, ts: now } as UnchainedEntry);
  return { entries, state: next };
}

/** Throws the refusal for a system draft a request may bring; every other subkind is only ever caused. */
function checkSystem(
  state: TableState,
  draft: Extract<EntryDraft, { kind: "system" }>,
  now: number,
  maxEntries: number,
): void {
  switch (draft.subkind) {
    case "seat_joined":
      checkJoin(state, draft, now);
      return checkEndorsement(state, draft);
    case "task_state":
      return checkWatchdog(state, draft, now, maxEntries);
    case "table_paused":
    case "table_resumed":
      return checkControl(state, draft);
    case "subtable_opened":
      return checkSubtableOpened(state, draft);
    case "subtable_result":
      return checkSubtableResult(state, draft);
    case "invite_issued":
      return checkInvite(state, draft, now);
    case "seat_ejected":
      return checkEject(state, draft);
    case "auction_settled":
      return checkSettlement(state, draft, now);
    case "custody":
      return checkCustody(state, draft);
    case "seat_revoked":
      return checkRevoke(state, draft);
    case "deal_recorded":
      return checkDealRecorded(state, draft);
    case "listing_settled":
      return checkListingSettled(state, draft, now);
    case "group_bound":
      return checkGroupBound(state, draft, now);
    case "group_unbound":
      return checkGroupUnbound(state, draft, now);
    case "group_listing":
      return checkGroupListing(state, draft, now);
    case "group_unlist":
      return checkGroupUnlist(state, draft, now);
    default:
      throw new TrestleError("E_FORBIDDEN", `a ${draft.subkind} entry is only ever caused by another entry`);
  }
}

function isRevokeDraft(draft: EntryDraft): boolean {
  return draft.kind === "system" && draft.subkind === "seat_revoked";
}

function admitOpening(state: TableState | null, draft: SystemDraftOf<"table_opened">, now: number): Admitted {
  if (state) throw new TrestleError("E_TABLE_EXISTS");
  const config = validateConfig(draft.data.config);
  if (draft.data.parent || config.parent) return admitChildOpening(config, draft, now);
  const creator = own(config.owners, draft.data.creator);
  if (!creator) throw new TrestleError("E_NOT_OWNER", `"${draft.data.creator}" is not an owner in the config`);
  if (draft.author.key !== creator.public_key)
    throw new TrestleError("E_BAD_SIGNATURE", "not signed by the creator's key");
  if (draft.table !== config.id) throw new TrestleError("E_WRONG_TABLE", "entry table differs from config id");
  checkMatchRoomCreator(config, draft.data.creator);
  const entry = { ...draft, seq: 1, ts: now } as SystemEntryOf<"table_opened">;
  return { entries: [entry as UnchainedEntry], state: openedState(entry) };
}

/** A sub-table's first entry seats its carried seats, and starts the floor when the topology's seats are all there. */
function admitChildOpening(config: TableConfig, draft: SystemDraftOf<"table_opened">, now: number): Admitted {
  if (draft.table !== config.id) throw new TrestleError("E_WRONG_TABLE", "entry table differs from config id");
  checkChildOpening(config, draft);
  const entry = { ...draft, seq: 1, ts: now } as SystemEntryOf<"table_opened">;
  return withConsequences(openedState(entry), entry as UnchainedEntry, now);
}

type Consequence =
  | SystemDraftOf<"floor">
  | SystemDraftOf<"table_closed">
  | SystemDraftOf<"decision">
  | SystemDraftOf<"task_opened">
  | SystemDraftOf<"task_state">
  | SystemDraftOf<"seat_left">
  | SystemDraftOf<"auction_settled">
  | SystemDraftOf<"match">
  | SystemDraftOf<"listing_settled">;

/** Subkinds admit only ever produces as consequences (a task_state without a cause is the watchdog's, an input of its own). */
const CAUSED: ReadonlySet<string> = new Set<Consequence["subkind"]>([
  "floor",
  "table_closed",
  "decision",
  "task_opened",
  "task_state",
  "seat_left",
  "match",
]);

/** Whether `entry` was caused by the entry before it, in the same admitted batch: a relay's heads never fall right before one. */
export function isCaused(entry: Entry): boolean {
  if (entry.kind !== "system" || !CAUSED.has(entry.subkind)) return false;
  return entry.subkind !== "task_state" || entry.data.cause !== null;
}

/** The system entries an applied entry causes, in order; each is applied before the next is judged. */
function* consequences(state: TableState, entry: UnchainedEntry): Generator<Consequence> {
  const base = { table: state.table, seat: null, kind: "system" as const, author: null };
  const close = (reason: SystemEntryOf<"table_closed">["data"]["reason"]) => ({
    ...base,
    subkind: "table_closed" as const,
    data: { reason },
  });
  const floor = (move: Exclude<FloorMove, { exhausted: true }>) => ({
    ...base,
    subkind: "floor" as const,
    data: { holder: move.holder, round: move.round, reason: move.reason },
  });
  // Liveness (§5.2): a move that ends the floor, or leaves it with nobody, closes the table instead.
  const settle = (move: FloorMove) => {
    const ending = floorEndReason(state, move);
    return ending !== null || "exhausted" in move ? close(ending ?? "rounds_exhausted") : floor(move);
  };

  // Commit gateway (§5.6, §5.7): tasks and leaving seats first; after the close only task work goes on.
  yield* taskConsequences(state, entry);
  yield* requestConsequences(state, entry);
  // Rooms (§5.10): an ejection removes its seat (an invited party's: every seat of it, in join order);
  // a close ends the room whatever termination says.
  if (entry.kind === "system" && entry.subkind === "seat_ejected") yield* ejectedSeatsLeft(state, entry.data.seat);
  // Revocation (§5.13): the revoked seat leaves; the floor moves on below as when any holder leaves.
  if (entry.kind === "system" && entry.subkind === "seat_revoked") yield revokedSeatLeft(state, entry.data.seat);
  // Markets (§5.15): a listing's matches, each applied before the next is judged; a sealed listing's settlement and its sale's match.
  yield* marketConsequences(state, entry);
  // Sealed-bid auctions (§5.11): the reveal that decides an auction settles it.
  const settled = roomKindSettles(state, entry);
  if (settled) yield settled;
  const closing = state.closed ? null : roomKindCloses(state, entry);
  if (closing) return yield closing;
  if (state.closed) return;
  const reason = closeReasonAfter(state, entry);
  if (reason) return yield close(reason);
  const holder = state.floor.holder;
  if (holder !== null && own(state.seats, holder)?.left !== null) {
    // A holder who left ends its turn as if it passed; if the topology would let it keep the floor, nobody can hold it.
    const move = nextMove(state, { seat: holder, kind: "pass" });
    return yield settle(move ?? { holder: null, round: state.floor.round, reason: "turn" });
  }
  if (entry.kind === "approval") return;
  if (entry.kind === "system") {
    if ((entry.subkind === "seat_joined" || entry.subkind === "table_opened") && floorCanStart(state)) {
      yield settle(startMove(state));
    }
    return;
  }
  if (entry.kind === "vote") {
    const decision = quorumDecision(state, entry);
    if (!decision) return;
    yield decision;
    const closing = closeReasonAfter(state, decision);
    return closing ? yield close(closing) : undefined;
  }
  const wasHolder = state.floor.holder === entry.seat;
  const endsTurn = TURN_KINDS.has(entry.kind) && (wasHolder || !own(state.seats, entry.seat)?.human);
  if (!endsTurn) return;
  if (botDepthReached(state)) {
    const human = humanForBotDepth(state);
    return yield human ? floor({ holder: human, round: state.floor.round, reason: "bot_depth" }) : close("bot_depth");
  }
  if (!wasHolder) return;
  const move = nextMove(state, { seat: entry.seat, kind: entry.kind, to: "to" in entry ? entry.to : undefined });
  if (move) yield settle(move);
}
