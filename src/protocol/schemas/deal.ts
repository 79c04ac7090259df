/**
 * Deals both owners sign (docs/SPEC.md §5.10, docs/ROOMS.md "Deals"): the final terms of an
 * accepted offer as each party's owner signs them, the statement the owner key signs (purpose
 * `deal`) over their hash, and the deal certificate `trestle deal show --json` writes, which
 * `trestle deal verify` checks offline with nothing but the relay key.
 */
import * as z from "zod";
import {
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";
import { TermsSchema } from "./room.js";

/** One side of a deal: the owner, its key as the ledger records it, and the seat that offered or accepted. */
export const DealPartySchema = z.strictObject({ owner: OwnerNameSchema, key: PublicKeySchema, seat: SeatNameSchema });
export type DealParty = z.infer<typeof DealPartySchema>;

/**
 * The final terms of a deal: the room, the accepted offer (its entry hash and seq), the accept's
 * seq, both parties and the offer's terms. A deal an auction settled (`via: "auction"`) names the
 * auction's open entry as `offer`, its settlement as `accept_seq`, the seller as `offered_by`, the
 * buyer as `accepted_by`, and the clearing price as its terms.
 */
export const DealTermsSchema = z.strictObject({
  scope: z.literal("deal"),
  table: TableIdSchema,
  offer: Sha256Schema,
  offer_seq: SeqSchema,
  accept_seq: SeqSchema,
  offered_by: DealPartySchema,
  accepted_by: DealPartySchema,
  terms: TermsSchema,
  /** Absent: an accepted offer. `auction`: a sealed-bid auction's settlement (§5.11). */
  via: z.literal("auction").optional(),
});
export type DealTerms = z.infer<typeof DealTermsSchema>;

/** What an owner key signs (purpose `deal`): the room and the SHA-256 of the canonical deal terms. */
export const DealStatementSchema = z.strictObject({
  scope: z.literal("deal"),
  table: TableIdSchema,
  deal: Sha256Schema,
});
export type DealStatement = z.infer<typeof DealStatementSchema>;

/**
 * What an owner key signs (purpose `price`) to let a market show the terms of a match's deal: the
 * market, the match (its entry's seq) and the deal's terms hash. The market records the terms only
 * with both owners' such signatures (decision 0529).
 */
export const PriceStatementSchema = z.strictObject({
  scope: z.literal("show_price"),
  market: TableIdSchema,
  match: SeqSchema,
  deal: Sha256Schema,
});
export type PriceStatement = z.infer<typeof PriceStatementSchema>;

/** Whether a deal is final (`done`: both owners signed the same terms hash) or still missing a signature (`pending`). */
export const DealStatusSchema = z.enum(["pending", "done"]);
export type DealStatus = z.infer<typeof DealStatusSchema>;

/** One owner's signature of a deal as the ledger records it: in the deal_sign entry at `seq`, by `seat`. */
export const DealSignatureSchema = z.strictObject({
  owner: OwnerNameSchema,
  key: PublicKeySchema,
  sig: SignatureSchema,
  seat: SeatNameSchema,
  seq: SeqSchema,
});
export type DealSignature = z.infer<typeof DealSignatureSchema>;

/**
 * A deal certificate: the terms, their hash, the status and signatures as the certificate claims
 * them, and the room's whole export, which a verifier checks against the relay key and folds: every
 * claim must be what the verified ledger says.
 */
export const DealCertificateSchema = z.strictObject({
  type: z.literal("trestle-deal"),
  version: z.literal(1),
  relay: PublicKeySchema,
  terms: DealTermsSchema,
  deal: Sha256Schema,
  status: DealStatusSchema,
  signatures: z.array(DealSignatureSchema).max(2),
  head: z.strictObject({ seq: SeqSchema, link: Sha256Schema, sig: SignatureSchema }),
  export: z.string().min(1),
});
export type DealCertificate = z.infer<typeof DealCertificateSchema>;
