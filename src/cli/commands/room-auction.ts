/**
 * The sealed-bid auction verbs (docs/SPEC.md §5.11, docs/ROOMS.md "Sealed-bid auctions"): open an
 * auction between a buying and a selling seat, commit a sealed bid, reveal it. The bid is chosen
 * here and judged by the owner's mandate like any commitment; it stays with its salt in the seat's
 * journal and only its commitment is sent, until the reveal reads both back.
 */
import { AuctionKSchema, parseOrThrow, type AuctionK } from "../../protocol/index.js";
import { duration, integer, required } from "../args.js";
import { currencyFlag } from "../currency-flag.js";
import { UsageError } from "../exit.js";
import { roomVerb } from "../room.js";
import type { Command } from "./command.js";

/** k as the CLI takes it: a fraction `1/2` or a decimal in [0, 1] with at most 6 places (`0.5`). */
export function parseK(text: string): AuctionK {
  const fraction = /^(\d{1,7})\/(\d{1,7})$/.exec(text);
  const decimal = /^([01])(?:\.(\d{1,6}))?$/.exec(text);
  if (!fraction && !decimal) throw new UsageError(`--k takes a fraction like 1/2 or a decimal like 0.5, not "${text}"`);
  const k = fraction
    ? { num: Number(fraction[1]), den: Number(fraction[2]) }
    : { num: Number(`${decimal![1]}${decimal![2] ?? ""}`), den: 10 ** (decimal![2]?.length ?? 0) };
  return parseOrThrow(AuctionKSchema, k, "k");
}

/** `room auction`: opens a sealed-bid k-double auction between --buyer and --seller. */
export const roomAuction = roomVerb(
  "auction",
  "open a sealed-bid auction between a buying and a selling seat",
  {
    args: [],
    flags: {
      buyer: { type: "string", value: "SEAT", help: "the seat that bids to buy" },
      seller: { type: "string", value: "SEAT", help: "the seat that asks to sell" },
      currency: { type: "string", value: "CODE", help: "ISO 4217 currency of the bids (e.g. TWD)" },
      k: {
        type: "string",
        value: "K",
        help: "where the price falls between ask and bid: 0 the ask, 1 the bid (default 1/2)",
      },
      "commit-for": { type: "string", value: "DURATION", help: "how long sides may commit their bids (default 1h)" },
      "reveal-for": { type: "string", value: "DURATION", help: "how long after that they may reveal (default 1h)" },
    },
  },
  (ctx) => {
    const deadline = ctx.io.clock() + duration(ctx.args, "commit-for", "1h");
    const k = ctx.args.values.k;
    const currency = currencyFlag(ctx.args);
    if (currency === undefined) throw new UsageError("--currency is required");
    return {
      kind: "mechanism",
      op: "open",
      sides: { buyer: required(ctx.args, "buyer"), seller: required(ctx.args, "seller") },
      k: parseK(typeof k === "string" ? k : "1/2"),
      currency,
      deadline,
      reveal_deadline: deadline + duration(ctx.args, "reveal-for", "1h"),
    };
  },
);

/** `room bid <auction> --amount N`: commits this seat's sealed bid (the commitment only; the bid stays in the journal). */
export const roomBid = roomVerb(
  "bid",
  "commit a sealed bid in an auction (only its hash is sent; your mandate judges the bid)",
  {
    args: ["auction"],
    flags: {
      amount: {
        type: "string",
        value: "N",
        help: "the bid as an integer in the currency's minor units (2,800.00 TWD is 280000)",
      },
    },
  },
  async (ctx, [auction], resolve, seat) => {
    const amount = integer(ctx.args, "amount");
    if (amount === undefined) throw new UsageError("--amount is required");
    return seat.bidMessage(await resolve(auction!, "auction"), amount);
  },
);

/** `room reveal <auction>`: reveals the bid this seat committed (read back from its journal). */
export const roomReveal = roomVerb(
  "reveal",
  "reveal your sealed bid once every side committed or commits closed",
  { args: ["auction"] },
  async (_ctx, [auction], resolve, seat) => seat.revealMessage(await resolve(auction!, "auction")),
);

/** The auction verbs, in help order. */
export const ROOM_AUCTION: readonly Command[] = [roomAuction, roomBid, roomReveal];
