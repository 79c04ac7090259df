/**
 * The room verbs a seat writes (docs/SPEC.md §5.10): offer, counter, accept, reject, withdraw,
 * grant, revoke, close, and the auction's (room-auction.ts), in one table by room kind. Offers and grants are named by their entry's seq or hash (`trestle room
 * show` lists them); every write goes through the owner-side guards (mandate, never_disclose, the
 * commitment gate) before it is signed.
 */
import type { RoomKind } from "../../protocol/index.js";
import { duration, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { UsageError } from "../exit.js";
import { roomVerb, termsFrom, TERMS_FLAGS } from "../room.js";
import type { Command } from "./command.js";
import { ROOM_AUCTION } from "./room-auction.js";

const EXPIRES: Flags = { "expires-in": { type: "string", value: "DURATION", help: "the offer ends after this long, e.g. 30m, 2h, 1d (default: until answered)" } };
const expiresAt = (ctx: Context) => (ctx.args.values["expires-in"] === undefined ? {} : { expires: ctx.io.clock() + duration(ctx.args, "expires-in", "1d") });

/** `room offer`: terms the seat's owner is bound to if another party accepts. */
export const roomOffer = roomVerb("offer", "offer terms in a room (bound if another party accepts)", { args: [], flags: { ...TERMS_FLAGS, ...EXPIRES } }, (ctx) => ({
  kind: "offer",
  terms: termsFrom(ctx),
  ...expiresAt(ctx),
}));

/** `room counter <offer>`: answers another party's live offer with new terms. */
export const roomCounter = roomVerb("counter", "answer another party's live offer with your terms", { args: ["offer"], flags: { ...TERMS_FLAGS, ...EXPIRES } }, async (ctx, [offer], resolve) => ({
  kind: "counter",
  offer: await resolve(offer!, "offer"),
  terms: termsFrom(ctx),
  ...expiresAt(ctx),
}));

/** `room accept <offer>`: agrees to another party's live offer on its own terms. */
export const roomAccept = roomVerb("accept", "accept another party's live offer (on exactly its terms)", { args: ["offer"] }, async (_ctx, [offer], resolve) => ({
  kind: "accept",
  offer: await resolve(offer!, "offer"),
}));

/** `room reject <offer>`: turns down another party's live offer. */
export const roomReject = roomVerb("reject", "turn down another party's live offer", { args: ["offer"] }, async (_ctx, [offer], resolve) => ({
  kind: "reject",
  offer: await resolve(offer!, "offer"),
}));

/** `room withdraw <offer>`: takes back this seat's own live offer. */
export const roomWithdraw = roomVerb("withdraw", "take back your own live offer", { args: ["offer"] }, async (_ctx, [offer], resolve) => ({
  kind: "withdraw",
  offer: await resolve(offer!, "offer"),
}));

/** `room grant <seat>`: lets another seat act within a scope until it expires or is revoked. */
export const roomGrant = roomVerb(
  "grant",
  "let another seat act within a scope, for a while",
  { args: ["seat"], flags: { scope: { type: "string", value: "SCOPE", help: "what the grant allows, e.g. pickup:address" }, ttl: { type: "string", value: "DURATION", help: "how long it lasts, e.g. 2h, 1d (default 1d)" } } },
  (ctx, [grantee]) => {
    const scope = ctx.args.values.scope;
    if (typeof scope !== "string") throw new UsageError("--scope is required");
    return { kind: "grant", grantee: grantee!, scope, expires: ctx.io.clock() + duration(ctx.args, "ttl", "1d") };
  },
);

/** `room revoke <grant>`: ends this seat's own live grant. */
export const roomRevoke = roomVerb("revoke", "end your own live grant", { args: ["grant"] }, async (_ctx, [grant], resolve) => ({
  kind: "revoke",
  grant: await resolve(grant!, "grant"),
}));

/** `room close`: ends the room with a deal (naming the accepted offer, or the auction that settled with one) or without one. */
export const roomClose = roomVerb(
  "close",
  "close the room: --deal <offer>, --auction <auction> or --no-deal",
  {
    args: [],
    flags: {
      deal: { type: "string", value: "OFFER", help: "the accepted offer the deal is on (seq or hash)" },
      auction: { type: "string", value: "AUCTION", help: "the auction that settled with a deal (seq or hash)" },
      "no-deal": { type: "boolean", help: "close without a deal" },
    },
  },
  async (ctx, _named, resolve) => {
    const deal = ctx.args.values.deal;
    const auction = ctx.args.values.auction;
    const noDeal = ctx.args.values["no-deal"] === true;
    if ([typeof deal === "string", typeof auction === "string", noDeal].filter(Boolean).length !== 1) throw new UsageError("give exactly one of --deal <offer>, --auction <auction> and --no-deal");
    if (typeof deal === "string") return { kind: "close", outcome: "deal", offer: await resolve(deal, "offer") };
    if (typeof auction === "string") return { kind: "close", outcome: "deal", auction: await resolve(auction, "auction") };
    return { kind: "close", outcome: "no_deal" };
  },
);

/** Every room kind's verbs, by kind (docs/ROOMS.md "Adding a room kind"): the compiler flags a kind without its verb. */
const ROOM_KIND_VERBS: { [K in RoomKind]: readonly Command[] } = {
  offer: [roomOffer],
  counter: [roomCounter],
  accept: [roomAccept],
  reject: [roomReject],
  withdraw: [roomWithdraw],
  grant: [roomGrant],
  revoke: [roomRevoke],
  close: [roomClose],
  mechanism: ROOM_AUCTION,
};

/** Every room verb a seat writes, in help order (the room kinds' order). */
export const ROOM_WRITES: readonly Command[] = Object.values(ROOM_KIND_VERBS).flat();
