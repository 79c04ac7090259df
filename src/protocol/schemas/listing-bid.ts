/**
 * Sealed bids on a market's listing (docs/SPEC.md §5.15 "Sealed bids on a listing", decision
 * 0469): the `sealed` terms an offer may carry, the `bid` entries members' seats sign (`commit`,
 * `reveal`, told apart by `op`) and the `listing_settled` entry the relay computes. Every number
 * is a safe integer: amounts in the listing's currency's minor unit, times in milliseconds.
 */
import * as z from "zod";
import { AuthoredFields, BodySchema, MillisSchema, SeqSchema, Sha256Schema } from "./primitives.js";
import { AmountSchema, CurrencySchema } from "./money.js";
import { EntryHashSchema } from "./room.js";
import { BidSaltSchema } from "./mechanism.js";
import { MatchPartySchema } from "./match.js";

/** `sealed` on an offer: members commit sealed bids until `until` and reveal them until `reveal_until`, which comes after it. */
export const SealedBidsSchema = z
  .strictObject({ until: MillisSchema, reveal_until: MillisSchema })
  .refine((s) => s.reveal_until > s.until, { message: "reveal_until comes after until", path: ["reveal_until"] });
export type SealedBids = z.infer<typeof SealedBidsSchema>;

const Bid = { ...AuthoredFields, kind: z.literal("bid"), body: BodySchema.default(""), listing: EntryHashSchema };

/** `commit`: a sealed bid on the listing, as the hash of the bid with its salt, bound to the market, the listing and the bidding owner (listingBidCommitment). */
export const BidCommitSchema = z.strictObject({ ...Bid, op: z.literal("commit"), commitment: Sha256Schema });

/** `reveal`: the bid (for the listing's whole quantity, in its currency) and salt the owner committed to; the relay checks they hash to its commitment. */
export const BidRevealSchema = z.strictObject({
  ...Bid,
  op: z.literal("reveal"),
  bid: AmountSchema,
  salt: BidSaltSchema,
});

/** A `bid` submission, told apart by `op`. */
export const BidSubmissionSchema = z.discriminatedUnion("op", [BidCommitSchema, BidRevealSchema]);
export type BidSubmission = z.infer<typeof BidSubmissionSchema>;

/** Why a sealed listing settled unsold: nobody committed, nobody who committed revealed, or the best revealed bid is below the reserve. */
export const UnsoldReasonSchema = z.enum(["no_bids", "no_reveals", "below_reserve"]);
export type UnsoldReason = z.infer<typeof UnsoldReasonSchema>;

/**
 * Data of `system/listing_settled`: sold to `winner` (whose commit is entry `bid`) at `price` in
 * `currency` (the second price: the larger of the second-best revealed bid and the reserve), or
 * unsold and why. A sale is followed by the match between the seller and the winner.
 */
export const ListingSettledDataSchema = z.discriminatedUnion("outcome", [
  z.strictObject({
    listing: EntryHashSchema,
    outcome: z.literal("sold"),
    winner: MatchPartySchema,
    bid: SeqSchema,
    price: AmountSchema,
    currency: CurrencySchema,
  }),
  z.strictObject({ listing: EntryHashSchema, outcome: z.literal("unsold"), reason: UnsoldReasonSchema }),
]);
export type ListingSettledData = z.infer<typeof ListingSettledDataSchema>;
