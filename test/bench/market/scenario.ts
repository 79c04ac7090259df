/**
 * The market bench's world, drawn from a fixed seed (docs/BENCHMARKS.md "A market"): owners, each
 * with a negotiating style; items, each with a seller and a buyer and their private valuations (in
 * USD cents, never a whole dollar, so no whole-dollar offer ever equals one); the items sold by
 * sealed bids with their bidders; and each owner's secrets and allowance. Pure: the same seed and
 * sizes always give the same world.
 */

/** How an agent concedes: `slow` holds out (Boulware), `fast` gives ground early (Conceder). */
export type Style = "slow" | "fast";

/** The sizes of a run. */
export interface Sizes {
  owners: number;
  items: number;
  /** Items sold by sealed bids (the rest are haggled in the rooms of their matches). */
  sealed: number;
  /** Bidders on each sealed listing. */
  bidders: number;
}

/** A member of the market. */
export interface Owner {
  name: string;
  style: Style;
}

/** An item haggled over: its seller's and buyer's private values (cents) and the listings' public text. */
export interface Item {
  index: number;
  seller: string;
  buyer: string;
  category: string;
  /** The offer's title and the want's: they share the item's model word alone. */
  offerTitle: string;
  wantTitle: string;
  /** What the seller takes at least and the buyer pays at most, in cents (never a whole dollar). */
  sellerValue: number;
  buyerValue: number;
  /** Which side opens the match's room (the other joins). */
  opener: "seller" | "buyer";
}

/** An item sold by sealed bids: its seller's value (the reserve is it rounded up to a dollar) and each bidder's private value. */
export interface SealedItem {
  index: number;
  seller: string;
  category: string;
  title: string;
  sellerValue: number;
  bidders: { owner: string; value: number }[];
}

/** The whole world of one run. */
export interface World {
  seed: number;
  owners: Owner[];
  items: Item[];
  sealed: SealedItem[];
}

export const CATEGORIES = ["baby-gear", "books", "toys", "clothes", "furniture", "bikes", "kitchen", "garden"] as const;
const NOUNS: Record<(typeof CATEGORIES)[number], string[]> = {
  "baby-gear": ["stroller", "crib", "carrier", "highchair"],
  books: ["atlas", "novel", "cookbook", "encyclopedia"],
  toys: ["puzzle", "train", "dollhouse", "blocks"],
  clothes: ["jacket", "boots", "raincoat", "sweater"],
  furniture: ["dresser", "bookshelf", "desk", "wardrobe"],
  bikes: ["bicycle", "scooter", "helmet", "trailer"],
  kitchen: ["blender", "kettle", "mixer", "toaster"],
  garden: ["wheelbarrow", "hose", "planter", "mower"],
};

/** A small, fast, seeded generator (mulberry32): the bench's only source of chance. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value in cents drawn from [low, high) dollars, never a whole dollar. */
function cents(random: () => number, low: number, high: number): number {
  const value = Math.floor((low + random() * (high - low)) * 100);
  return value % 100 === 0 ? value + 1 + Math.floor(random() * 98) : value;
}

/** Distinct made-up model words (letters only, 6-9 characters): each item's own, so a want matches only its item's offer. */
function modelWords(random: () => number, count: number): string[] {
  const consonants = "bdfgklmnprstvz";
  const vowels = "aeiou";
  const out = new Set<string>();
  while (out.size < count) {
    let word = "";
    for (let i = 0; i < 3; i += 1)
      word += consonants[Math.floor(random() * consonants.length)]! + vowels[Math.floor(random() * vowels.length)]!;
    if (random() < 0.5) word += consonants[Math.floor(random() * consonants.length)]!;
    out.add(word);
  }
  return [...out];
}

/** The world for `seed` and `sizes`: owners alternate styles by draw, each item's seller and buyer differ, and each sealed listing has `bidders` distinct bidders who are not its seller. */
export function makeWorld(seed: number, sizes: Sizes): World {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const owners: Owner[] = Array.from({ length: sizes.owners }, (_, i) => ({
    name: `m${String(i + 1).padStart(2, "0")}`,
    style: random() < 0.5 ? "slow" : "fast",
  }));
  const words = modelWords(random, sizes.items);
  const other = (not: string) => {
    for (;;) {
      const o = pick(owners).name;
      if (o !== not) return o;
    }
  };
  const items: Item[] = [];
  const sealed: SealedItem[] = [];
  for (let index = 0; index < sizes.items; index += 1) {
    const category = pick(CATEGORIES);
    const noun = pick(NOUNS[category]);
    const seller = pick(owners).name;
    const sellerValue = cents(random, 20, 200);
    const title = `${capital(words[index]!)} ${noun}`;
    if (index < sizes.sealed) {
      const bidders = new Set<string>();
      while (bidders.size < Math.min(sizes.bidders, sizes.owners - 1)) bidders.add(other(seller));
      sealed.push({
        index,
        seller,
        category,
        title,
        sellerValue,
        bidders: [...bidders].map((owner) => ({
          owner,
          value: cents(random, (sellerValue / 100) * 0.8, (sellerValue / 100) * 1.8),
        })),
      });
      continue;
    }
    const buyer = other(seller);
    const buyerValue = cents(random, (sellerValue / 100) * 0.85, (sellerValue / 100) * 1.6);
    items.push({
      index,
      seller,
      buyer,
      category,
      offerTitle: title,
      wantTitle: `${capital(words[index]!)} sought`,
      sellerValue,
      buyerValue,
      opener: random() < 0.5 ? "seller" : "buyer",
    });
  }
  return { seed, owners, items, sealed };
}

function capital(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

/** `cents` as the owner would write it down: dollars and cents ("123.45"). */
export function dollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** An owner's never_disclose strings: every private value of theirs, as "123.45". */
export function secretsOf(world: World, owner: string): string[] {
  const values = [
    ...world.items.flatMap((i) => (i.seller === owner ? [i.sellerValue] : i.buyer === owner ? [i.buyerValue] : [])),
    ...world.sealed.flatMap((s) =>
      s.seller === owner ? [s.sellerValue] : s.bidders.filter((b) => b.owner === owner).map((b) => b.value),
    ),
  ];
  return [...new Set(values.map(dollars))];
}

/** The most an owner may spend across the market's rooms, in cents: `share` of the sum of what they would pay at most for everything they want or bid on (so it binds for some). */
export function allowanceOf(world: World, owner: string, share: number): number {
  const wanted = world.items.filter((i) => i.buyer === owner).reduce((sum, i) => sum + i.buyerValue, 0);
  const bid = world.sealed.reduce(
    (sum, s) => sum + s.bidders.filter((b) => b.owner === owner).reduce((x, b) => x + b.value, 0),
    0,
  );
  return Math.max(100, Math.round((wanted + bid) * share));
}

/** The highest amount an owner's agent may ever commit to in the market, in cents (its market seat's cap): twice its highest value, rounded up to a dollar (so no room's cap for one of its items, twice that item's value rounded up, is looser). */
export function capOf(world: World, owner: string): number {
  const values = [
    ...world.items.flatMap((i) => (i.seller === owner ? [i.sellerValue] : i.buyer === owner ? [i.buyerValue] : [])),
    ...world.sealed.flatMap((s) =>
      s.seller === owner ? [s.sellerValue] : s.bidders.filter((b) => b.owner === owner).map((b) => b.value),
    ),
  ];
  return Math.ceil((2 * Math.max(100, ...values)) / 100) * 100;
}
