/**
 * From a market's match to its room, on the owner's machine (docs/SPEC.md §5.15, decision 0461):
 * the owner of either side opens the room (the id the match determines, its config citing the
 * match by the relay's signed head) and seats a bot, or joins the room the other side opened with
 * its own key and no invite; nothing is passed by hand. The room seat is guarded like any room
 * seat: when the owner's market seat (the one that wrote its listing in the match) has a mandate,
 * the room seat gets the same limits, signed again with the owner key, before it is seated, so the
 * agent in the room is bound by the owner's limits; a market seat's mandate that does not hold
 * (malformed, not signed by the owner's key) stops everything (E_MANDATE), as the guards would.
 */
import {
  MarketClient,
  matchRoomConfigFor,
  matchesOf,
  roomPresence,
  type Clock,
  type TableClient,
} from "../client/index.js";
import { openTable } from "../client/node.js";
import { systemClock } from "../client/random.js";
import {
  matchSeatOf,
  TrestleError,
  type CapabilityCard,
  type JoinResponse,
  type MarketState,
  type Signer,
  type TableConfig,
  type TableState,
} from "../protocol/index.js";
import type { Mandate } from "./records.js";
import { readMandate, nextMandate, signMandate, writeMandateFile, type MandateFor } from "./mandate.js";
import { marketState } from "./market-view.js";
import { seatFiles } from "./paths.js";
import { readTranscript, type Transcript } from "./transcript.js";

/** How an owner enters the room of a match. */
export interface EnterMatchRoom {
  /** The market, as a client of this home. */
  market: TableClient;
  /** The match entry's seq. */
  seq: number;
  owner: string;
  ownerSigner: Signer;
  /** The room seat's name (default: the market seat that wrote this owner's listing in the match; required when a chat group posted it, and then also the market seat whose mandate is carried). */
  seat?: string;
  /** The public key the room seat `seat` takes. */
  seatKey(seat: string): Promise<string>;
  card?: CapabilityCard;
  /** The trestle home: mandates, heads and pins. */
  home: string;
  /** How long the signed join stays valid (default 10 minutes). */
  ttlMs?: number;
  clock?: Clock;
  /** The market's verified transcript as this owner holds it (its market seat's live transcript, say); default: the market's export, read now as the owner. */
  marketTranscript?: () => Promise<Transcript>;
}

/** Where an owner stands after entering a match's room. */
export interface EnteredRoom {
  room: string;
  match: number;
  /** `opened`: created by this owner and seated; `joined`: as the match's other side; `seated`: another seat of an owner already in it. */
  how: "opened" | "joined" | "seated";
  seat: string;
  /** The join's entry and head in the room. */
  seq: number;
  head: JoinResponse["head"];
  /** `carried`: the room seat holds its market seat's mandate, signed again; `none`: the market seat had none (the room seat commits to nothing until the owner writes one). */
  mandate: "carried" | "none";
  /** The room's client, for what the owner does next there. */
  client: TableClient;
}

/**
 * Opens the room of match `seq` (or joins it, when the other side opened it first) and seats the
 * owner's bot there, its mandate carried from the market seat. The match and its room's id are read
 * from the market's verified transcript (`marketTranscript`, or an export read now; E_UNKNOWN_MATCH,
 * or E_FORBIDDEN when the owner's key is neither side); only to create the room is its citation read,
 * and checked against the pinned relay key before anything is signed.
 */
export async function enterMatchRoom(options: EnterMatchRoom): Promise<EnteredRoom> {
  const clock = options.clock ?? systemClock;
  const { market, seq, owner, ownerSigner } = options;
  const ownerKey = ownerSigner.publicKeyText;
  const reader = { signer: ownerSigner, as: { owner } };
  const state = marketState(
    await (options.marketTranscript ? options.marketTranscript() : readTranscript(market, reader)),
  );
  const mine = matchesOf(state, ownerKey).find((m) => m.seq === seq);
  if (!mine) throw notOwnMatch(state, seq, owner);
  // A listing posted from a group has no seat: the seat named here is the owner's agent in the market, whose mandate the room seat carries.
  const marketSeat = matchSeatOf(state.market, seq, ownerKey) ?? options.seat;
  if (marketSeat === undefined)
    throw new TrestleError(
      "E_SCHEMA",
      `${owner}'s side of match ${seq} was posted from a chat group, so no seat wrote it: name the seat to take into its room`,
    );
  const source = await readMandate(seatFiles(options.home, market.table, marketSeat).mandate, {
    table: market.table,
    seat: marketSeat,
    ownerKey,
  });
  if (!source.ok && source.reason !== "no_mandate")
    throw new TrestleError(
      "E_MANDATE",
      `the mandate of ${marketSeat} at ${market.table} does not hold, so none can be carried into the room: ${source.message}`,
      { reason: source.reason },
    );
  const seat = options.seat ?? marketSeat;
  // The room's id is the one the verified match determines; its citation (MarketClient.match checks it determines the same) is read only to create the room.
  const presence = await roomPresence(market.http, mine.room);
  if (presence === "deleted")
    throw new TrestleError("E_TABLE_DELETED", `the room of match ${seq} (${mine.room}) was deleted`);
  const room = await openTable({ relay: market.http, table: mine.room, home: options.home, clock });
  // The room seat's limits are in place before the seat exists, so no write of it ever goes unguarded.
  if (source.ok)
    await carryMandate(options.home, source.mandate, { table: mine.room, seat, ownerKey }, ownerSigner, clock());
  const join = {
    seat,
    owner,
    seatKey: await options.seatKey(seat),
    card: options.card ?? {},
    expires: clock() + (options.ttlMs ?? 600_000),
  };
  const entered = (how: EnteredRoom["how"], joined: JoinResponse): EnteredRoom => ({
    room: mine.room,
    match: seq,
    how,
    seat,
    seq: joined.seq,
    head: joined.head,
    mandate: source.ok ? "carried" : "none",
    client: room,
  });
  if (
    presence === "none" &&
    (await created(
      room,
      ownerSigner,
      owner,
      matchRoomConfigFor(await new MarketClient(market).match(seq, reader), { owner, ownerKey }),
    ))
  ) {
    return entered("opened", await room.join(ownerSigner, join));
  }
  try {
    return entered("joined", await room.join(ownerSigner, { ...join, newcomer: {} }));
  } catch (error) {
    // Refused as a newcomer because this owner is already in the room (its creator, or the side that joined): an owner there seats another bot with a plain join.
    if (!(error instanceof TrestleError) || error.code !== "E_FORBIDDEN") throw error;
    return entered("seated", await room.join(ownerSigner, join));
  }
}

/** Why match `seq` of market `state` is not `owner`'s: E_FORBIDDEN when it is another's, E_UNKNOWN_MATCH when the market has no match there. */
export function notOwnMatch(state: TableState & { market: MarketState }, seq: number, owner: string): TrestleError {
  if (Object.hasOwn(state.market.matches, String(seq)))
    return new TrestleError(
      "E_FORBIDDEN",
      `match ${seq} of ${state.table} is not ${owner}'s: this owner key is neither side`,
    );
  return new TrestleError("E_UNKNOWN_MATCH", `no match at entry ${seq} in market ${state.table}`, { match: seq });
}

/** Creates the room from `config`; false when the other side created it first (E_TABLE_EXISTS). */
async function created(room: TableClient, signer: Signer, owner: string, config: TableConfig): Promise<boolean> {
  try {
    await room.create(signer, owner, config);
    return true;
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_TABLE_EXISTS") return false;
    throw error;
  }
}

/**
 * Signs for the seat `to` the limits of `from` (another seat's mandate) with the owner key: the same
 * money, never_disclose, require_confirm, pause, standing rule and agent view; loosened when `from`
 * was, or when it is looser than a mandate `to` already holds from this key.
 */
export async function carryMandate(
  home: string,
  from: Mandate,
  to: MandateFor,
  ownerSigner: Signer,
  now: number,
): Promise<void> {
  const path = seatFiles(home, to.table, to.seat).mandate;
  const { version: _version, loosened, signed_at: _signed, table: _table, seat: _seat, ...limits } = from;
  const current = await readMandate(path, to);
  const next = nextMandate(
    current.ok ? current.mandate : null,
    { ...limits, table: to.table, seat: to.seat, signed_at: now },
    false,
  );
  writeMandateFile(path, await signMandate(ownerSigner, { ...next, loosened: next.loosened || loosened }));
}
