/**
 * The room kinds this seat writes (docs/SPEC.md §5.10, docs/MCP.md "Rooms"): offer, counter,
 * accept, reject, withdraw, grant, revoke, close, and the auction's (room-auction.ts), in one table by room kind. Offers and grants are named by the seq or hash
 * trestle_room_state lists; an accept takes no terms (it inherits the offer's). Every write goes
 * through the owner-side guards; a held one is put to the human (room-seat.ts).
 */
import { z } from "zod";
import { AmountSchema, CurrencySchema, GrantScopeSchema, LIMITS, parseOrThrow, SeatNameSchema, TermsSchema, TrestleError, type RoomKind } from "../../protocol/index.js";
import { MessageArg, RefArg, roomTool } from "../room-seat.js";
import type { Tool, ToolContext } from "../tool.js";
import { TableArg } from "./args.js";
import { ROOM_AUCTION_TOOLS } from "./room-auction.js";

const PRICE = {
  amount: AmountSchema.optional().describe("the amount as an integer in the currency's minor units (2,800.00 TWD is 280000)"),
  currency: CurrencySchema.optional().describe("ISO 4217 currency of the amount, e.g. TWD"),
  text: z.string().min(1).max(LIMITS.terms_text_chars).optional().describe("the terms in words"),
  expires_in_minutes: z.int().min(1).max(10_080).optional().describe("the offer ends after this many minutes (default: until answered)"),
};

function termsOf(args: { amount?: number | undefined; currency?: string | undefined; text?: string | undefined }) {
  const { amount, currency, text } = args;
  return parseOrThrow(TermsSchema, { ...(amount === undefined ? {} : { amount }), ...(currency === undefined ? {} : { currency }), ...(text === undefined ? {} : { text }) }, "terms");
}

const expiry = (ctx: ToolContext, minutes: number | undefined) => (minutes === undefined ? {} : { expires: ctx.now() + minutes * 60_000 });

/** `trestle_room_offer`. */
export const roomOffer = roomTool({
  name: "trestle_room_offer",
  title: "Make an offer in the room",
  description:
    "Put terms on the table: an amount (integer minor units) with its currency, and/or text. Your owner is bound if another party accepts while it is live. Your owner's mandate is checked first (cap, floor, currency, never_disclose); it may hold the offer for their approval.",
  input: z.strictObject({ table: TableArg, ...PRICE, message: MessageArg }),
  build: (args, _r, ctx) => ({ kind: "offer", terms: termsOf(args), ...expiry(ctx, args.expires_in_minutes) }),
});

/** `trestle_room_counter`. */
export const roomCounter = roomTool({
  name: "trestle_room_counter",
  title: "Counter another party's offer",
  description: "Answer another party's live offer with your own terms; their offer ends and yours is live. Checked against your owner's mandate first.",
  input: z.strictObject({ table: TableArg, offer: RefArg("offer to counter"), ...PRICE, message: MessageArg }),
  build: async (args, resolve, ctx) => ({ kind: "counter", offer: await resolve(args.offer, "offer"), terms: termsOf(args), ...expiry(ctx, args.expires_in_minutes) }),
});

/** `trestle_room_accept`. */
export const roomAccept = roomTool({
  name: "trestle_room_accept",
  title: "Accept another party's offer",
  description:
    "Accept another party's live offer on exactly its terms (you do not restate them; your owner's mandate judges the offer's amount). This commits your owner; their mandate may hold it for their approval.",
  input: z.strictObject({ table: TableArg, offer: RefArg("offer to accept"), message: MessageArg }),
  build: async (args, resolve) => ({ kind: "accept", offer: await resolve(args.offer, "offer") }),
});

/** `trestle_room_reject`. */
export const roomReject = roomTool({
  name: "trestle_room_reject",
  title: "Reject another party's offer",
  description: "Turn down another party's live offer; it ends.",
  input: z.strictObject({ table: TableArg, offer: RefArg("offer to reject"), message: MessageArg }),
  build: async (args, resolve) => ({ kind: "reject", offer: await resolve(args.offer, "offer") }),
});

/** `trestle_room_withdraw`. */
export const roomWithdraw = roomTool({
  name: "trestle_room_withdraw",
  title: "Withdraw your own offer",
  description: "Take back your own live offer (only its author can).",
  input: z.strictObject({ table: TableArg, offer: RefArg("offer to withdraw"), message: MessageArg }),
  build: async (args, resolve) => ({ kind: "withdraw", offer: await resolve(args.offer, "offer") }),
});

/** `trestle_room_grant`. */
export const roomGrant = roomTool({
  name: "trestle_room_grant",
  title: "Grant another seat a permission",
  description: "Let another seat in the room act within a scope (e.g. pickup:address) for some minutes, until you revoke it. This commits your owner.",
  input: z.strictObject({
    table: TableArg,
    grantee: SeatNameSchema.describe("the seat the grant is for"),
    scope: GrantScopeSchema.describe("what it allows, e.g. pickup:address"),
    expires_in_minutes: z.int().min(1).max(525_600).describe("how long the grant lasts, in minutes"),
    message: MessageArg,
  }),
  build: (args, _r, ctx) => ({ kind: "grant", grantee: args.grantee, scope: args.scope, expires: ctx.now() + args.expires_in_minutes * 60_000 }),
});

/** `trestle_room_revoke`. */
export const roomRevoke = roomTool({
  name: "trestle_room_revoke",
  title: "Revoke your own grant",
  description: "End a live grant you made (only the grantor can).",
  input: z.strictObject({ table: TableArg, grant: RefArg("grant to revoke"), message: MessageArg }),
  build: async (args, resolve) => ({ kind: "revoke", grant: await resolve(args.grant, "grant") }),
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
    if ((args.outcome === "deal" ? 1 : 0) !== named) throw new TrestleError("E_SCHEMA", "a deal names the accepted offer or the settled auction (one of them); no_deal names neither");
    if (args.offer !== undefined) return { kind: "close", outcome: "deal", offer: await resolve(args.offer, "offer") };
    if (args.auction !== undefined) return { kind: "close", outcome: "deal", auction: await resolve(args.auction, "auction") };
    return { kind: "close", outcome: "no_deal" };
  },
});

/** Every room kind's tools, by kind (docs/ROOMS.md "Adding a room kind"): the compiler flags a kind without its tool. */
const ROOM_KIND_TOOLS: { [K in RoomKind]: readonly Tool[] } = {
  offer: [roomOffer],
  counter: [roomCounter],
  accept: [roomAccept],
  reject: [roomReject],
  withdraw: [roomWithdraw],
  grant: [roomGrant],
  revoke: [roomRevoke],
  close: [roomClose],
  mechanism: ROOM_AUCTION_TOOLS,
};

/** Every room kind tool, in list order (the room kinds' order). */
export const ROOM_WRITE_TOOLS: readonly Tool[] = Object.values(ROOM_KIND_TOOLS).flat();
