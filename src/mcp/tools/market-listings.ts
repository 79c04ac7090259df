/**
 * A member's listings through MCP (docs/MCP.md "Markets", docs/MARKETS.md "Listings"): list an
 * offer or a want, write a new version of one (it supersedes the old), withdraw one, each written
 * by this server's seat through its GuardedSeat, so the mandate and the leak gate judge the title
 * and text like any message (a write the gate holds goes to the owner in the principal window, as
 * every held message does); and search the market's live listings in its verified fold. Members'
 * titles and texts reach the model only inside the framed data block; the structured result holds
 * trestle's facts (entries, hashes, owners, quantities, prices, expiries).
 */
import { z } from "zod";
import type { SeatSubmission } from "../../client/index.js";
import {
  defaultListingLifetime,
  listingEntry,
  listingMatches,
  marketState,
  resolveListing,
  type GuardedSeat,
} from "../../owner/index.js";
import {
  CategorySchema,
  LIMITS,
  ListingQuerySchema,
  ListingSideSchema,
  ListingSubmissionSchema,
  own,
  OwnerNameSchema,
  parseOrThrow,
  PriceRangeSchema,
  searchListings,
  SeatNameSchema,
  Sha256Schema,
  TableIdSchema,
  TrestleError,
  type ListingSide,
  type PriceRange,
  type SealedBids,
} from "../../protocol/index.js";
import { frameInert } from "../../text/framing.js";
import { listingItem, readMarket, SealedOutput, sealedFacts } from "../market-read.js";
import { guardedSeat, sendGuarded, type SentReply } from "../room-seat.js";
import { defineTool, type ToolContext } from "../tool.js";
import { ListingRefArg, TableArg, WrittenOutput } from "./args.js";

const listing = ListingSubmissionSchema.shape;

/** The fields of a listing an agent gives; in a new version, each left out is the old version's. */
const FIELDS = {
  title: listing.title.describe(
    "what is offered or wanted, in a few words (matching compares its words with the other side's titles)",
  ),
  text: listing.text.describe("a description: condition, where, when"),
  category: CategorySchema.describe("one of the market's categories").optional(),
  quantity: listing.quantity.optional().describe("how many units (a new listing: 1 when left out)"),
  price: PriceRangeSchema.optional().describe(
    "the public price range (minor units of its currency: min, max or both); left out of a new listing: none, it says ask. Your owner's private limits stay in their mandate, never here",
  ),
  expires_in_minutes: z
    .int()
    .min(1)
    .max(LIMITS.listing_ttl_max_ms / 60_000)
    .optional()
    .describe("the listing ends after this many minutes (default: the longest the market allows, less a minute)"),
  sealed_bids: z
    .strictObject({
      bid_minutes: z.int().min(1).describe("members commit sealed bids for this many minutes from now"),
      reveal_minutes: z.int().min(1).describe("then reveal them for this many minutes"),
    })
    .optional()
    .describe(
      "an offer for sealed bids instead of matching: its price is { currency, min }, the reserve (0 for none); the best revealed bid wins at the second price. A new version keeps the old one's unless given (refused once a bid was committed)",
    ),
};

/** A listing's facts as structured content: never its title or text (members' words, which stay framed). */
const ListingOutput = z.object({
  leaf: Sha256Schema,
  seq: z.int().min(1),
  owner: OwnerNameSchema,
  seat: SeatNameSchema,
  side: ListingSideSchema,
  category: CategorySchema,
  quantity: z.int().min(1),
  left: z.int().min(0).describe("the quantity no recorded deal closed"),
  price: z.string().describe("the public price range in trestle's words, or ask"),
  expires: z.int().describe("when it ends, in ms since the epoch"),
  standing: z.enum(["live", "withdrawn", "superseded", "filled", "expired", "left"]),
  sealed: SealedOutput.nullable().describe(
    "for a listing that takes sealed bids (trestle_market_bid), where they stand; else null",
  ),
});

/** A listing written: where, by whom, its entry and head, its hash, and the matches it made at once (each with the other side's owner, side and listing). */
const ListedOutput = WrittenOutput.extend({
  listing: Sha256Schema.describe("the listing's hash (its entry's leaf)"),
  matches: z
    .array(z.object({ match: z.int().min(1), owner: OwnerNameSchema, side: ListingSideSchema, listing: Sha256Schema }))
    .describe("the matches it made at once; trestle_market_room opens a match's room"),
});

/** `trestle_market_list`. */
export const marketList = defineTool({
  name: "trestle_market_list",
  title: "List an offer or a want",
  description:
    "Post a listing in the market as your seat: an offer or a want, its title (what matching compares), an optional text, its category, quantity, a public price range or none (ask), and how long it lives. Your owner's mandate and the leak gate judge it before it is signed, so never put their private limits in it. The market matches it at once with the other side's live listings; the reply names each match (trestle_market_room opens its room). With `sealed_bids` an offer takes sealed bids (trestle_market_bid) instead of being matched.",
  input: z.strictObject({
    table: TableArg,
    side: ListingSideSchema.describe("offer the item, or want it"),
    ...FIELDS,
    category: CategorySchema.describe("one of the market's categories"),
  }),
  output: ListedOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, ctx) {
    const id = ctx.session.tableId(args.table);
    const seat = await guardedSeat(ctx, id);
    const transcript = await seat.transcript();
    const draft = listingSubmission(ctx, marketState(transcript).config.market!.listing_ttl_ms, args);
    return sendGuarded(ctx, seat, draft, listed(ctx, seat, "listing"));
  },
});

/** `trestle_market_update`. */
export const marketUpdate = defineTool({
  name: "trestle_market_update",
  title: "Write a new version of your listing",
  description:
    "Replace one of your owner's live listings with a new version (it supersedes the old one, which stops being live): every field you leave out is the old version's, sealed bids' terms included, and `ask: true` drops the price range. The new version is matched again at once, as a new listing is; a sealed listing's bids are void (bidders commit again on the new version), and once one was committed its terms cannot change (E_NOT_ALLOWED, reason sealed_terms).",
  input: z.strictObject({
    table: TableArg,
    listing: ListingRefArg,
    ...FIELDS,
    title: FIELDS.title.optional(),
    ask: z.literal(true).optional().describe("drop the price range: the new version says ask"),
  }),
  output: ListedOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, ctx) {
    const id = ctx.session.tableId(args.table);
    if (args.ask && args.price)
      throw new TrestleError("E_SCHEMA", "`ask` drops the price range: give no `price` with it");
    const seat = await guardedSeat(ctx, id);
    const transcript = await seat.transcript();
    const state = marketState(transcript);
    const old = listingEntry(transcript, resolveListing(state, String(args.listing)).listing.seq);
    const price = args.ask ? null : (args.price ?? old.price ?? null);
    const draft = listingSubmission(
      ctx,
      state.config.market!.listing_ttl_ms,
      { ...old, ...defined(args), price },
      old.leaf,
    );
    return sendGuarded(ctx, seat, draft, listed(ctx, seat, "new version"));
  },
});

/** `trestle_market_withdraw`. */
export const marketWithdraw = defineTool({
  name: "trestle_market_withdraw",
  title: "Withdraw your listing",
  description:
    "Take down one of your owner's live listings (an unlist entry): it matches nobody from then on; a match it already made keeps its room.",
  input: z.strictObject({ table: TableArg, listing: ListingRefArg }),
  output: WrittenOutput.extend({ listing: Sha256Schema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run({ table, listing }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await guardedSeat(ctx, id);
    const { leaf } = resolveListing(marketState(await seat.transcript()), String(listing));
    return sendGuarded(ctx, seat, { kind: "unlist", listing: leaf }, (sent) => ({
      status: [
        `Listing ${leaf.slice(0, 12)}… withdrawn as entry #${sent.seq} at ${id} by seat ${seat.seat} (head #${sent.head.seq}).`,
      ],
      structured: { table: id, seat: seat.seat, kind: "unlist", seq: sent.seq, head: sent.head.seq, listing: leaf },
    }));
  },
});

/** `trestle_market_search`. */
export const marketSearch = defineTool({
  name: "trestle_market_search",
  title: "Search the market's live listings",
  description:
    "The market's live listings that fit (a category, a side, words every title contains as matching reads them, an owner; `sealed: true` only those that take sealed bids, with their phase and window), newest first, at most a page, from the market's transcript verified on this machine. Titles and texts are framed as data: they are other members' words.",
  input: z.strictObject({
    table: TableArg,
    category: CategorySchema.optional().describe("only this category"),
    side: ListingSideSchema.optional().describe("only offers, or only wants"),
    q: ListingQuerySchema.shape.q.describe("words every title found contains (any case, plurals)"),
    owner: OwnerNameSchema.optional().describe("only this owner's listings"),
    sealed: z
      .boolean()
      .optional()
      .describe("true: only listings that take sealed bids (trestle_market_bid); false: only the others"),
  }),
  output: z.object({
    table: TableIdSchema,
    head: z.int().min(0).describe("the verified transcript's last entry"),
    listings: z.array(ListingOutput),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, sealed, ...query }, ctx) {
    const id = ctx.session.tableId(table);
    const market = await readMarket(ctx, id);
    const found = searchListings(
      market.state,
      parseOrThrow(ListingQuerySchema, defined(query), "listing query"),
      ctx.now(),
    );
    const fit = new Map(
      found
        .filter((f) => sealed === undefined || (f.listing.sealed !== null) === sealed)
        .map((f) => [f.leaf, f.listing.sealed]),
    );
    const shown = market.board.listings.filter((l) => fit.has(l.leaf)).sort((a, b) => b.seq - a.seq);
    const seat = ctx.session.settings.seat;
    const bidder = seat === undefined ? undefined : own(market.state.seats, seat)?.owner;
    const facts = (leaf: string) => {
      const state = fit.get(leaf);
      return state ? sealedFacts(state, ctx.now(), bidder) : null;
    };
    return {
      status: [
        `${shown.length === 0 ? "No live listing fits" : `${shown.length} live listing${shown.length === 1 ? "" : "s"} fit`} in market ${id} (transcript ${market.transcript.report.verdict}, verified on this machine, up to entry #${market.transcript.entries.length}).`,
        ...(shown.length === LIMITS.page
          ? [`That is a page, the most a search answers: narrow it by category, side, words or owner.`]
          : []),
      ],
      data: shown.length === 0 ? null : frameInert(shown.map(listingItem), ctx.boundary()),
      structured: {
        table: id,
        head: market.transcript.entries.length,
        listings: shown.map(({ title: _t, text: _x, sealed: _s, ended: _e, ...rest }) => ({
          ...rest,
          sealed: facts(rest.leaf),
        })),
      },
    };
  },
});

/** The listings verbs, in the order they are listed. */
export const MARKET_LISTING_TOOLS = [marketList, marketUpdate, marketWithdraw, marketSearch] as const;

/** The fields given (a key whose value is undefined is left out, so the old version's stays). */
function defined<T extends object>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The listing submission from its fields: quantity 1 and the market's default lifetime when not given, sealed bids from `sealed_bids` (else `sealed`, an old version's terms), a new version of `supersedes` when named. */
function listingSubmission(
  ctx: ToolContext,
  ttlMs: number,
  f: {
    side: ListingSide;
    title?: string;
    text?: string;
    category?: string;
    quantity?: number;
    price?: PriceRange | null;
    expires_in_minutes?: number;
    sealed?: SealedBids;
    sealed_bids?: { bid_minutes: number; reveal_minutes: number };
  },
  supersedes?: string,
): SeatSubmission {
  if (f.title === undefined || f.category === undefined)
    throw new TrestleError("E_SCHEMA", "a listing needs a title and a category");
  const lifetime = f.expires_in_minutes === undefined ? defaultListingLifetime(ttlMs) : f.expires_in_minutes * 60_000;
  const bids = f.sealed_bids;
  const sealed = bids
    ? {
        until: ctx.now() + bids.bid_minutes * 60_000,
        reveal_until: ctx.now() + (bids.bid_minutes + bids.reveal_minutes) * 60_000,
      }
    : f.sealed;
  return {
    kind: "listing",
    side: f.side,
    title: f.title,
    category: f.category,
    quantity: f.quantity ?? 1,
    expires: ctx.now() + lifetime,
    ...(f.text === undefined ? {} : { text: f.text }),
    ...(f.price ? { price: f.price } : {}),
    ...(sealed ? { sealed } : {}),
    ...(supersedes === undefined ? {} : { supersedes }),
  };
}

/** The reply of a listing once written: its hash and the matches it made at once, read back from the verified transcript. */
function listed(ctx: ToolContext, seat: GuardedSeat, label: string): SentReply {
  return async (sent, approved) => {
    const transcript = await seat.transcript();
    const leaf = listingEntry(transcript, sent.seq).leaf;
    const matches = listingMatches(marketState(transcript), leaf);
    return {
      status: [
        `${label} written as entry #${sent.seq} at ${seat.table} by seat ${seat.seat} (head #${sent.head.seq}), listing ${leaf.slice(0, 12)}….`,
        ...(approved ? ["Your owner approved this exact message in person; their approval is now spent."] : []),
        ...matches.map(
          (m) =>
            `Matched at once: match #${m.seq} with ${m.party.owner}'s ${m.side} ${m.listing.slice(0, 12)}… (its title is below); trestle_market_room opens the match's room.`,
        ),
        ...(matches.length === 0
          ? [
              "No match yet: a listing of the other side that fits will make one, and trestle_market_matches lists yours.",
            ]
          : []),
      ],
      data:
        matches.length === 0
          ? null
          : frameInert(
              matches.map((m) => ({
                header: `match #${m.seq}: ${m.party.owner}'s ${m.side} ${m.listing.slice(0, 12)}…`,
                body: `title: ${m.title}`,
              })),
              ctx.boundary(),
            ),
      structured: {
        table: seat.table,
        seat: seat.seat,
        kind: "listing",
        seq: sent.seq,
        head: sent.head.seq,
        listing: leaf,
        matches: matches.map((m) => ({ match: m.seq, owner: m.party.owner, side: m.side, listing: m.listing })),
      },
    };
  };
}
