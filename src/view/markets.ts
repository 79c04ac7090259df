/**
 * The principal window's markets (docs/VIEW.md "Your markets", docs/MARKETS.md): for a followed
 * table that is a market this owner created or is a party of, the `market` event: the owner's
 * listings and matches from the market's verified fold (src/text/market-board.ts), where each
 * match's room stands (from the room's own verified fold when the window follows it, else whether
 * the relay has it, one unsigned head read), the room's deals, and the owner's allowance across the
 * market's rooms (its store and its market seats' mandates, read-only). And the two things the
 * page asks for there: entering the room of a match (owner/market-rooms.ts enterMatchRoom, as
 * `trestle market room`, its seat key created in this home when missing) and reconciling the
 * allowance from the rooms' verified ledgers (as `trestle allowance reconcile`).
 */
import { loadOrCreateKeyFile, openTable, roomPresence, seatKeyPath, type HttpClient } from "../client/node.js";
import {
  AllowanceStore,
  enterMatchRoom,
  readMandate,
  reconcileAllowance,
  seatFiles,
  seatReader,
} from "../owner/index.js";
import { own, TrestleError, type TableState } from "../protocol/index.js";
import { allowanceTotalsText } from "../text/allowance.js";
import { oneLine } from "../text/format.js";
import { marketBoard, type BoardMatch } from "../text/market-board.js";
import { enteredRoomLines } from "../text/match-room.js";
import {
  allowanceView,
  matchRow,
  ownListings,
  type AllowanceLimit,
  type AllowanceRead,
  type RoomSeen,
} from "./market-rows.js";
import { dealViews, errorWords as words, type LoopContext } from "./owner-loop.js";
import type { TableWatch } from "./table-watch.js";
import type { MarketEvent } from "./wire.js";

/** What reading a market needs besides its watch: the window's context, the relay, and the watch of any table it follows. */
export interface MarketContext extends LoopContext {
  relay: HttpClient;
  watchOf(table: string): TableWatch | undefined;
}

/** The market `watch` follows, as this owner's `market` event; null when the table is no market, or this owner is neither its creator nor a party of it. */
export async function readMarket(ctx: MarketContext, watch: TableWatch): Promise<MarketEvent | null> {
  const state = watch.folded;
  const market = state?.market;
  const me = ctx.owner.name;
  const myKey = ctx.owner.signer.publicKeyText;
  if (!state || !market) return null;
  const creator = own(state.config.owners, me)?.public_key === myKey;
  const party = state.room ? own(state.room.parties, me) : undefined;
  if (!creator && (party?.public_key !== myKey || party.ejected !== null)) return null;
  const board = marketBoard(state, market, watch.entries(), ctx.clock());
  const problems: string[] = [];
  const mine = board.matches.filter((m) => m.offer.key === myKey || m.want.key === myKey);
  const matches = await Promise.all(
    mine.map(async (m) => matchRow(m, me, myKey, await roomSeen(ctx, watch, m, problems))),
  );
  return {
    type: "market",
    table: watch.table,
    topic: oneLine(state.config.topic),
    role: creator ? "creator" : "member",
    public: state.config.public === true,
    listings: ownListings(board, me),
    matches,
    allowance: allowanceView(await readAllowance(ctx, state)),
    problem: problems.length === 0 ? null : problems.join("; "),
  };
}

/** How the room of match `m` stands: its verified fold when the window follows it, else whether the relay has it (`unknown`, with the reason in `problems`, when the relay did not say). */
async function roomSeen(ctx: MarketContext, market: TableWatch, m: BoardMatch, problems: string[]): Promise<RoomSeen> {
  const room = ctx.watchOf(m.room);
  if (room?.folded) return { followed: { state: room.folded, deals: dealViews(room, ctx.owner.name) } };
  try {
    return { presence: await roomPresence(market.client.http, m.room) };
  } catch (error) {
    problems.push(`cannot tell whether room ${m.room} exists: ${words(error)}`);
    return { presence: "unknown" };
  }
}

/** This owner's allowance store in the market `state` folds (or why it cannot be trusted), and the allowance its seats' mandates there set (the first that sets one). */
async function readAllowance(ctx: LoopContext, state: TableState): Promise<AllowanceRead> {
  const me = ctx.owner.name;
  const ownerKey = ctx.owner.signer.publicKeyText;
  let store: AllowanceRead["store"];
  try {
    store = { file: storeOf(ctx, state.table).read() };
  } catch (error) {
    store = { problem: words(error) };
  }
  let limit: AllowanceLimit | null = null;
  const problems: string[] = [];
  for (const seat of Object.values(state.seats).filter((s) => s.owner === me)) {
    const read = await readMandate(seatFiles(ctx.home, state.table, seat.name).mandate, {
      table: state.table,
      seat: seat.name,
      ownerKey,
    });
    if (read.ok && read.mandate.allowance && limit === null)
      limit = { allowance: read.mandate.allowance, seat: seat.name, table: state.table };
    if (!read.ok && read.reason !== "no_mandate")
      problems.push(`${seat.name}'s mandate does not hold: ${read.message}`);
  }
  return { store, limit, mandateProblem: problems.length === 0 ? null : problems.join("; ") };
}

/** This owner's allowance store in `market`. */
function storeOf(ctx: LoopContext, market: string): AllowanceStore {
  return new AllowanceStore(ctx.home, { owner: ctx.owner.name, ownerKey: ctx.owner.signer.publicKeyText, market });
}

/**
 * Opens the room of this owner's match `seq` in the market `watch` follows, or enters the one the
 * other side opened, and seats the bot that wrote this owner's listing there, its mandate carried
 * (as `trestle market room`); its seat key is this home's, created when missing. Returns the room
 * and what was done, in words.
 */
export async function enterRoom(
  ctx: MarketContext,
  watch: TableWatch,
  seq: number,
): Promise<{ room: string; message: string }> {
  const me = ctx.owner;
  const created: string[] = [];
  const entered = await enterMatchRoom({
    market: watch.client,
    seq,
    owner: me.name,
    ownerSigner: me.signer,
    seatKey: async (seat) => {
      const path = seatKeyPath(ctx.home, seat);
      const { key, created: made } = await loadOrCreateKeyFile(path, "seat", seat);
      if (made) created.push(`created seat key ${path}`);
      return key.signer.publicKeyText;
    },
    home: ctx.home,
    clock: ctx.clock,
  });
  return { room: entered.room, message: [...enteredRoomLines(entered, watch.table), ...created].join("; ") };
}

/** Brings this owner's allowance in the market `watch` follows up to date from every room's verified ledger, each read as the seat that wrote there (as `trestle allowance reconcile`); returns what it did, in words. */
export async function reconcile(ctx: MarketContext, watch: TableWatch): Promise<string> {
  if (!watch.folded?.market)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `table ${watch.table} is not a market this window has read, so it has no allowance`,
    );
  const store = storeOf(ctx, watch.table);
  const done = await reconcileAllowance(
    store,
    seatReader(ctx.home, (room) => openTable({ relay: ctx.relay, table: room, home: ctx.home, clock: ctx.clock })),
    ctx.clock,
  );
  const currency = store.read().commitments.find((c) => c.currency !== undefined)?.currency;
  const rooms = done.rooms.map((r) =>
    r.ok ? `${r.room} brought up to date` : `${r.room} kept as it was (${r.reason})`,
  );
  return [
    `allowance in ${watch.table} reconciled with ${ctx.owner.name}'s seats' keys`,
    `before: ${allowanceTotalsText(done.before, currency)}`,
    `after: ${allowanceTotalsText(done.after, currency)}`,
    ...rooms,
  ].join("; ");
}
