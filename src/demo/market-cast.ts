/**
 * Who trades what in the market scenario (`npm run demo -- market`): five parents, a dozen listings
 * of used baby gear, each member's private limits (in the mandate of its market seat, carried into
 * every match room that seat enters; ben's allowance counts both his rooms and his sealed bid) and each room's scripted
 * agents. Amounts are in minor units (TWD has 2 digits). The figures are chosen so that no public
 * price, offer or counter ever equals anyone's private limit: the checks can then say that none
 * reached any ledger or a `rules` agent.
 */
import type { ListingSide, PriceRange } from "../protocol/index.js";
import { currencyDigits } from "../text/terms.js";
import type { HaggleScript } from "./haggler.js";

/** The market's members; hana created it. */
export const MEMBERS = ["hana", "ana", "ben", "chen", "dara"] as const;
export type Member = (typeof MEMBERS)[number];

/** The market's categories. */
export const CATEGORIES = ["baby-gear", "books", "toys"] as const;

/** A private limit of one member: what it is, and the amount its mandate holds. */
export interface PrivateFigure {
  owner: Member;
  /** The least it sells for, the most it pays in one deal, or the most it spends across all its rooms. */
  what: "floor" | "cap" | "allowance";
  amount: number;
}

/** The figure as its owner would write it (3100 for 310000 minor units of TWD): the mandate's never_disclose entry, which the leak gate reads in any spelling. */
export function secretOf(figure: PrivateFigure): string {
  return String(figure.amount / 10 ** currencyDigits("TWD"));
}

/** A member's mandate for its market seat: the money window (one of its bounds private) and what its agent is told of it. */
export interface CastMandate {
  /** The least it sells for (a seller), or the most it pays (a buyer), in TWD minor units. */
  figure: PrivateFigure;
  /** What it may spend as the buyer across all the rooms of the market's matches (docs/MARKETS.md "An owner's allowance"). */
  allowance?: PrivateFigure;
  /** Under `rules` the agent is told that the guard holds the limits, never the amounts. */
  agentView?: "rules";
}

/** Each member's market seat mandate; ben buys in two rooms under one allowance, which also holds his sealed bid on dara's cot until the bids settle (decision 0499): 3,150.00 and 900.00 leave 1,150.00 of 5,200.00 for his second room. */
export const MANDATES: Record<Member, CastMandate> = {
  hana: { figure: { owner: "hana", what: "cap", amount: 125000 } },
  ana: { figure: { owner: "ana", what: "floor", amount: 310000 }, agentView: "rules" },
  ben: {
    figure: { owner: "ben", what: "cap", amount: 320000 },
    allowance: { owner: "ben", what: "allowance", amount: 520000 },
  },
  chen: { figure: { owner: "chen", what: "floor", amount: 200000 } },
  dara: { figure: { owner: "dara", what: "floor", amount: 65000 } },
};

/** The cap of a seller's mandate: above every price in the scenario, so only the floor binds. */
export const SELLER_CAP = 500000;

/** One listing: whose, which side, its words, category, quantity and public price range (none: ask). */
export interface CastListing {
  owner: Member;
  side: ListingSide;
  title: string;
  text?: string;
  category: (typeof CATEGORIES)[number];
  quantity?: number;
  price?: PriceRange;
  /** What its line in the transcript shows. */
  note?: string;
  /** A text the member's agent drafts first, naming its owner's private figure: the guard refuses it, and the listing is written without it. */
  draft?: string;
  /** For sealed bids (SEALED): `price` holds the reserve. */
  sealed?: true;
}

const twd = (min?: number, max?: number): PriceRange => ({
  currency: "TWD",
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
});

/** The sellers' offers, listed first, then the buyers' wants (each matched as it lands). */
export const OFFERS: readonly CastListing[] = [
  {
    owner: "ana",
    side: "offer",
    title: "Bugaboo stroller",
    text: "Folds flat, with the rain cover.",
    category: "baby-gear",
    price: twd(300000, 360000),
    note: "a public price range; ana's floor stays in her mandate",
  },
  {
    owner: "chen",
    side: "offer",
    title: "Baby car seat",
    text: "Isofix, rear-facing, washed covers.",
    category: "baby-gear",
    draft: "Isofix, rear-facing. I won't take less than 2,000 for it.",
    note: "no price at all: ask",
  },
  {
    owner: "dara",
    side: "offer",
    title: "Picture books, a box of 20",
    category: "books",
    quantity: 2,
    price: twd(60000),
    note: "two boxes: quantity 2",
  },
  { owner: "dara", side: "offer", title: "Wooden train set", category: "toys", price: twd(100000, 140000) },
  { owner: "dara", side: "offer", title: "High chair, wooden", category: "baby-gear", price: twd(80000, 120000) },
  {
    owner: "dara",
    side: "offer",
    title: "Wooden cot",
    text: "Solid beech, with its mattress.",
    category: "baby-gear",
    price: twd(70000),
    sealed: true,
    note: "sealed bids: they set the price, so no words match it",
  },
];

/** The sealed bids on dara's cot: the window they are committed in (from its listing), each bidder's bid, and the sale the second-price rule makes of them (hana wins, paying ben's bid). */
export const SEALED = {
  title: "Wooden cot",
  windowMs: 6000,
  bids: [
    { owner: "ben", amount: 90000 },
    { owner: "hana", amount: 110000 },
  ],
  winner: "hana",
  price: 90000,
} as const satisfies {
  title: string;
  windowMs: number;
  bids: readonly { owner: Member; amount: number }[];
  winner: Member;
  price: number;
};

/** The buyers' wants. */
export const WANTS: readonly CastListing[] = [
  { owner: "ben", side: "want", title: "Stroller, any brand", category: "baby-gear", price: twd(undefined, 340000) },
  {
    owner: "ben",
    side: "want",
    title: "Train set, wooden or plastic",
    category: "toys",
    price: twd(undefined, 130000),
  },
  {
    owner: "ben",
    side: "want",
    title: "High chair",
    category: "baby-gear",
    price: twd(undefined, 50000),
    note: "no match: words in common, but up to 500 never meets 800 or more",
  },
  {
    owner: "hana",
    side: "want",
    title: "Car seat for a toddler",
    category: "baby-gear",
    price: twd(undefined, 150000),
  },
  { owner: "hana", side: "want", title: "Picture books for a 3-year-old", category: "books" },
  {
    owner: "hana",
    side: "want",
    title: "Sling carrier",
    category: "baby-gear",
    note: "no offer has a word of it: no match",
  },
];

/** One match's room: the two listings it joins (by title; a sale's want is the winning bid), who opens it, each side's scripted agent, and how it ends. */
export interface CastRoom {
  offer: string;
  want: string;
  /** The side whose owner opens the room; the other joins it as the match's other side. */
  opener: "seller" | "buyer";
  seller: HaggleScript;
  buyer: HaggleScript;
  /** The deal's price, or null: no deal. */
  ends: number | null;
}

const sell = (open: number, step: number, pitch: string): HaggleScript => ({
  side: "sell",
  currency: "TWD",
  open,
  step,
  pitch,
});
const buy = (open: number, step: number): HaggleScript => ({ side: "buy", currency: "TWD", open, step });

/** The four rooms of the matches by words, in the order they are played. */
export const ROOMS: readonly CastRoom[] = [
  {
    offer: "Bugaboo stroller",
    want: "Stroller, any brand",
    opener: "buyer",
    seller: sell(360000, 30000, "Bugaboo stroller, folds flat, with the rain cover"),
    buyer: buy(280000, 20000),
    ends: 315000,
  },
  {
    offer: "Baby car seat",
    want: "Car seat for a toddler",
    opener: "seller",
    seller: sell(240000, 30000, "Baby car seat, Isofix"),
    buyer: buy(100000, 15000),
    ends: null,
  },
  {
    offer: "Picture books, a box of 20",
    want: "Picture books for a 3-year-old",
    opener: "buyer",
    seller: sell(100000, 10000, "A box of 20 picture books"),
    buyer: buy(75000, 10000),
    ends: 85000,
  },
  {
    offer: "Wooden train set",
    want: "Train set, wooden or plastic",
    opener: "seller",
    seller: sell(140000, 10000, "Wooden train set, 40 pieces"),
    buyer: buy(100000, 10000),
    ends: 115000,
  },
];

/** The room of the sale the sealed bids make: the winner opens it, and both agents can only name the settled price. */
export const SALE_ROOM: CastRoom = {
  offer: SEALED.title,
  want: `${SEALED.winner}'s sealed bid`,
  opener: "buyer",
  seller: sell(SEALED.price, 10000, "Wooden cot, solid beech"),
  buyer: buy(SEALED.price, 10000),
  ends: SEALED.price,
};
