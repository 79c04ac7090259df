/**
 * The room kinds this seat writes (docs/SPEC.md §5.10, docs/MCP.md "Rooms"), one or more tools per
 * room kind in the kinds' order. A kind whose write takes only common fields (an offer or grant it
 * names, terms, an expiry; src/protocol/rooms/room-writes.ts) gets its tool derived from its schema
 * and its words; grant, close and the auction's (room-auction.ts) are written here. Offers and
 * grants are named by the seq or hash trestle_room_state lists; an accept takes no terms (it
 * inherits the offer's). Every write goes through the owner-side guards; a held one is put to the
 * human (room-seat.ts).
 */
import { z } from "zod";
import {
  AmountSchema,
  commonFields,
  commonWrite,
  CurrencySchema,
  GrantScopeSchema,
  isCommonKind,
  LIMITS,
  parseOrThrow,
  RoomKindSchema,
  SeatNameSchema,
  TermsSchema,
  TrestleError,
  type CommonKind,
  type RoomKind,
} from "../../protocol/index.js";
import { roomWriteWords } from "../../text/commitment.js";
import { MessageArg, RefArg, roomTool } from "../room-seat.js";
import type { Tool, ToolContext } from "../tool.js";
import { TableArg } from "./args.js";
import { ROOM_AUCTION_TOOLS } from "./room-auction.js";

const TERMS = {
  amount: AmountSchema.optional().describe(
    "the amount as an integer in the currency's minor units (2,800.00 TWD is 280000)",
  ),
  currency: CurrencySchema.optional().describe("ISO 4217 currency of the amount, e.g. TWD"),
  text: z.string().min(1).max(LIMITS.terms_text_chars).optional().describe("the terms in words"),
};
const EXPIRES = {
  expires_in_minutes: z
    .int()
    .min(1)
    .max(10_080)
    .optional()
    .describe("the offer ends after this many minutes (default: until answered)"),
};
/** What a common kind's tool may take, read back from the arguments its own input schema parsed. */
const CommonArgs = z.object({
  offer: z.union([z.int(), z.string()]).optional(),
  grant: z.union([z.int(), z.string()]).optional(),
  ...TERMS,
  ...EXPIRES,
});

function termsOf(args: { amount?: number | undefined; currency?: string | undefined; text?: string | undefined }) {
  const { amount, currency, text } = args;
  return parseOrThrow(
    TermsSchema,
    {
      ...(amount === undefined ? {} : { amount }),
      ...(currency === undefined ? {} : { currency }),
      ...(text === undefined ? {} : { text }),
    },
    "terms",
  );
}

const expiry = (ctx: ToolContext, minutes: number | undefined) =>
  minutes === undefined ? {} : { expires: ctx.now() + minutes * 60_000 };

/** The tool of a kind whose write takes only common fields: the offer or grant it names, terms and expiry as arguments, its title and description from its words. */
function commonTool(kind: CommonKind): Tool {
  const { ref, terms, expires } = commonFields(kind);
  const words = roomWriteWords(kind);
  const named = ref === null ? {} : { [ref]: RefArg(`${ref} to ${kind}`) };
  return roomTool({
    name: `trestle_room_${kind}`,
    title: words.title,
    description: words.description,
    input: z.strictObject({
      table: TableArg,
      ...named,
      ...(terms ? TERMS : {}),
      ...(expires ? EXPIRES : {}),
      message: MessageArg,
    }),
    build: async (args, resolve, ctx) => {
      const given = CommonArgs.parse(args);
      const named = ref === null ? undefined : given[ref];
      return commonWrite(kind, {
        ...(ref === null || named === undefined ? {} : { ref: await resolve(named, ref) }),
        ...(terms ? { terms: termsOf(given) } : {}),
        ...(expires ? expiry(ctx, given.expires_in_minutes) : {}),
      });
    },
  });
}

/** `trestle_room_grant`. */
export const roomGrant = roomTool({
  name: "trestle_room_grant",
  title: "Grant another seat a permission",
  description:
    "Let another seat in the room act within a scope (e.g. pickup:address) for some minutes, until you revoke it. This commits your owner.",
  input: z.strictObject({
    table: TableArg,
    grantee: SeatNameSchema.describe("the seat the grant is for"),
    scope: GrantScopeSchema.describe("what it allows, e.g. pickup:address"),
    expires_in_minutes: z.int().min(1).max(525_600).describe("how long the grant lasts, in minutes"),
    message: MessageArg,
  }),
  build: (args, _r, ctx) => ({
    kind: "grant",
    grantee: args.grantee,
    scope: args.scope,
    expires: ctx.now() + args.expires_in_minutes * 60_000,
  }),
});

/** `trestle_room_close`. */
export const roomClose = roomTool({
  name: "trestle_room_close",
  title: "Close the room",
  description:
    "End the room: outcome deal (naming the accepted offer, only its author or acceptor; or the auction that settled with a deal, only one of its sides) or no_deal (anyone).",
  input: z.strictObject({
    table: TableArg,
    outcome: z.enum(["deal", "no_deal"]).describe("how the room ends"),
    offer: RefArg("accepted offer the deal is on (deal only)").optional(),
    auction: RefArg("auction that settled with a deal (deal only, instead of offer)").optional(),
    message: MessageArg,
  }),
  async build(args, resolve) {
    const named = (args.offer === undefined ? 0 : 1) + (args.auction === undefined ? 0 : 1);
    if ((args.outcome === "deal" ? 1 : 0) !== named)
      throw new TrestleError(
        "E_SCHEMA",
        "a deal names the accepted offer or the settled auction (one of them); no_deal names neither",
      );
    if (args.offer !== undefined) return { kind: "close", outcome: "deal", offer: await resolve(args.offer, "offer") };
    if (args.auction !== undefined)
      return { kind: "close", outcome: "deal", auction: await resolve(args.auction, "auction") };
    return { kind: "close", outcome: "no_deal" };
  },
});

/** The tools of the room kinds with fields of their own, by kind (docs/ROOMS.md "Adding a room kind"): the compiler flags such a kind without its tools. */
const OWN_TOOLS: { [K in Exclude<RoomKind, CommonKind>]: readonly Tool[] } = {
  grant: [roomGrant],
  close: [roomClose],
  // A seat cannot sign for its owner: trestle_deal_sign asks the owner in person (deal-sign.ts).
  deal_sign: [],
  mechanism: ROOM_AUCTION_TOOLS,
};

/** Every room kind tool, in list order (the room kinds' order). */
export const ROOM_WRITE_TOOLS: readonly Tool[] = RoomKindSchema.options.flatMap((kind) =>
  isCommonKind(kind) ? [commonTool(kind)] : OWN_TOOLS[kind],
);
