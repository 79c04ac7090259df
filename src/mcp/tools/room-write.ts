/**
 * The room kinds this seat writes (docs/SPEC.md §5.10, docs/MCP.md "Rooms"): offer, counter,
 * accept, reject, withdraw, grant, revoke, close. Offers and grants are named by the seq or hash
 * trestle_room_state lists; an accept takes no terms (it inherits the offer's). Every write goes
 * through the owner-side guards; a held one is put to the human (room-seat.ts).
 */
import { z } from "zod";
import type { SeatSubmission } from "../../client/index.js";
import { resolveRef, type GuardedSeat, type RoomRef } from "../../owner/index.js";
import { AmountSchema, BodySchema, CurrencySchema, GrantScopeSchema, LIMITS, parseOrThrow, SeatNameSchema, TermsSchema, TrestleError } from "../../protocol/index.js";
import { guardedSeat, sendGuarded } from "../room-seat.js";
import { defineTool, type Tool, type ToolContext } from "../tool.js";
import { TableArg } from "./args.js";

/** A ref argument: an offer, grant or auction by its entry's seq or hash. */
export const RefArg = (what: string) =>
  z.union([z.int().min(1), z.string().regex(/^[0-9a-fA-F]{8,64}$/)]).describe(`the ${what}: its entry's seq, or its hash (8 or more hex characters), as trestle_room_state lists it`);
/** The optional message sent with a write. */
export const MessageArg = BodySchema.optional().describe("a message to the other parties, sent with it");
const PRICE = {
  amount: AmountSchema.optional().describe("the amount as an integer in the currency's minor units (2,800.00 TWD is 280000)"),
  currency: CurrencySchema.optional().describe("ISO 4217 currency of the amount, e.g. TWD"),
  text: z.string().min(1).max(LIMITS.terms_text_chars).optional().describe("the terms in words"),
  expires_in_minutes: z.int().min(1).max(10_080).optional().describe("the offer ends after this many minutes (default: until answered)"),
};

type Resolve = (ref: string | number, what: RoomRef) => Promise<string>;

/** A tool writing one room kind; `build` turns its arguments into the submission (through `seat`, for a sealed bid). */
export function roomTool<S extends z.ZodObject>(spec: {
  name: `trestle_room_${string}`;
  title: string;
  description: string;
  input: S;
  build(args: z.output<S>, resolve: Resolve, ctx: ToolContext, seat: GuardedSeat): SeatSubmission | Promise<SeatSubmission>;
}): Tool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(args, ctx) {
      const table = ctx.session.tableId((args as { table?: string }).table);
      const seat = await guardedSeat(ctx, table);
      const resolve: Resolve = async (ref, what) => resolveRef(await seat.transcript(), ref, what);
      const message = (args as { message?: string }).message;
      const submission = { ...(await spec.build(args, resolve, ctx, seat)), ...(message === undefined ? {} : { body: message }) } as SeatSubmission;
      const { sent, approved } = await sendGuarded(ctx, seat, submission);
      return {
        status: [
          `${submission.kind} written as entry #${sent.seq} at ${table} by seat ${seat.seat} (head #${sent.head.seq}).`,
          ...(approved ? ["Your owner approved this exact message in person; their approval is now spent."] : []),
          "trestle_room_state shows the room now.",
        ],
      };
    },
  });
}

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

/** Every room kind tool, in list order. */
export const ROOM_WRITE_TOOLS: readonly Tool[] = [roomOffer, roomCounter, roomAccept, roomReject, roomWithdraw, roomGrant, roomRevoke, roomClose];
