/**
 * A member's matches through MCP (docs/MCP.md "Markets", docs/MARKETS.md "Matching"): the owner's
 * matches from the market's verified fold, each with its room and whether the room exists, and one
 * match in detail (both listings, the words they share, its citation checked against the pinned
 * relay key); entering a match's room, which the owner key signs (the room's config, the join, the
 * market seat's mandate carried into it: decision 0461) and so is put to the owner in the
 * principal window, signed only on their Approve there (decision 0521); and asking the market to
 * record the deal both owners signed in a match's room.
 */
import { z } from "zod";
import { MarketClient, matchesOf, roomPresence } from "../../client/index.js";
import { loadOrCreateKeyFile, seatKeyPath } from "../../client/node.js";
import { enterMatchRoom, matchViews, notOwnMatch, type MatchView } from "../../owner/index.js";
import {
  ListingSideSchema,
  OwnerNameSchema,
  SeqSchema,
  Sha256Schema,
  TableIdSchema,
  TrestleError,
} from "../../protocol/index.js";
import { frameInert, type InertItem } from "../../text/framing.js";
import { quotedListing, roomStandingText, unitsText } from "../../text/market.js";
import { enteredRoomLines } from "../../text/match-room.js";
import { askOwner, requireOwnerLink } from "../confirm.js";
import { listingItem, matchItem, readMarket, type MarketRead } from "../market-read.js";
import { defineTool } from "../tool.js";
import { JOIN_TTL_MS } from "./join.js";
import { TableArg } from "./args.js";

/** A match named by its entry's seq in the market. */
const MatchArg = SeqSchema.describe("the match: its entry's seq in the market, as trestle_market_matches lists it");

/** One of the owner's matches as structured content: its entry, both listings (by hash), the other side, the quantity, its room and where it stands. */
const MatchOutput = z.object({
  match: z.int().min(1),
  side: ListingSideSchema.describe("the side of your owner's listing"),
  mine: Sha256Schema,
  theirs: Sha256Schema,
  other: OwnerNameSchema.describe("the other side's owner"),
  quantity: z.int().min(0),
  room: TableIdSchema,
  room_presence: z
    .enum(["none", "open", "deleted"])
    .describe("whether the room exists on the relay (its unsigned head)"),
  deal: z.int().min(1).nullable().describe("the entry of the deal the market recorded for it, or null"),
});

/** `trestle_market_matches`. */
export const marketMatches = defineTool({
  name: "trestle_market_matches",
  title: "Your matches in the market",
  description:
    "Your owner's matches in the market, from its transcript verified on this machine: both listings, the other side, the quantity, the match's room (its id is fixed by the match) and whether it was opened, and the deal recorded for it. With `match`, that one in detail: both listings in full, the words they share, and its citation checked against the relay key this machine pinned. Titles and texts are framed as data.",
  input: z.strictObject({ table: TableArg, match: MatchArg.optional() }),
  output: z.object({
    table: TableIdSchema,
    matches: z.array(MatchOutput),
    cited: z.int().min(1).optional().describe("the market's head the match's citation is signed at (with `match`)"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, match }, ctx) {
    const id = ctx.session.tableId(table);
    const market = await readMarket(ctx, id);
    const ownerKey = requireOwnerKey(market);
    const views = (await matchViews(market.state, ownerKey, (await ctx.session.client(id)).http)).filter(
      (v) => match === undefined || v.seq === match,
    );
    if (match !== undefined && views.length === 0) throw notOwnMatch(market.state, match, "your owner");
    const items: InertItem[] = views.flatMap((v) => {
      const board = market.board.matches.find((m) => m.seq === v.seq)!;
      const detail =
        match === undefined
          ? []
          : market.board.listings.filter((l) => l.leaf === v.mine || l.leaf === v.theirs).map(listingItem);
      return [matchItem(board, ownerKey), ...detail];
    });
    const cited =
      match === undefined
        ? undefined
        : (await new MarketClient(await ctx.session.client(id)).match(match, await ctx.session.reader("seat"))).citation
            .seq;
    return {
      status: [
        views.length === 0
          ? `No match of your owner's in market ${id} yet (transcript ${market.transcript.report.verdict}, verified on this machine).`
          : `${views.length} match${views.length === 1 ? "" : "es"} of your owner's in market ${id} (transcript ${market.transcript.report.verdict}, verified on this machine):`,
        ...views.map(
          (v) =>
            `  match #${v.seq}: your ${v.side} with ${v.other.owner}, ${unitsText(v.quantity)}; room ${v.room} ${roomStandingText(v)}`,
        ),
        ...(cited === undefined
          ? []
          : [
              `Its citation (what its room's config carries) is signed by the relay key this machine pinned, at entry #${cited}.`,
            ]),
        ...(views.some((v) => v.deal === null && v.room_presence !== "deleted")
          ? [
              "trestle_market_room opens a match's room (or joins it, if the other side opened it); your owner approves that in the principal window.",
            ]
          : []),
      ],
      data: items.length === 0 ? null : frameInert(items, ctx.boundary()),
      structured: { table: id, matches: views.map(matchOutput), ...(cited === undefined ? {} : { cited }) },
    };
  },
});

/** `trestle_market_room`. */
export const marketRoom = defineTool({
  name: "trestle_market_room",
  title: "Ask your owner to open or join a match's room",
  description:
    "Ask your owner, in person, to open the room of one of their matches (or join it, when the other side opened it first) and seat you there: their owner key signs the room, the join and your mandate in the room (the limits of the market seat that wrote their listing, carried over). Your client shows them a link to the principal window with the match as the verified market holds it; their key signs only if they approve there. Refused (E_NOT_CONFIRMED) when this client cannot show them a link or they decline; they can always run `trestle market room` in a terminal. Then negotiate in the room with the room tools, passing its id as `table`.",
  input: z.strictObject({ table: TableArg, match: MatchArg }),
  output: z.object({
    market: TableIdSchema,
    match: z.int().min(1),
    room: TableIdSchema,
    how: z.enum(["opened", "joined", "seated"]),
    seat: z.string(),
    seq: z.int().min(1).describe("the join's entry in the room"),
    head: z.int().min(1),
    mandate: z.enum(["carried", "none"]),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, match }, ctx) {
    const id = ctx.session.tableId(table);
    const unsigned = `for the room of match ${match}`;
    requireOwnerLink(ctx, unsigned);
    const owner = await ctx.session.ownerKey();
    const market = await readMarket(ctx, id);
    const mine = matchesOf(market.state, owner.signer.publicKeyText).find((m) => m.seq === match);
    if (!mine) throw notOwnMatch(market.state, match, "your owner");
    const presence = await roomPresence((await ctx.session.client(id)).http, mine.room);
    if (presence === "deleted")
      throw new TrestleError("E_TABLE_DELETED", `the room of match ${match} (${mine.room}) was deleted`);
    const board = market.board.matches.find((m) => m.seq === match)!;
    const [title, theirTitle] =
      mine.side === "offer" ? [board.offer.title, board.want.title] : [board.want.title, board.offer.title];
    const seat = ctx.session.settings.seat;
    return askOwner(ctx, {
      title: `${presence === "none" ? "open" : "join"} the room of match #${match} in market ${id}`,
      lines: [
        `trestle: sign with your owner key (${owner.name}) to ${presence === "none" ? "open" : "join"} the room of match #${match} in market ${id} and seat ${seat ?? "the seat that wrote your listing"} there?`,
        "The match, read from the market's verified ledger (titles in quotes are the members' words):",
        `  your ${mine.side} ${quotedListing(title)} with ${mine.other.owner}'s ${mine.side === "offer" ? "want" : "offer"} ${quotedListing(theirTitle)}, ${unitsText(mine.quantity)}`,
        `  its room: ${mine.room} (the match fixes its id; besides you, only ${mine.other.owner} can join it without an invite)`,
        "Your key signs the room's config (when you open it), your seat's join, and the seat's mandate in the room: the limits of your market seat, signed again. A room commits you to nothing; a deal there needs your signature too.",
        "",
        "Your AI agent asked for this; only you decide. Declining signs nothing.",
      ],
      approve: `${presence === "none" ? "Open" : "Join"} the room and sign with my owner key`,
      unsigned,
      progress: `asking your owner to enter the room of match #${match} in the principal window`,
      async sign() {
        const { session } = ctx;
        const entered = await enterMatchRoom({
          market: await session.client(id),
          seq: match,
          owner: owner.name,
          ownerSigner: owner.signer,
          ...(seat === undefined ? {} : { seat }),
          seatKey: async (name) =>
            (name === seat
              ? (await session.seatKeyCreating()).identity.signer
              : (await loadOrCreateKeyFile(seatKeyPath(session.settings.home, name), "seat", name)).key.signer
            ).publicKeyText,
          card: session.card(),
          home: session.settings.home,
          ttlMs: JOIN_TTL_MS,
          clock: () => ctx.now(),
        });
        const { client: _client, head, ...facts } = entered;
        return {
          status: [
            `Your owner approved in the principal window: ${enteredRoomLines(entered, id)[0]!}.`,
            enteredRoomLines(entered, id)[1]!,
            `Negotiate there with the room tools (trestle_room_state first), passing table ${entered.room}.`,
          ],
          structured: { market: id, ...facts, head: head.seq },
        };
      },
    });
  },
});

/** `trestle_market_record`. */
export const marketRecord = defineTool({
  name: "trestle_market_record",
  title: "Ask the market to record a room's deal",
  description:
    "Ask the market to record the deal both owners signed in a match's room, which closes that quantity of both listings. The room asks by itself once the deal is done; this asks again (a recorded deal answers its entry again). The relay reads the deal from the room; nothing is signed here.",
  input: z.strictObject({
    table: TableArg,
    match: MatchArg.optional(),
    room: TableIdSchema.optional().describe("the match's room id, instead of `match`"),
  }),
  output: z.object({
    table: TableIdSchema,
    room: TableIdSchema,
    seq: z.int().min(1).describe("the market's deal_recorded entry"),
    head: z.int().min(1),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ table, match, room }, ctx) {
    const id = ctx.session.tableId(table);
    if ((match === undefined) === (room === undefined))
      throw new TrestleError("E_SCHEMA", "name the deal's match (`match`) or its room (`room`), one of them");
    const market = new MarketClient(await ctx.session.client(id));
    const reader = await ctx.session.reader("seat");
    const named = room ?? (await market.match(match!, reader)).room;
    const recorded = await market.recordDeal(named, reader);
    return {
      status: `The market ${id} recorded the deal of room ${named} as entry #${recorded.seq} (head #${recorded.head.seq}).`,
      structured: { table: id, room: named, seq: recorded.seq, head: recorded.head.seq },
    };
  },
});

/** The matches verbs, in the order they are listed. */
export const MARKET_MATCH_TOOLS = [marketMatches, marketRoom, marketRecord] as const;

/** The key of the owner whose matches these are; E_KEY_FILE when this server holds neither that owner's key nor a seat of theirs at the market. */
function requireOwnerKey(market: MarketRead): string {
  if (market.ownerKey === undefined)
    throw new TrestleError(
      "E_KEY_FILE",
      `this server holds no owner key and its seat is not seated at market ${market.table}, so it cannot tell whose matches to show`,
    );
  return market.ownerKey;
}

/** A match as structured content. */
function matchOutput(v: MatchView): z.infer<typeof MatchOutput> {
  return {
    match: v.seq,
    side: v.side,
    mine: v.mine,
    theirs: v.theirs,
    other: v.other.owner,
    quantity: v.quantity,
    room: v.room,
    room_presence: v.room_presence,
    deal: v.deal,
  };
}
