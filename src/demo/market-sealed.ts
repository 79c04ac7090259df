/**
 * The sealed bids of the market scenario (docs/MARKETS.md "Sealed bids on a listing"): dara lists
 * her cot for sealed bids until a few seconds after its listing; ben's and hana's agents commit
 * their bids at once, each chosen and kept (with its salt) on its owner's machine and judged by its
 * mandate (and held in its owner's allowance, when the mandate has one), only its hash reaching the ledger; once bidding has closed (the demo waits for what is
 * left of the window, after the rooms) each reveals from its journal, and the last reveal settles
 * the sale by the second price and makes the match whose room the winner then opens.
 */
import { marketBidMessage, marketRevealMessage, readTranscript, type GuardedSeat } from "../owner/index.js";
import { isEntry } from "../protocol/index.js";
import { majorUnits } from "../text/terms.js";
import { DemoError } from "./errors.js";
import { MANDATES, SEALED, type Member } from "./market-cast.js";
import type { ShownLedger } from "./shown-ledger.js";
import type { Transcript } from "./transcript.js";

/** How the sealed listing settled, as the market's verified ledger holds it. */
export interface SealedSale {
  /** The settlement's outcome, winner and price (null: unsold). */
  outcome: string;
  winner: string | null;
  price: number | null;
  /** The sale's match entry, or null. */
  match: number | null;
}

/** A reveal written exactly at the end of bidding could carry a relay time a hair before it: this much later is safely after. */
const CLOCK_MARGIN_MS = 250;

/** Each bidder's agent commits its sealed bid on `listing` through its guarded market seat; the ledger shows only the hash. */
export async function commitBids(
  t: Transcript,
  seats: Record<Member, GuardedSeat>,
  ledger: ShownLedger,
  listing: string,
): Promise<void> {
  for (const { owner, amount } of SEALED.bids) {
    const seat = seats[owner];
    const held = MANDATES[owner].allowance ? `; it holds as much of ${owner}'s allowance until the bids settle` : "";
    t.say(
      `${seat.seat}'s agent bids ${majorUnits(amount, "TWD")} TWD, sealed: the bid and its salt stay in ${owner}'s journal${held}`,
    );
    await seat.send(await marketBidMessage(seat, listing, amount));
    await ledger.show(t, () => "only the bid's hash reaches the ledger");
  }
}

/** Waits for bidding on `listing` to close at `until` (only what is left of it), reveals every bid from its bidder's journal, and reads the settlement and the sale's match back. */
export async function revealBids(
  t: Transcript,
  seats: Record<Member, GuardedSeat>,
  ledger: ShownLedger,
  listing: string,
  until: number,
): Promise<SealedSale> {
  const left = until + CLOCK_MARGIN_MS - Date.now();
  if (left > 0) {
    t.say(`bidding closes in ${(left / 1000).toFixed(1)} s; bids may be revealed only after it`);
    await new Promise((resolve) => setTimeout(resolve, left));
  }
  for (const { owner } of SEALED.bids) {
    const seat = seats[owner];
    await seat.send(await marketRevealMessage(seat, listing, Date.now()));
    await ledger.show(t, (e) =>
      e.kind === "bid"
        ? "the bid and its salt, read back from the journal: the hash must match"
        : e.kind === "system" && e.subkind === "listing_settled"
          ? "the highest bid wins, at the next one: every verifier recomputes it"
          : "the sale's match: its room may name only that price",
    );
  }
  const { entries } = await readTranscript(ledger.client, ledger.reader);
  const settled = entries
    .filter(isEntry)
    .find((e) => e.kind === "system" && e.subkind === "listing_settled" && e.data.listing === listing);
  if (!settled || settled.kind !== "system" || settled.subkind !== "listing_settled")
    throw new DemoError(`the sealed listing ${listing.slice(0, 12)}… was not settled after every bid was revealed`);
  const sale = entries.find(
    (e) => e.kind === "system" && e.subkind === "match" && e.data.offer === listing && e.data.sale !== undefined,
  );
  const sold = settled.data.outcome === "sold" ? settled.data : null;
  return {
    outcome: settled.data.outcome,
    winner: sold?.winner.owner ?? null,
    price: sold?.price ?? null,
    match: sale?.seq ?? null,
  };
}
