/**
 * Deals recorded back in a market (docs/SPEC.md §5.15): a match's room closed a deal both owners
 * signed, and the market records its terms hash with both signatures (checked by the relay and by
 * every verifier, signing/market.ts) and closes the quantity it settles on both listings; with both
 * owners' consents, also its terms, which must hash to that deal (decision 0529). One deal
 * per match; the quantity is recomputed here, so a relay cannot close more than the match and the
 * listings leave.
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import type { SystemDraftOf, SystemEntryOf } from "../../schemas/entry.js";
import type { MatchParty } from "../../schemas/match.js";
import type { RecordedDealSignature, ShownPrice } from "../../schemas/market.js";
import { dealHash } from "../deals.js";
import type { TableState } from "../state.js";
import { endListing, listingOf, quantityLeft, requireMarket } from "./listing-live.js";
import type { MarketState, MatchState } from "./market-state.js";

/** The match at `seq`; E_UNKNOWN_MATCH when the market has none. */
export function matchAt(market: MarketState, seq: number): MatchState {
  const match = own(market.matches, String(seq));
  if (!match) throw new TrestleError("E_UNKNOWN_MATCH", `no match at entry ${seq} in this market`, { match: seq });
  return match;
}

/** The seat that wrote the side of the match at `seq` whose owner key is `key`: its listing's author, or for a sale's winner the seat that committed the bid; undefined when `key` is neither side or a chat group posted that side's listing (no seat wrote it). */
export function matchSeatOf(market: MarketState, seq: number, key: string): string | undefined {
  const match = matchAt(market, seq);
  if (key === match.offered_by.key) return listingOf(market, match.offer).seat ?? undefined;
  if (key !== match.wanted_by.key) return undefined;
  if (!match.sale) return listingOf(market, match.want).seat ?? undefined;
  return own(listingOf(market, match.offer).sealed?.commits ?? {}, match.wanted_by.owner)?.seat;
}

/** The listings a deal on `match` closes: the offer and the want, or a sale's listing alone (its `want` is the winning bid). */
function dealtListings(match: MatchState): string[] {
  return match.sale ? [match.offer] : [match.offer, match.want];
}

/** The quantity a deal on `match` closes: the match's, at most what each of its listings has left. */
export function dealQuantity(market: MarketState, match: MatchState): number {
  return Math.min(match.quantity, ...dealtListings(match).map((leaf) => quantityLeft(listingOf(market, leaf))));
}

function checkSigner(signature: RecordedDealSignature, party: MatchParty, side: string): void {
  if (signature.owner !== party.owner || signature.key !== party.key) {
    throw new TrestleError("E_NOT_OWNER", `the ${side} signature is not by ${party.owner}'s key as the match names it`);
  }
}

/** Throws the refusal for a deal record the relay submits: a known match without a deal yet, its own room, both sides' keys, the quantity it closes. */
export function checkDealRecorded(state: TableState, draft: SystemDraftOf<"deal_recorded">): void {
  const market = requireMarket(state, "recording a deal");
  const { data } = draft;
  const match = matchAt(market, data.match);
  if (match.deal !== null)
    throw new TrestleError("E_NOT_ALLOWED", `the deal of match ${data.match} was recorded at entry ${match.deal}`, {
      reason: "already_recorded",
    });
  if (data.room !== match.room)
    throw new TrestleError("E_WRONG_TABLE", `the room of match ${data.match} is ${match.room}, not ${data.room}`);
  checkSigner(data.signatures[0], match.offered_by, "first (offering)");
  checkSigner(data.signatures[1], match.wanted_by, "second (wanting)");
  const quantity = dealQuantity(market, match);
  if (data.quantity !== quantity)
    throw new TrestleError("E_NOT_ALLOWED", `the deal closes ${quantity} units, not ${data.quantity}`, {
      reason: "quantity",
      quantity,
    });
  if (data.price) checkShownPrice(data.room, data.deal, data.price);
}

/** The shown terms are the deal's own: they hash to the recorded deal hash and name its room (both consents are checked as the entry's statements, signing/market.ts). */
function checkShownPrice(room: string, deal: string, price: ShownPrice): void {
  if (price.terms.table !== room)
    throw new TrestleError("E_WRONG_TABLE", `the shown terms are of room ${price.terms.table}, not ${room}`);
  if (dealHash(price.terms) !== deal)
    throw new TrestleError("E_TERMS_MISMATCH", "the shown terms do not hash to the recorded deal", { deal });
}

/** Folds a recorded deal: the match has its deal, each listing's closed quantity grows, and a listing with none left is filled. */
export function applyDealRecorded(
  market: MarketState,
  entry: Pick<SystemEntryOf<"deal_recorded">, "seq" | "data">,
): void {
  const match = matchAt(market, entry.data.match);
  match.deal = entry.seq;
  if (entry.data.price) match.price = entry.data.price.terms.terms;
  market.deals += 1;
  for (const leaf of dealtListings(match)) {
    const listing = listingOf(market, leaf);
    listing.closed += entry.data.quantity;
    if (listing.status === "open" && quantityLeft(listing) === 0)
      endListing(market, leaf, listing, "filled", entry.seq);
  }
}
