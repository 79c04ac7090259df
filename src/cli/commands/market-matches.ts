/**
 * A market's matches from a member's side (docs/SPEC.md §5.15, docs/CLI.md "Markets"): follow the
 * market live (new listings, withdrawals, matches and recorded deals, each verified), list your
 * matches with their rooms, open or join the room of a match with no code passed by hand (the room
 * seat carrying its market seat's mandate, decision 0461), and ask the market to record a room's deal.
 */
import { MarketClient, type Reader } from "../../client/index.js";
import { enterMatchRoom, marketState, matchViews, readTranscript } from "../../owner/index.js";
import { isEntry, MATCH_ROOM_PREFIX, TableIdSchema } from "../../protocol/index.js";
import { duration, integer, OWNER_FLAGS, optional, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { followLive } from "../live.js";
import { headRef } from "../../text/format.js";
import { marketEntryText, ownMatchLine } from "../../text/market.js";
import { enteredRoomLines } from "../../text/match-room.js";
import type { Command } from "./command.js";

/** `market watch`: new listings, withdrawals, matches and recorded deals as they are written, verified; a match of the reader's owner says how to open its room. */
export const marketWatch: Command = {
  name: "market watch",
  summary: "follow a market live, verified: listings, withdrawals, matches (yours flagged) and recorded deals",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    ...OWNER_FLAGS,
    after: { type: "string", value: "SEQ", help: "print only entries after SEQ (all are still verified)" },
  },
  async run(ctx) {
    positionals(ctx.args, []);
    const table = ctx.tableId();
    const reader = await ctx.reader();
    const after = integer(ctx.args, "after", 0)!;
    let owner = "owner" in reader.as ? reader.as.owner : undefined;
    return followLive(ctx, await ctx.table(table), reader, (items, socket) => {
      for (const item of items) {
        if (!isEntry(item)) continue;
        if (
          item.kind === "system" &&
          item.subkind === "seat_joined" &&
          "seat" in reader.as &&
          item.data.join.seat === reader.as.seat
        )
          owner = item.data.join.owner;
        if (item.kind === "system" && item.subkind === "table_closed") socket.close();
        const text = marketEntryText(item);
        if (text === null || item.seq <= after) continue;
        ctx.out.line(`${ctx.out.c.dim(`[#${item.seq}]`)} ${text}`, item);
        if (
          item.kind === "system" &&
          item.subkind === "match" &&
          owner !== undefined &&
          [item.data.offered_by.owner, item.data.wanted_by.owner].includes(owner)
        ) {
          ctx.out.notice(
            `match #${item.seq} is yours: open or join its room with trestle market room ${item.seq} --table ${table} --owner ${owner}`,
          );
        }
      }
    });
  },
};

/** `market matches`: the owner's matches from the market's verified transcript, each with its room's id and state. */
export const marketMatches: Command = {
  name: "market matches",
  summary: "your matches in a market, from its verified transcript, with each room's id and whether it is open",
  flags: { ...TABLE_FLAG, ...OWNER_FLAGS },
  async run(ctx) {
    positionals(ctx.args, []);
    const client = await ctx.table(ctx.tableId());
    const { owner, key } = await ctx.owner();
    const state = marketState(await readTranscript(client, { signer: key.signer, as: { owner } }));
    const views = await matchViews(state, key.signer.publicKeyText, client.http);
    const lines = views.length === 0 ? [`no match of ${owner}'s in ${client.table} yet`] : views.map(ownMatchLine);
    ctx.out.result(lines, views);
  },
};

/** `market room <match>`: opens the room of one of the owner's matches, or joins it when the other side opened it, and seats a bot there. */
export const marketRoom: Command = {
  name: "market room",
  summary:
    "open the room of your match (or join it, if the other side opened it) and seat your bot there, its mandate carried",
  args: "<match>",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    seat: {
      type: "string",
      value: "NAME",
      help: "the seat to take in the room (default $TRESTLE_SEAT, else the seat that wrote your listing)",
    },
    key: {
      type: "string",
      value: "FILE",
      help: "the seat key file (default <home>/seats/<seat>.json; created if missing)",
    },
    summary: { type: "string", value: "TEXT", help: "the capability card's summary" },
    ttl: { type: "string", value: "DURATION", help: "how long the signed join stays valid (default 10m)" },
  },
  async run(ctx) {
    const [match] = positionals(ctx.args, ["match"]);
    const seq = matchSeq(match!);
    const market = await ctx.table(ctx.tableId());
    const { owner, key } = await ctx.owner();
    const seat = optional(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
    const summary = optional(ctx.args, "summary");
    const entered = await enterMatchRoom({
      market,
      seq,
      owner,
      ownerSigner: key.signer,
      ...(seat === undefined ? {} : { seat }),
      seatKey: async (name) => (await ctx.newSeatKey(name)).signer.publicKeyText,
      ...(summary === undefined ? {} : { card: { summary } }),
      home: ctx.home,
      ttlMs: duration(ctx.args, "ttl", "10m"),
      clock: ctx.io.clock,
    });
    const { client: _client, ...data } = entered;
    ctx.out.result(enteredRoomLines(entered, market.table, ctx.out.c.bold), data);
  },
};

/** `market record <match | room>`: asks the market to record the deal both owners signed in a match's room (the room asks by itself; this asks again). */
export const marketRecord: Command = {
  name: "market record",
  summary:
    "ask the market to record the deal of a match's room (done by the room itself once both owners signed; this asks again)",
  args: "<match | room>",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...OWNER_FLAGS },
  async run(ctx) {
    const [named] = positionals(ctx.args, ["match | room"]);
    const market = new MarketClient(await ctx.table(ctx.tableId()));
    const byRoom = named!.startsWith(MATCH_ROOM_PREFIX);
    if (byRoom && !TableIdSchema.safeParse(named).success) throw new UsageError(`"${named}" is not a room id`);
    const reader: Reader | undefined = byRoom ? undefined : await ctx.reader();
    const room = byRoom ? named! : (await market.match(matchSeq(named!), reader)).room;
    const recorded = await market.recordDeal(room, reader);
    ctx.out.result(
      `the market ${market.table} recorded the deal of room ${room} as entry #${recorded.seq} (head ${headRef(recorded.head)})`,
      { room, ...recorded },
    );
  },
};

/** A match named by its entry's seq; a usage error for anything else. */
function matchSeq(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`name the match by its entry's seq (trestle market matches lists yours), not "${text}"`);
  return Number(text);
}

/** The match verbs, in help order. */
export const MARKET_MATCHES: readonly Command[] = [marketWatch, marketMatches, marketRoom, marketRecord];
