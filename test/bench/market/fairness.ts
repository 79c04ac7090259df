/**
 * Who got the surplus (docs/BENCHMARKS.md "A market"): for each deal, the surplus is the buyer's
 * value less the seller's, split at the deal's price into what the seller captured (price less its
 * value) and what the buyer did (its value less the price). Shares are of the summed surplus of the
 * deals in a group, by pairing of styles (seller's first) under free haggling, and by the winner's
 * style under sealed bids; plus the surplus left on the table by rooms that ended without a deal.
 */
import type { Haggled } from "./haggle.js";
import type { Sold } from "./sealed.js";
import { round } from "../harness/stats.js";
import type { Member } from "./members.js";

/** One group's split. */
export interface Split {
  deals: number;
  /** Shares of the group's summed surplus captured by the seller and the buyer. */
  seller_share: number;
  buyer_share: number;
  /** Rooms of the group that ended without a deal although the buyer valued the item more. */
  no_deal_with_surplus: number;
}

/** The fairness table: free haggling by pairing and by style, sealed bids by the winner's style. */
export interface Fairness {
  haggling: Record<string, Split>;
  haggling_by_style: Record<string, { deals: number; share_as_seller: number; share_as_buyer: number }>;
  sealed: Record<string, Split & { wins: number; bids: number }>;
  surplus_realised: { haggling: number; sealed: number };
}

interface Deal {
  seller: number;
  buyer: number;
  price: number;
}

function split(deals: readonly Deal[], missed: number): Split {
  const surplus = deals.reduce((s, d) => s + (d.buyer - d.seller), 0);
  const toSeller = deals.reduce((s, d) => s + (d.price - d.seller), 0);
  return {
    deals: deals.length,
    seller_share: surplus > 0 ? round(toSeller / surplus, 3) : 0,
    buyer_share: surplus > 0 ? round(1 - toSeller / surplus, 3) : 0,
    no_deal_with_surplus: missed,
  };
}

/** The fairness table of a run's haggles and sales, by the members' styles. */
export function fairness(members: Map<string, Member>, haggled: readonly Haggled[], sold: readonly Sold[]): Fairness {
  const style = (owner: string) => members.get(owner)!.style;
  const groups = new Map<string, { deals: Deal[]; missed: number }>();
  const group = (key: string) => groups.get(key) ?? (groups.set(key, { deals: [], missed: 0 }), groups.get(key)!);
  let possible = 0;
  let realised = 0;
  for (const h of haggled) {
    const g = group(`${style(h.item.seller)} seller, ${style(h.item.buyer)} buyer`);
    const gain = h.item.buyerValue - h.item.sellerValue;
    if (gain > 0) possible += gain;
    if (h.outcome === "deal" && h.price !== null) {
      g.deals.push({ seller: h.item.sellerValue, buyer: h.item.buyerValue, price: h.price });
      realised += gain;
    } else if (gain > 0) g.missed += 1;
  }
  const haggling = Object.fromEntries([...groups].sort().map(([k, g]) => [k, split(g.deals, g.missed)]));
  const haggling_by_style: Fairness["haggling_by_style"] = {};
  for (const s of ["slow", "fast"] as const) {
    const asSeller = haggled
      .filter((h) => h.outcome === "deal" && style(h.item.seller) === s)
      .map((h) => ({ seller: h.item.sellerValue, buyer: h.item.buyerValue, price: h.price! }));
    const asBuyer = haggled
      .filter((h) => h.outcome === "deal" && style(h.item.buyer) === s)
      .map((h) => ({ seller: h.item.sellerValue, buyer: h.item.buyerValue, price: h.price! }));
    haggling_by_style[s] = {
      deals: asSeller.length + asBuyer.length,
      share_as_seller: split(asSeller, 0).seller_share,
      share_as_buyer: split(asBuyer, 0).buyer_share,
    };
  }
  const sealed: Fairness["sealed"] = {};
  let sealedPossible = 0;
  let sealedRealised = 0;
  for (const s of ["slow", "fast"] as const) {
    const won = sold.filter((x) => x.outcome === "deal" && x.winner !== null && style(x.winner) === s);
    const deals = won.map((x) => ({
      seller: x.item.sellerValue,
      buyer: x.item.bidders.find((b) => b.owner === x.winner)!.value,
      price: x.price!,
    }));
    const bids = sold.reduce((n, x) => n + x.bids.filter((b) => style(b.owner) === s).length, 0);
    sealed[`${s} winner`] = { ...split(deals, 0), wins: won.length, bids };
  }
  for (const x of sold) {
    const best = Math.max(...x.item.bidders.map((b) => b.value));
    if (best > x.item.sellerValue) sealedPossible += best - x.item.sellerValue;
    if (x.outcome === "deal")
      sealedRealised += x.item.bidders.find((b) => b.owner === x.winner)!.value - x.item.sellerValue;
  }
  return {
    haggling,
    haggling_by_style,
    sealed,
    surplus_realised: {
      haggling: possible > 0 ? round(realised / possible, 3) : 0,
      sealed: sealedPossible > 0 ? round(sealedRealised / sealedPossible, 3) : 0,
    },
  };
}
