/**
 * Items sold by sealed bids to many buyers (docs/MARKETS.md "Sealed bids on a listing"): each
 * seller lists its item for sealed bids until a deadline with its value, rounded up to a dollar, as
 * the public reserve; each bidder's agent commits a bid by its style (tactics.ts `sealedBid`), chosen
 * and kept on its owner's machine (market-bids.ts), and reveals it after the deadline; the relay
 * settles each listing at the second price as the last bidder reveals. A sale's match opens a room
 * as any match does, where the seller offers the settled price, the winner accepts, and both
 * owners' standing rules sign the deal.
 */
import { marketBidMessage, marketRevealMessage, marketState } from "../../../src/owner/index.js";
import { TrestleError } from "../../../src/protocol/index.js";
import type { Member } from "./members.js";
import { inBatches } from "./members.js";
import { openRoom, refusedBy } from "./rooms.js";
import type { Tally } from "./haggle.js";
import type { SealedItem } from "./scenario.js";
import { sealedBid } from "./tactics.js";

/** How one sealed listing ended: its winner, its price and whether the deal was signed, with what each bidder bid. */
export interface Sold {
  item: SealedItem;
  listing: number;
  bids: { owner: string; bid: number; revealed: boolean }[];
  winner: string | null;
  price: number | null;
  match: number | null;
  room: string | null;
  outcome: "deal" | "unsold" | "allowance";
}

/** A sealed listing written, with its bids committed: what the reveal step needs. */
export interface Listed {
  item: SealedItem;
  seq: number;
  leaf: string;
  bids: { owner: string; bid: number; committed: boolean }[];
}

/**
 * Lists every item of `items` for sealed bids open until `until` (reveals until `revealUntil`),
 * then commits every bidder's bid, `width` writes at a time; a commit the deadline passed is left out.
 */
export async function listAndCommit(
  members: Map<string, Member>,
  items: readonly SealedItem[],
  o: { until: number; revealUntil: number; width: number },
  tally: Tally,
): Promise<Listed[]> {
  const listed: Listed[] = [];
  await inBatches(items, o.width, async (item) => {
    const seller = members.get(item.seller)!;
    const reserve = Math.ceil(item.sellerValue / 100) * 100;
    const sent = await seller.marketSeat.send({
      kind: "listing",
      side: "offer",
      title: item.title,
      category: item.category,
      quantity: 1,
      price: { currency: "USD", min: reserve },
      sealed: { until: o.until, reveal_until: o.revealUntil },
      expires: o.revealUntil + 3_600_000,
    });
    tally.marketWrites.add(sent.seq);
    const transcript = await seller.marketSeat.transcript();
    listed.push({ item, seq: sent.seq, leaf: transcript.entries.find((e) => e.seq === sent.seq)!.leaf, bids: [] });
  });
  const commits = listed.flatMap((l) => l.item.bidders.map((b) => ({ l, b })));
  await inBatches(commits, o.width, async ({ l, b }) => {
    const bidder = members.get(b.owner)!;
    const bid = sealedBid(bidder.style, b.value);
    await bidder.marketSeat.after(l.seq - 1);
    try {
      await bidder.marketSeat.send(await marketBidMessage(bidder.marketSeat.guarded, l.leaf, bid));
      l.bids.push({ owner: b.owner, bid, committed: true });
    } catch (error) {
      // A commit the relay refuses as past the listing's deadline (or after it settled with no bids) is a late bid, counted; anything else but a guard's refusal ends the run.
      if (
        error instanceof TrestleError &&
        (error.code === "E_EXPIRED" || (error.code === "E_NOT_LIVE" && error.details?.status === "settled"))
      )
        tally.lateBids += 1;
      else refusedBy(error, tally.refusals);
      l.bids.push({ owner: b.owner, bid, committed: false });
    }
  });
  return listed;
}

/** After the deadline: every bidder reveals, the relay settles each listing at the last reveal, and each sale's room is opened and its deal signed. */
export async function revealAndSell(
  members: Map<string, Member>,
  listed: readonly Listed[],
  width: number,
  tally: Tally,
): Promise<Sold[]> {
  const reveals = listed.flatMap((l) => l.bids.filter((b) => b.committed).map((b) => ({ l, b })));
  let lastReveal = 0;
  await inBatches(reveals, width, async ({ l, b }) => {
    const bidder = members.get(b.owner)!;
    lastReveal = Math.max(
      lastReveal,
      (await bidder.marketSeat.send(await marketRevealMessage(bidder.marketSeat.guarded, l.leaf, Date.now()))).seq,
    );
  });
  const sold: Sold[] = [];
  await inBatches(listed, width, async (l) => {
    try {
      sold.push(await sell(members, l, lastReveal, tally));
    } catch (error) {
      tally.errors.push(`sealed listing #${l.seq}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return sold;
}

/** The sale of listing `l` once the seller's transcript holds the last reveal (`lastReveal`) and what it caused: its room opened by the seller, the settled price offered and accepted, the deal signed. */
async function sell(members: Map<string, Member>, l: Listed, lastReveal: number, tally: Tally): Promise<Sold> {
  const seller = members.get(l.item.seller)!;
  // The settlement and the sale's match come in the reveal's own batch.
  await seller.marketSeat.after(lastReveal);
  const market = marketState(await seller.marketSeat.transcript());
  const sealed = market.market.listings[l.leaf]!.sealed!;
  const match = Object.entries(market.market.matches).find(([, m]) => m.offer === l.leaf && m.sale !== null);
  const bids = l.bids.map((b) => ({ owner: b.owner, bid: b.bid, revealed: b.committed }));
  if (!match || sealed.winner === null)
    return {
      item: l.item,
      listing: l.seq,
      bids,
      winner: null,
      price: null,
      match: null,
      room: null,
      outcome: "unsold",
    };
  const [seqText, m] = match;
  const winner = members.get(sealed.winner)!;
  const price = m.sale!.price;
  const value = l.item.bidders.find((b) => b.owner === winner.name)!.value;
  const sides = await openRoom({
    seq: Number(seqText),
    seller,
    buyer: winner,
    opener: "seller",
    floor: l.item.sellerValue,
    cap: value,
    sellerCap: Math.ceil((l.item.sellerValue * 2) / 100) * 100,
  });
  let outcome: Sold["outcome"] = "deal";
  try {
    const offer = await sides.seller.send({ kind: "offer", terms: { amount: price, currency: "USD" } });
    await sides.buyer.after(offer.seq - 1);
    const transcript = await sides.buyer.transcript();
    const leaf = transcript.entries.find((e) => e.seq === offer.seq)!.leaf;
    try {
      const accepted = await sides.buyer.send({ kind: "accept", offer: leaf });
      await sides.seller.after(accepted.seq - 1);
      const signed = await sides.seller.guarded.signStandingDeals();
      if (!signed.some((d) => d.signed))
        throw new Error(`the sale in ${sides.room} was not signed by its seller: ${JSON.stringify(signed)}`);
    } catch (error) {
      outcome = refusedBy(error, tally.refusals) === "allowance" ? "allowance" : "unsold";
      await sides.buyer.send({ kind: "close", outcome: "no_deal" });
    }
  } finally {
    sides.seller.close();
    sides.buyer.close();
  }
  return {
    item: l.item,
    listing: l.seq,
    bids,
    winner: winner.name,
    price,
    match: Number(seqText),
    room: sides.room,
    outcome,
  };
}
