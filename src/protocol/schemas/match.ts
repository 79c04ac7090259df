/**
 * A market's matches (docs/SPEC.md §5.15, decision 0460): the data of a `system/match` entry, and
 * the citation of one that a room opened from the match carries in its config. Apart from
 * market.ts so that a room's config (room.ts) can cite a match without importing the listings.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import {
  MillisSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";
import { AmountSchema, CurrencySchema } from "./money.js";

/** One side of a match: the listing's owner and the key the ledger records for it. */
export const MatchPartySchema = z.strictObject({ owner: OwnerNameSchema, key: PublicKeySchema });
export type MatchParty = z.infer<typeof MatchPartySchema>;

/** The price sealed bids settled a sale at (docs/SPEC.md §5.15 "Sealed bids on a listing"): what the room of its match may write. */
export const SaleSchema = z.strictObject({ price: AmountSchema, currency: CurrencySchema });
export type Sale = z.infer<typeof SaleSchema>;

/**
 * Data of `system/match`: an offer and a want the market matched, for `quantity`, with both owners
 * and the title words they share; or, with `sale`, a sealed listing (the offer) sold to the best
 * bid (`want`, `want_seq`: the winner's commit entry) at the settled price, with no words.
 */
export const MatchDataSchema = z
  .strictObject({
    offer: Sha256Schema,
    want: Sha256Schema,
    offer_seq: SeqSchema,
    want_seq: SeqSchema,
    quantity: z.int().min(1).max(LIMITS.listing_quantity),
    words: z.array(z.string().min(1).max(64)).max(8),
    offered_by: MatchPartySchema,
    wanted_by: MatchPartySchema,
    sale: SaleSchema.optional(),
  })
  .refine((m) => (m.sale === undefined) === m.words.length > 0, {
    message: "a match by words shares at least one; a sale by sealed bids none",
    path: ["words"],
  });
export type MatchData = z.infer<typeof MatchDataSchema>;

/**
 * What a room opened from a match carries in its config (`room.match`): the market, the match
 * entry's seq, time and data, the link before it, and the relay's head signature at that seq. From
 * them anyone rebuilds the match entry, its leaf and link, and checks the head (policy/market/citation.ts).
 */
export const MatchCitationSchema = z.strictObject({
  market: TableIdSchema,
  seq: SeqSchema,
  ts: MillisSchema,
  data: MatchDataSchema,
  prev_link: Sha256Schema,
  sig: SignatureSchema,
});
export type MatchCitation = z.infer<typeof MatchCitationSchema>;
