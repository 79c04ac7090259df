/**
 * A market as this server's tools and resources read it (docs/MCP.md "Markets", decision 0520):
 * the fold of its verified transcript, read as this server's seat (else its owner), and the board
 * every market surface draws from it (src/text/market-board.ts, decision 0492), so nothing the
 * relay merely claims reaches the model. Listings and matches become inert data items: trestle's
 * own facts (seqs, hashes, owners, quantities, prices, room ids) in the header, what members wrote
 * (titles, texts, the words a match shares) in the body, framed like every other table text.
 */
import { z } from "zod";
import { readTranscript, seatOwnerKey, marketState, type Transcript } from "../owner/index.js";
import { CurrencySchema, own, type MarketState, type SealedState, type TableState } from "../protocol/index.js";
import { marketBoard, type BoardListing, type BoardMatch, type MarketBoard } from "../text/market-board.js";
import type { InertItem } from "../text/framing.js";
import { unitsText } from "../text/market.js";
import { shortHash } from "../text/terms.js";
import type { ToolContext } from "./tool.js";

/** One read of a market: its verified transcript and fold, its board now, and the key of the owner this server acts for (undefined when neither key names one). */
export interface MarketRead {
  table: string;
  transcript: Transcript;
  state: TableState & { market: MarketState };
  board: MarketBoard;
  ownerKey: string | undefined;
}

/** Reads market `table` from its verified export (E_NOT_ALLOWED for a table that is no market, E_REFUTED for a refuted one) and notes it among the session's markets. */
export async function readMarket(ctx: Pick<ToolContext, "session" | "now">, table: string): Promise<MarketRead> {
  const { session } = ctx;
  const reader = await session.reader("seat");
  const transcript = await readTranscript(await session.client(table), reader);
  const state = marketState(transcript);
  session.markets.add(table);
  const ownerKey = session.hasOwner
    ? (await session.ownerKey()).signer.publicKeyText
    : "seat" in reader.as
      ? seatOwnerKey(transcript, reader.as.seat)
      : undefined;
  return { table, transcript, state, board: marketBoard(state, state.market, transcript.entries, ctx.now()), ownerKey };
}

/** A board listing as a data item: its entry, side, owner and seat, category, quantity left, price and standing in the header; its title and text in the body. */
export function listingItem(l: BoardListing): InertItem {
  const standing = l.standing === "live" ? `live until ${new Date(l.expires).toISOString()}` : l.ended!;
  const sealed = l.sealed === null ? "" : `; ${l.sealed}`;
  return {
    header: `${l.side} #${l.seq} ${shortHash(l.leaf)} by ${l.owner} (${l.seat}), ${l.category}, ${l.left} of ${unitsText(l.quantity)} left, ${l.price}, ${standing}${sealed}`,
    body: [`title: ${l.title}`, ...(l.text === null ? [] : [`text: ${l.text}`])].join("\n"),
  };
}

/** A board match as a data item: both sides' owners and listings, the quantity, its room and deal, and whether `ownerKey` is a side, in the header; both titles and the shared words in the body. */
export function matchItem(m: BoardMatch, ownerKey: string | undefined): InertItem {
  const yours = ownerKey !== undefined && (m.offer.key === ownerKey || m.want.key === ownerKey) ? " (yours)" : "";
  const deal = m.deal === null ? "no deal recorded" : `deal recorded at #${m.deal}`;
  const sale = m.sale === null ? "" : `, sold by sealed bids at ${m.sale}`;
  return {
    header: `match #${m.seq}${yours}: ${m.offer.owner}'s offer #${m.offer.seq} with ${m.want.owner}'s want #${m.want.seq}, ${unitsText(m.quantity)}${sale}; room ${m.room}, ${deal}`,
    body: [
      `offer: ${m.offer.title}`,
      `want: ${m.want.title}`,
      ...(m.words.length === 0 ? [] : [`words in common: ${m.words.join(", ")}`]),
    ].join("\n"),
  };
}

/** Where a listing's sealed bids stand as structured content (trestle's facts only): the phase at the time read, its window, reserve, how many owners committed, and whether this server's owner did. */
export const SealedOutput = z.object({
  phase: z
    .enum(["bidding", "revealing", "settling", "settled"])
    .describe(
      "bidding: commit until `until`; revealing: reveal until `reveal_until`; settling: reveals closed, the relay settles; settled",
    ),
  until: z.int().describe("bidding closes then (ms since the epoch)"),
  reveal_until: z.int().describe("reveals close then (ms since the epoch)"),
  reserve: z.int().min(0).describe("the lowest bid that can win, minor units"),
  currency: CurrencySchema,
  bids: z.int().min(0).describe("how many owners committed a bid"),
  yours: z.enum(["none", "committed", "revealed"]).describe("your owner's bid on it"),
  sold_to: z.string().nullable().describe("the owner it was sold to, once settled"),
});

/** `sealed` at `now` as SealedOutput, `bidder` (the owner this server bids for, when seated) telling `yours`. */
export function sealedFacts(
  sealed: SealedState,
  now: number,
  bidder: string | undefined,
): z.infer<typeof SealedOutput> {
  const { until, reveal_until, reserve, currency, commits, winner } = sealed;
  const bids = Object.keys(commits).length;
  // Nobody committed: the bids settle at `until`, with nothing to reveal.
  const phase =
    sealed.settled !== null
      ? "settled"
      : now < until
        ? "bidding"
        : bids > 0 && now < reveal_until
          ? "revealing"
          : "settling";
  const mine = bidder === undefined ? undefined : own(commits, bidder);
  const yours = mine === undefined ? "none" : mine.bid === null ? "committed" : "revealed";
  return { phase, until, reveal_until, reserve, currency, bids, yours, sold_to: winner };
}
