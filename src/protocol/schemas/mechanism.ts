/**
 * The sealed-bid k-double auction (docs/SPEC.md §5.11, decision 0280): the `mechanism` entries a
 * seat signs (`open`, `commit`, `reveal`, told apart by `op`) and the `auction_settled` entry the
 * relay computes. Every number is a safe integer: k is the exact fraction num/den, bids are
 * amounts in the currency's minor unit, times are milliseconds.
 */
import * as z from "zod";
import { AuthoredFields, BodySchema, MillisSchema, SeatNameSchema, Sha256Schema } from "./primitives.js";
import { AmountSchema, CurrencySchema, EntryHashSchema } from "./room.js";

/** The two sides of a k-double auction. */
export const AuctionSideSchema = z.enum(["buyer", "seller"]);
export type AuctionSide = z.infer<typeof AuctionSideSchema>;

/** The seat that bids on each side; two seats of two owners with two keys. */
export const AuctionSidesSchema = z.strictObject({ buyer: SeatNameSchema, seller: SeatNameSchema });
export type AuctionSides = z.infer<typeof AuctionSidesSchema>;

/** Largest denominator of k: basis points (10000) and percentages fit, and num * (b - s) stays exact in BigInt anyway. */
export const K_DEN_MAX = 1_000_000;

/** k in [0, 1] as the exact fraction num/den (0.5 is { num: 1, den: 2 }); canonical JSON has no fractions. */
export const AuctionKSchema = z
  .strictObject({ num: z.int().min(0).max(K_DEN_MAX), den: z.int().min(1).max(K_DEN_MAX) })
  .refine((k) => k.num <= k.den, { message: "k is at most 1 (num <= den)", path: ["num"] });
export type AuctionK = z.infer<typeof AuctionKSchema>;

/** A bid's salt: 22-64 base64url chars (at least 128 bits), chosen at random by the bidder and kept secret until the reveal. */
export const BidSaltSchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, "salt: 22-64 base64url chars");

const Mechanism = { ...AuthoredFields, kind: z.literal("mechanism"), body: BodySchema.default("") };

/** `open`: starts an auction between two seats; commits until `deadline`, reveals until `reveal_deadline`. */
export const MechanismOpenSchema = z.strictObject({
  ...Mechanism,
  op: z.literal("open"),
  sides: AuctionSidesSchema,
  k: AuctionKSchema,
  currency: CurrencySchema,
  deadline: MillisSchema,
  reveal_deadline: MillisSchema,
});

/** `commit`: the side's sealed bid, as the hash of the bid with its salt, bound to the room, the auction and the side (auction.ts). */
export const MechanismCommitSchema = z.strictObject({
  ...Mechanism,
  op: z.literal("commit"),
  auction: EntryHashSchema,
  side: AuctionSideSchema,
  commitment: Sha256Schema,
});

/** `reveal`: the bid and salt the side committed to; the relay checks they hash to its commitment. */
export const MechanismRevealSchema = z.strictObject({
  ...Mechanism,
  op: z.literal("reveal"),
  auction: EntryHashSchema,
  bid: AmountSchema,
  salt: BidSaltSchema,
});

/** A `mechanism` submission, told apart by `op`. */
export const MechanismSubmissionSchema = z.discriminatedUnion("op", [
  MechanismOpenSchema,
  MechanismCommitSchema,
  MechanismRevealSchema,
]);
export type MechanismSubmission = z.infer<typeof MechanismSubmissionSchema>;
export type MechanismOp = MechanismSubmission["op"];

/** Why an auction settled without a deal. */
export const NoDealReasonSchema = z.enum(["bids_do_not_cross", "missing_commit", "missing_reveal"]);
export type NoDealReason = z.infer<typeof NoDealReasonSchema>;

/** Data of `system/auction_settled`: a deal at `price` (minor units of `currency`), or no deal and why. */
export const AuctionSettledDataSchema = z.discriminatedUnion("outcome", [
  z.strictObject({
    auction: EntryHashSchema,
    outcome: z.literal("deal"),
    price: AmountSchema,
    currency: CurrencySchema,
  }),
  z.strictObject({ auction: EntryHashSchema, outcome: z.literal("no_deal"), reason: NoDealReasonSchema }),
]);
export type AuctionSettledData = z.infer<typeof AuctionSettledDataSchema>;
