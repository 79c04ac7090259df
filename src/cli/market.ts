/**
 * What the market verbs share (docs/CLI.md "Markets"): the flags of a listing and how they become
 * one (a new listing, or a new version starting from the old one's fields; an offer for sealed bids
 * with --sealed-until and --reveal-until), --categories, how a verb on one listing is made, and how
 * a written listing is printed with the matches it made at once. Every listing is written through
 * the seat's GuardedSeat, so the mandate and the leak gate judge its title and text like any message.
 */
import {
  defaultListingLifetime,
  listingEntry,
  listingMatches,
  marketState,
  resolveListing,
  type GuardedSeat,
  type Sent,
  type Transcript,
} from "../owner/index.js";
import {
  CategorySchema,
  type Entry,
  type ListingSide,
  type ListingState,
  type PriceRange,
  type SealedBids,
} from "../protocol/index.js";
import type { SeatSubmission } from "../client/index.js";
import {
  duration,
  instant,
  integer,
  optional,
  positionals,
  SEAT_FLAGS,
  TABLE_FLAG,
  type Flags,
  type Parsed,
} from "./args.js";
import type { Command } from "./commands/command.js";
import { guardedSeat } from "./room.js";
import type { Context } from "./context.js";
import { currencyFlag } from "./currency-flag.js";
import { UsageError } from "./exit.js";
import { headRef } from "../text/format.js";
import { quotedListing } from "../text/market.js";

/** The flags of a listing's fields, for `market list` and `market update`. */
export const LISTING_FLAGS: Flags = {
  title: {
    type: "string",
    value: "TEXT",
    help: "what is offered or wanted, in a few words (matching compares its words)",
  },
  text: { type: "string", value: "TEXT", help: "a description: condition, where, when" },
  category: { type: "string", value: "NAME", help: "one of the market's categories" },
  quantity: { type: "string", value: "N", help: "how many units (default 1)" },
  currency: { type: "string", value: "CODE", help: "the currency of --min and --max (ISO 4217)" },
  min: { type: "string", value: "N", help: "the public price range's low end, in minor units" },
  max: { type: "string", value: "N", help: "the public price range's high end, in minor units (no range at all: ask)" },
  "expires-in": {
    type: "string",
    value: "DURATION",
    help: "the listing ends after this long, e.g. 2h, 3d (default: the longest the market allows, less a minute)",
  },
};

/** --sealed-until and --reveal-until, for `market list` and `market update`: an offer for sealed bids (a new version keeps the old one's without them). */
export const SEALED_FLAGS: Flags = {
  "sealed-until": {
    type: "string",
    value: "TIME",
    help: "take sealed bids until then, instead of matching: a duration from now (2h) or an ISO 8601 time (2025-06-01T18:00:00Z); --currency and --min name the bids' currency and the reserve (0 for none)",
  },
  "reveal-until": {
    type: "string",
    value: "TIME",
    help: "with --sealed-until: bidders reveal from then until this time (a duration from now, or an ISO 8601 time)",
  },
};

/** --categories: a comma-separated list of distinct category names; a usage error naming the first that is not one. */
export function categoriesFlag(parsed: Parsed): string[] {
  const given = optional(parsed, "categories");
  if (given === undefined) throw new UsageError("--categories is required, e.g. --categories baby-gear,books");
  const names = given.split(",").map((n) => n.trim());
  const bad = names.find((n) => !CategorySchema.safeParse(n).success);
  if (bad !== undefined)
    throw new UsageError(
      `--categories: "${bad}" is not a category name (1-32 of a-z, 0-9 and -, the first a letter or digit)`,
    );
  if (new Set(names).size !== names.length) throw new UsageError("--categories lists a category twice");
  return names;
}

/** --side: offer or want. */
export function sideFlag(parsed: Parsed): ListingSide {
  const side = optional(parsed, "side");
  if (side !== "offer" && side !== "want")
    throw new UsageError(`--side must be offer or want${side === undefined ? "" : `, not "${side}"`}`);
  return side;
}

/** The price range the flags give: `fallback` when no price flag is given, none with --ask, else exactly the range named (--currency defaulting to `fallback`'s). */
function priceFrom(parsed: Parsed, fallback: PriceRange | undefined): PriceRange | undefined {
  const currency = currencyFlag(parsed);
  const min = integer(parsed, "min");
  const max = integer(parsed, "max");
  const named = currency !== undefined || min !== undefined || max !== undefined;
  if (parsed.values.ask === true) {
    if (named) throw new UsageError("--ask leaves the price out: give no --currency, --min or --max with it");
    return undefined;
  }
  if (!named) return fallback;
  const code = currency ?? fallback?.currency;
  if (code === undefined) throw new UsageError("--min and --max need --currency");
  if (min === undefined && max === undefined) throw new UsageError("--currency needs --min, --max or both");
  if (min !== undefined && max !== undefined && min > max) throw new UsageError("--min must be at most --max");
  return { currency: code, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/**
 * The `sealed` terms --sealed-until and --reveal-until give (both or neither) to an offer priced by
 * its reserve, `{ currency, min }`; without them, `kept` (a new version keeps the old one's sealed
 * terms: the relay refuses a change once a bid was committed); a usage error for anything else.
 */
function sealedFrom(
  ctx: Context,
  side: ListingSide,
  price: PriceRange | undefined,
  kept: SealedBids | undefined,
): SealedBids | undefined {
  const now = ctx.io.clock();
  const until = instant(ctx.args, "sealed-until", now);
  const revealUntil = instant(ctx.args, "reveal-until", now);
  if (until === undefined && revealUntil === undefined && kept === undefined) return undefined;
  if ((until === undefined) !== (revealUntil === undefined))
    throw new UsageError(
      "--sealed-until and --reveal-until go together: bids are committed until the first and revealed until the second",
    );
  if (side !== "offer") throw new UsageError("only an offer takes sealed bids: --side offer");
  if (price?.min === undefined || price.max !== undefined)
    throw new UsageError(
      `a sealed listing is priced by its reserve: --currency and --min (0 for none), and no --max${kept && until === undefined ? " and no --ask (a new version keeps the sealed bids)" : ""} (the bids set the price)`,
    );
  if (until === undefined || revealUntil === undefined) return kept;
  if (until <= now) throw new UsageError(`--sealed-until must lie ahead, not at ${new Date(until).toISOString()}`);
  if (revealUntil <= until) throw new UsageError("--reveal-until must come after --sealed-until");
  return { until, reveal_until: revealUntil };
}

/** When the listing ends: --expires-in from now, or by the market's listing lifetime `ttlMs` (defaultListingLifetime). */
function expiresAt(ctx: Context, ttlMs: number): number {
  const given =
    ctx.args.values["expires-in"] === undefined
      ? defaultListingLifetime(ttlMs)
      : duration(ctx.args, "expires-in", "1d");
  return ctx.io.clock() + given;
}

/** The listing the flags describe for `seat`'s market (read in `transcript`); with `old` (the listing entry a new version supersedes), every field not given is the old one's. */
export function listingFrom(
  ctx: Context,
  transcript: Transcript,
  old?: Extract<Entry, { kind: "listing" }>,
): SeatSubmission {
  const rules = marketState(transcript).config.market!;
  const field = (name: string, fallback: string | undefined) => optional(ctx.args, name) ?? fallback;
  const title = field("title", old?.title);
  const category = field("category", old?.category);
  if (title === undefined) throw new UsageError("--title is required");
  if (category === undefined)
    throw new UsageError(`--category is required (this market's: ${rules.categories.join(", ")})`);
  const quantity = integer(ctx.args, "quantity", old?.quantity ?? 1)!;
  if (quantity < 1) throw new UsageError("--quantity must be at least 1");
  const text = field("text", old?.text);
  const price = priceFrom(ctx.args, old?.price);
  const side = old?.side ?? sideFlag(ctx.args);
  const sealed = sealedFrom(ctx, side, price, old?.sealed);
  const submission: SeatSubmission = {
    kind: "listing",
    side,
    title,
    category,
    quantity,
    expires: expiresAt(ctx, rules.listing_ttl_ms),
    ...(text === undefined ? {} : { text }),
    ...(price === undefined ? {} : { price }),
    ...(sealed === undefined ? {} : { sealed }),
    ...(old === undefined ? {} : { supersedes: old.leaf }),
  };
  return submission;
}

/** Sends `listing` through `seat`'s guards and prints it with the matches it made at once, read back from the verified transcript. */
export async function sendListing(
  ctx: Context,
  seat: GuardedSeat,
  listing: SeatSubmission,
  label: string,
): Promise<void> {
  const sent: Sent = await seat.send(listing);
  const transcript = await seat.transcript();
  const leaf = listingEntry(transcript, sent.seq).leaf;
  const matches = listingMatches(marketState(transcript), leaf);
  const lines = matches.map(
    (m) =>
      `matched at once: match #${m.seq} with ${m.party.owner}'s ${m.side} ${quotedListing(m.title)}; open its room with trestle market room ${m.seq} --table ${seat.table}`,
  );
  const sealed = listing.kind === "listing" ? listing.sealed : undefined;
  const bids =
    sealed === undefined
      ? []
      : [
          `it takes sealed bids until ${new Date(sealed.until).toISOString()}, revealed until ${new Date(sealed.reveal_until).toISOString()}: members bid with trestle market bid ${sent.seq} --table ${seat.table} --amount N`,
        ];
  ctx.out.result(
    [
      `${label} written as entry #${sent.seq} (head ${headRef(sent.head)}), listing ${leaf.slice(0, 12)}…`,
      ...bids,
      ...lines,
    ],
    { ...sent, leaf, matches: matches.map((m) => m.seq), ...(sealed === undefined ? {} : { sealed }) },
  );
}

/** What a verb on one listing acts on: the seat of --seat at --table (its writes guarded), the verified transcript it read, and the listing named, by leaf. */
export interface OnListing {
  seat: GuardedSeat;
  transcript: Transcript;
  leaf: string;
  listing: ListingState;
}

/** The verb `name` (`market <verb>`) taking `<listing>` and `flags` besides the seat's: `run` acts on the listing named by its seq or hash in the seat's verified transcript (E_UNKNOWN_LISTING for none). */
export function listingVerb(
  name: string,
  summary: string,
  flags: Flags,
  run: (ctx: Context, on: OnListing) => Promise<void>,
): Command {
  return {
    name,
    summary,
    args: "<listing>",
    flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...flags },
    async run(ctx) {
      const [ref] = positionals(ctx.args, ["listing"]);
      const seat = await guardedSeat(ctx);
      const transcript = await seat.transcript();
      await run(ctx, { seat, transcript, ...resolveListing(marketState(transcript), ref!) });
    },
  };
}
