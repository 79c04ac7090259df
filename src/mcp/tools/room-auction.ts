/**
 * The sealed-bid auction tools (docs/SPEC.md §5.11, docs/MCP.md "Rooms"): open an auction between
 * a buying and a selling seat, commit a sealed bid, reveal it. The bid never leaves this machine
 * until the reveal: it is kept with its salt in the seat's journal, judged by the owner's mandate
 * like any commitment (it may be held for the owner), and only its hash is sent.
 */
import { z } from "zod";
import { AmountSchema, CurrencySchema, K_DEN_MAX, SeatNameSchema } from "../../protocol/index.js";
import type { Tool } from "../tool.js";
import { TableArg } from "./args.js";
import { MessageArg, RefArg, roomTool } from "../room-seat.js";

/** `trestle_room_auction`. */
export const roomAuction = roomTool({
  name: "trestle_room_auction",
  title: "Open a sealed-bid auction",
  description:
    "Open a sealed-bid k-double auction between a buying and a selling seat (two owners). Each side commits a hidden bid, then both reveal; the relay settles at ask + k * (bid - ask) when bid >= ask, else no deal.",
  input: z.strictObject({
    table: TableArg,
    buyer: SeatNameSchema.describe("the seat that bids to buy"),
    seller: SeatNameSchema.describe("the seat that asks to sell"),
    currency: CurrencySchema.describe("ISO 4217 currency of the bids, e.g. TWD"),
    // num <= den is checked with the whole entry (E_SCHEMA): JSON Schema cannot say it.
    k: z
      .strictObject({ num: z.int().min(0).max(K_DEN_MAX), den: z.int().min(1).max(K_DEN_MAX) })
      .optional()
      .describe(
        "where the price falls between ask (0) and bid (1), as a fraction { num, den } with num <= den; default { num: 1, den: 2 }",
      ),
    commit_minutes: z.int().min(1).max(10_080).describe("how long the sides may commit their bids, in minutes"),
    reveal_minutes: z.int().min(1).max(10_080).describe("how long after that they may reveal, in minutes"),
    message: MessageArg,
  }),
  build(args, _r, ctx) {
    const deadline = ctx.now() + args.commit_minutes * 60_000;
    return {
      kind: "mechanism",
      op: "open",
      sides: { buyer: args.buyer, seller: args.seller },
      k: args.k ?? { num: 1, den: 2 },
      currency: args.currency,
      deadline,
      reveal_deadline: deadline + args.reveal_minutes * 60_000,
    };
  },
});

/** `trestle_room_bid`. */
export const roomBid = roomTool({
  name: "trestle_room_bid",
  title: "Commit a sealed bid",
  description:
    "Commit your sealed bid in an auction: an amount in the auction currency's minor units. Only a hash goes to the room; the bid stays on this machine until you reveal it. Your owner's mandate judges the bid (cap, floor, currency) and may hold it for their approval.",
  input: z.strictObject({
    table: TableArg,
    auction: RefArg("auction"),
    amount: AmountSchema.describe("your bid as an integer in minor units (2,800.00 TWD is 280000)"),
    message: MessageArg,
  }),
  build: async (args, resolve, _ctx, seat) => seat.bidMessage(await resolve(args.auction, "auction"), args.amount),
});

/** `trestle_room_reveal`. */
export const roomReveal = roomTool({
  name: "trestle_room_reveal",
  title: "Reveal your sealed bid",
  description:
    "Reveal the bid you committed in an auction (read back from this machine), once every side committed or commits closed. The last reveal settles the auction.",
  input: z.strictObject({ table: TableArg, auction: RefArg("auction"), message: MessageArg }),
  build: async (args, resolve, _ctx, seat) => seat.revealMessage(await resolve(args.auction, "auction")),
});

/** The auction tools, in list order. */
export const ROOM_AUCTION_TOOLS: readonly Tool[] = [roomAuction, roomBid, roomReveal];
