/**
 * Sealed bids on a market's listing through MCP (docs/MCP.md "Markets", docs/MARKETS.md "Sealed
 * bids on a listing", decision 0528): commit a bid on a listing that takes them, and reveal it once
 * bidding closed, by this server's seat through its GuardedSeat and the owner-side code `trestle
 * market bid` and `reveal` run (src/owner/market-bids.ts): the mandate and the owner's allowance
 * judge the bid before it is signed, a bid the gate holds goes to the owner in the principal window,
 * the bid and its salt stay in the seat's journal on this machine (a refused bid leaves none), and
 * only its hash reaches the ledger until the reveal reads both back. trestle_market_search with
 * `sealed: true` lists the listings that take bids, with their window.
 */
import { z } from "zod";
import { commitMarketBid, marketRevealMessage, marketState, resolveListing, revealCaused } from "../../owner/index.js";
import { AmountSchema, ListingSettledDataSchema, Sha256Schema, type Entry } from "../../protocol/index.js";
import { moneyText } from "../../text/terms.js";
import { guardedSeat, sendGuarded } from "../room-seat.js";
import { defineTool } from "../tool.js";
import { ListingRefArg, TableArg, WrittenOutput } from "./args.js";

/** `trestle_market_bid`. */
export const marketBid = defineTool({
  name: "trestle_market_bid",
  title: "Commit a sealed bid on a listing",
  description:
    "Commit your owner's sealed bid on a listing that takes them (trestle_market_search with `sealed: true` lists them with their window): an amount in the listing currency's minor units, for its whole quantity. Only a hash goes to the market; the bid stays on this machine until you reveal it with trestle_market_reveal once bidding closed. One bid per owner; the highest revealed bid at or above the reserve wins and pays the second price. Your owner's mandate and allowance judge the bid and may hold it for their approval.",
  input: z.strictObject({
    table: TableArg,
    listing: ListingRefArg,
    amount: AmountSchema.describe("your bid as an integer in minor units (2,800.00 TWD is 280000)"),
  }),
  output: WrittenOutput.extend({
    listing: Sha256Schema.describe("the listing's hash"),
    commitment: Sha256Schema.describe("the bid's commitment, the only thing the ledger holds until the reveal"),
    until: z.int().describe("bidding closes then (ms since the epoch): reveal from then"),
    reveal_until: z.int().describe("reveals close then (ms since the epoch)"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, listing, amount }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await guardedSeat(ctx, id);
    const { leaf, listing: named } = resolveListing(marketState(await seat.transcript()), String(listing));
    const { result } = await commitMarketBid(seat, leaf, amount, (message) =>
      sendGuarded(ctx, seat, message, (sent, approved) => {
        const { until, reveal_until } = named.sealed!;
        return {
          status: [
            `sealed bid on listing #${named.seq} committed as entry #${sent.seq} at ${id} by seat ${seat.seat} (head #${sent.head.seq}): only its hash is in the ledger; the bid and its salt stay in this machine's journal.`,
            ...(approved ? ["Your owner approved this exact message in person; their approval is now spent."] : []),
            `Reveal it with trestle_market_reveal from ${new Date(until).toISOString()} until ${new Date(reveal_until).toISOString()}; a bid never revealed is withdrawn.`,
          ],
          structured: {
            table: id,
            seat: seat.seat,
            kind: "bid",
            seq: sent.seq,
            head: sent.head.seq,
            listing: leaf,
            commitment: message.commitment,
            until,
            reveal_until,
          },
        };
      }),
    );
    return result;
  },
});

/** A reveal's settlement as structured content: sold to an owner at a price, or unsold and why; null while others may still reveal. */
const SettledOutput = z
  .object({
    outcome: z.enum(["sold", "unsold"]),
    winner: z.string().optional().describe("the owner the listing was sold to"),
    price: z.int().optional().describe("the price the sale settled at (the second price), minor units"),
    currency: z.string().optional(),
    reason: z.enum(["no_bids", "no_reveals", "below_reserve"]).optional().describe("why nothing was sold"),
    seq: z.int().min(1).describe("the listing_settled entry"),
    match: z.int().min(1).nullable().describe("a sale's match with the seller, whose room trestle_market_room opens"),
  })
  .nullable();

/** `trestle_market_reveal`. */
export const marketReveal = defineTool({
  name: "trestle_market_reveal",
  title: "Reveal your sealed bid",
  description:
    "Reveal the sealed bid your owner committed on a listing from this machine (read back from its journal), once bidding closed and before reveals close. The reveal that decides it settles the listing at once: the reply says who won and at which price, and the sale's match (trestle_market_room opens its room).",
  input: z.strictObject({ table: TableArg, listing: ListingRefArg }),
  output: WrittenOutput.extend({ listing: Sha256Schema, settled: SettledOutput }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, listing }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await guardedSeat(ctx, id);
    const { leaf, listing: named } = resolveListing(marketState(await seat.transcript()), String(listing));
    return sendGuarded(ctx, seat, await marketRevealMessage(seat, leaf, ctx.now()), async (sent, approved) => {
      const settled = settlement(revealCaused((await seat.transcript()).entries, sent.seq, leaf));
      return {
        status: [
          `bid on listing #${named.seq} revealed as entry #${sent.seq} at ${id} by seat ${seat.seat} (head #${sent.head.seq}).`,
          ...(approved ? ["Your owner approved this exact message in person; their approval is now spent."] : []),
          settledLine(settled),
        ],
        structured: {
          table: id,
          seat: seat.seat,
          kind: "bid",
          seq: sent.seq,
          head: sent.head.seq,
          listing: leaf,
          settled,
        },
      };
    });
  },
});

/** The sealed-bid verbs, in the order they are listed. */
export const MARKET_BID_TOOLS = [marketBid, marketReveal] as const;

/** The settlement among the entries a reveal caused, with the sale's match; null when it settled nothing yet. */
function settlement(caused: readonly Entry[]): z.infer<typeof SettledOutput> {
  const entry = caused.find((e) => e.kind === "system" && e.subkind === "listing_settled");
  if (!entry || entry.kind !== "system") return null;
  const data = ListingSettledDataSchema.parse(entry.data);
  const match = caused.find((e) => e.kind === "system" && e.subkind === "match")?.seq ?? null;
  if (data.outcome === "unsold") return { outcome: "unsold", reason: data.reason, seq: entry.seq, match };
  return {
    outcome: "sold",
    winner: data.winner.owner,
    price: data.price,
    currency: data.currency,
    seq: entry.seq,
    match,
  };
}

/** The settlement in words, or that the bids settle later. */
function settledLine(s: z.infer<typeof SettledOutput>): string {
  if (s === null)
    return "The bids settle once every bidder revealed, or when reveals close; trestle_market_search with `sealed: true` shows where they stand.";
  if (s.outcome === "unsold")
    return `The bids settled at entry #${s.seq}: nothing sold (${s.reason!.replace("_", " ")}).`;
  return `The bids settled at entry #${s.seq}: sold to ${s.winner!} at ${moneyText(s.price!, s.currency!)}; match #${s.match!} is the sale, and trestle_market_room opens its room (either side).`;
}
