/**
 * The room verbs a seat writes (docs/SPEC.md §5.10), one or more per room kind in the kinds' order.
 * A kind whose write takes only common fields (an offer or grant it names, terms, an expiry;
 * src/protocol/rooms/room-writes.ts) gets its verb derived from its schema and its words; grant,
 * close and the auction's (room-auction.ts) are written here. Offers and grants are named by their
 * entry's seq or hash (`trestle room show` lists them); every write goes through the owner-side
 * guards (mandate, never_disclose, the commitment gate) before it is signed.
 */
import {
  commonFields,
  commonWrite,
  isCommonKind,
  RoomKindSchema,
  type CommonKind,
  type RoomKind,
} from "../../protocol/index.js";
import { roomWriteWords } from "../../text/commitment.js";
import { duration, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { UsageError } from "../exit.js";
import { roomVerb, termsFrom, TERMS_FLAGS } from "../room.js";
import type { Command } from "./command.js";
import { ROOM_AUCTION } from "./room-auction.js";
import { dealSign } from "./deal.js";

const EXPIRES: Flags = {
  "expires-in": {
    type: "string",
    value: "DURATION",
    help: "the offer ends after this long, e.g. 30m, 2h, 1d (default: until answered)",
  },
};
const expiresAt = (ctx: Context) =>
  ctx.args.values["expires-in"] === undefined
    ? {}
    : { expires: ctx.io.clock() + duration(ctx.args, "expires-in", "1d") };

/** The verb of a kind whose write takes only common fields: the offer or grant it names as its positional, terms and expiry as flags, its summary from its words. */
function commonVerb(kind: CommonKind): Command {
  const { ref, terms, expires } = commonFields(kind);
  const flags: Flags = { ...(terms ? TERMS_FLAGS : {}), ...(expires ? EXPIRES : {}) };
  return roomVerb(
    kind,
    roomWriteWords(kind).summary,
    { args: ref === null ? [] : [ref], flags },
    async (ctx, [named], resolve) =>
      commonWrite(kind, {
        ...(ref === null ? {} : { ref: await resolve(named!, ref) }),
        ...(terms ? { terms: termsFrom(ctx) } : {}),
        ...(expires ? expiresAt(ctx) : {}),
      }),
  );
}

/** `room grant <seat>`: lets another seat act within a scope until it expires or is revoked. */
export const roomGrant = roomVerb(
  "grant",
  "let another seat act within a scope, for a while",
  {
    args: ["seat"],
    flags: {
      scope: { type: "string", value: "SCOPE", help: "what the grant allows, e.g. pickup:address" },
      ttl: { type: "string", value: "DURATION", help: "how long it lasts, e.g. 2h, 1d (default 1d)" },
    },
  },
  (ctx, [grantee]) => {
    const scope = ctx.args.values.scope;
    if (typeof scope !== "string") throw new UsageError("--scope is required");
    return { kind: "grant", grantee: grantee!, scope, expires: ctx.io.clock() + duration(ctx.args, "ttl", "1d") };
  },
);

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
    if ([typeof deal === "string", typeof auction === "string", noDeal].filter(Boolean).length !== 1)
      throw new UsageError("give exactly one of --deal <offer>, --auction <auction> and --no-deal");
    if (typeof deal === "string") return { kind: "close", outcome: "deal", offer: await resolve(deal, "offer") };
    if (typeof auction === "string")
      return { kind: "close", outcome: "deal", auction: await resolve(auction, "auction") };
    return { kind: "close", outcome: "no_deal" };
  },
);

/** The verbs of the room kinds with fields of their own, by kind (docs/ROOMS.md "Adding a room kind"): the compiler flags such a kind without its verbs. */
const OWN_VERBS: { [K in Exclude<RoomKind, CommonKind>]: readonly Command[] } = {
  grant: [roomGrant],
  close: [roomClose],
  deal_sign: [dealSign],
  mechanism: ROOM_AUCTION,
};

/** Every room verb a seat writes, in help order (the room kinds' order). */
export const ROOM_WRITES: readonly Command[] = RoomKindSchema.options.flatMap((kind) =>
  isCommonKind(kind) ? [commonVerb(kind)] : OWN_VERBS[kind],
);
