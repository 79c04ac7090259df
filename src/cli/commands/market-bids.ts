/**
 * Sealed bids on a market's listing from the command line (docs/CLI.md "Markets", docs/MARKETS.md
 * "Sealed bids on a listing", decision 0498): commit a bid on a listing that takes them, and reveal
 * it once bidding closed. The bid is chosen here and judged by the seat's mandate and the owner's
 * allowance like any commitment; it stays with its secret salt in the seat's journal in this home,
 * never printed unless asked (--show-opening), and only its commitment is sent until the reveal
 * reads both back.
 */
import { commitMarketBid, marketRevealMessage, marketState, revealCaused } from "../../owner/index.js";
import { integer } from "../args.js";
import { UsageError } from "../exit.js";
import { listingVerb } from "../market.js";
import { headRef } from "../../text/format.js";
import { marketEntryText } from "../../text/market.js";
import type { Command } from "./command.js";

/** `market bid <listing> --amount N`: commits this seat's owner's sealed bid (the commitment only; the bid and its salt stay in the journal). */
export const marketBid = listingVerb(
  "market bid",
  "commit a sealed bid on a listing that takes them (only its hash is sent; your mandate and allowance judge the bid)",
  {
    amount: {
      type: "string",
      value: "N",
      help: "the bid as an integer in the listing's currency's minor units (2,800.00 TWD is 280000)",
    },
    "show-opening": {
      type: "boolean",
      help: "also print the bid's opening, its amount and secret salt (whoever holds it can reveal the bid)",
    },
  },
  async (ctx, { seat, leaf, listing }) => {
    const amount = integer(ctx.args, "amount");
    if (amount === undefined) throw new UsageError("--amount is required");
    const { result: sent, record } = await commitMarketBid(seat, leaf, amount, (message) => seat.send(message));
    const sealed = marketState(await seat.transcript()).market.listings[leaf]!.sealed!;
    const opening = ctx.args.values["show-opening"] === true ? { opening: { bid: record.bid, salt: record.salt } } : {};
    ctx.out.result(
      [
        `sealed bid on listing #${listing.seq} committed as entry #${sent.seq} (head ${headRef(sent.head)}), message ${sent.message_sha256.slice(0, 12)}…: only its hash is in the ledger; the bid and its salt stay in this home's journal`,
        `reveal it from ${new Date(sealed.until).toISOString()} until ${new Date(sealed.reveal_until).toISOString()} with trestle market reveal ${listing.seq} --table ${seat.table} --seat ${seat.seat}`,
        ...(opening.opening
          ? [`opening (whoever holds it can reveal the bid): bid ${record.bid}, salt ${record.salt}`]
          : []),
      ],
      {
        ...sent,
        listing: leaf,
        commitment: record.commitment,
        until: sealed.until,
        reveal_until: sealed.reveal_until,
        ...opening,
      },
    );
  },
);

/** `market reveal <listing>`: reveals the bid this seat's owner committed from this home, read back from the journal, and prints the settlement it caused. */
export const marketReveal = listingVerb(
  "market reveal",
  "reveal the sealed bid you committed from this home, once bidding closed and before reveals close",
  {},
  async (ctx, { seat, leaf, listing }) => {
    const sent = await seat.send(await marketRevealMessage(seat, leaf, ctx.io.clock()));
    // A deciding reveal causes the settlement and, for a sale, the match at once.
    const caused = revealCaused((await seat.transcript()).entries, sent.seq, leaf);
    const sale = caused.find((e) => e.kind === "system" && e.subkind === "match");
    const lines = caused.map((e) => `${ctx.out.c.dim(`[#${e.seq}]`)} ${marketEntryText(e) ?? ""}`);
    const room = sale
      ? [`its room opens with trestle market room ${sale.seq} --table ${seat.table} (either side)`]
      : [];
    const waiting = caused.length === 0 ? ["the bids settle once every bidder revealed, or when reveals close"] : [];
    ctx.out.result(
      [
        `bid on listing #${listing.seq} revealed as entry #${sent.seq} (head ${headRef(sent.head)})`,
        ...lines,
        ...room,
        ...waiting,
      ],
      { ...sent, listing: leaf, caused },
    );
  },
);

/** The sealed-bid verbs, in help order. */
export const MARKET_BIDS: readonly Command[] = [marketBid, marketReveal];
