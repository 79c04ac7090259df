/**
 * A member's listings (docs/SPEC.md §5.15, docs/CLI.md "Markets"): list an offer or a want (or an
 * offer for sealed bids), write a new version of one (it supersedes the old), withdraw one, each
 * written by the seat through its GuardedSeat (so its mandate and the leak gate judge the title
 * and text); and search the market's
 * live listings, signed as a seat or owner, or unsigned at a public market.
 */
import { MarketClient } from "../../client/index.js";
import type { ListingQuery } from "../../protocol/index.js";
import { listingEntry } from "../../owner/index.js";
import { optional, OWNER_FLAGS, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { LISTING_FLAGS, listingFrom, listingVerb, SEALED_FLAGS, sendListing, sideFlag } from "../market.js";
import { guardedSeat, printSent } from "../room.js";
import { headRef } from "../../text/format.js";
import { listingLine } from "../../text/market.js";
import type { Command } from "./command.js";

/** `market list`: the seat lists an offer or a want. */
export const marketList: Command = {
  name: "market list",
  summary: "list an offer or a want in a market (written by your seat, through its mandate and the leak gate)",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    side: { type: "string", value: "offer|want", help: "offer the item, or want it" },
    ...LISTING_FLAGS,
    ...SEALED_FLAGS,
  },
  async run(ctx) {
    positionals(ctx.args, []);
    sideFlag(ctx.args);
    const seat = await guardedSeat(ctx);
    await sendListing(ctx, seat, listingFrom(ctx, await seat.transcript()), "listing");
  },
};

/** `market update <listing>`: a new version of one of the owner's live listings; every field not given is the old one's. */
export const marketUpdate = listingVerb(
  "market update",
  "write a new version of your live listing (it supersedes the old; what you do not give stays, sealed bids' terms included)",
  {
    ...LISTING_FLAGS,
    ...SEALED_FLAGS,
    ask: { type: "boolean", help: "drop the price range: the new version says ask" },
  },
  async (ctx, { seat, transcript, listing }) =>
    sendListing(ctx, seat, listingFrom(ctx, transcript, listingEntry(transcript, listing.seq)), "new version"),
);

/** `market withdraw <listing>`: the seat withdraws one of its owner's live listings. */
export const marketWithdraw = listingVerb(
  "market withdraw",
  "take down your live listing (an unlist entry)",
  {},
  async (ctx, { seat, leaf }) => {
    printSent(ctx, "withdrawal", await seat.send({ kind: "unlist", listing: leaf }));
  },
);

/** `market search`: the market's live listings that fit, newest first, read as a seat or owner (or unsigned at a public market). */
export const marketSearch: Command = {
  name: "market search",
  summary: "search a market's live listings by category, side, words and lister",
  flags: {
    ...TABLE_FLAG,
    category: { type: "string", value: "NAME", help: "only this category" },
    side: { type: "string", value: "offer|want", help: "only offers, or only wants" },
    q: {
      type: "string",
      value: "WORDS",
      help: "words every title found contains (as matching reads words: any case, plurals)",
    },
    by: { type: "string", value: "OWNER", help: "only this owner's listings" },
    ...SEAT_FLAGS,
    ...OWNER_FLAGS,
  },
  async run(ctx) {
    positionals(ctx.args, []);
    const side = optional(ctx.args, "side") === undefined ? undefined : sideFlag(ctx.args);
    const [category, q, by] = [optional(ctx.args, "category"), optional(ctx.args, "q"), optional(ctx.args, "by")];
    const query: ListingQuery = {
      ...(category === undefined ? {} : { category }),
      ...(side === undefined ? {} : { side }),
      ...(q === undefined ? {} : { q }),
      ...(by === undefined ? {} : { owner: by }),
    };
    const market = new MarketClient(await ctx.table(ctx.tableId()));
    const found = await market.search(query, await signedReader(ctx));
    const lines = found.items.length === 0 ? ["no live listing fits"] : found.items.map(listingLine);
    ctx.out.result([...lines, `(as of the relay's signed head ${headRef(found.head)})`], found);
  },
};

/** The reader of a signed read when --owner or --seat (or their variables) names one; none (an unsigned read, for a public market) otherwise. */
async function signedReader(ctx: Context) {
  const named =
    optional(ctx.args, "owner", "TRESTLE_OWNER", ctx.io.env) ?? optional(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
  return named === undefined ? undefined : ctx.reader();
}

/** The listing verbs, in help order. */
export const MARKET_LISTINGS: readonly Command[] = [marketList, marketUpdate, marketWithdraw, marketSearch];
