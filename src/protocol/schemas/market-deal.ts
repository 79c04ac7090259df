/**
 * A match room's deal as its market records it (docs/SPEC.md §5.15): what the room's object tells
 * the market's object when asked. Apart from market.ts so that the objects' RPC shapes stay with
 * the wire schemas without importing the listings.
 */
import * as z from "zod";
import { SeqSchema, Sha256Schema, SignatureSchema, TableIdSchema } from "./primitives.js";
import { DealTermsSchema } from "./deal.js";
import { RecordedDealSignatureSchema } from "./market.js";

/** One owner's deal signature as the room answers it: with that owner's consent to show the price (its `show_price` signature) when the deal_sign carried one. */
export const RoomDealSignatureSchema = z.strictObject({
  ...RecordedDealSignatureSchema.shape,
  show_price: SignatureSchema.optional(),
});

/** A match room's done deal: its market and match, the deal's terms hash and terms, and each owner's signature of it. */
export const RoomDealSchema = z.strictObject({
  market: TableIdSchema,
  match: SeqSchema,
  room: TableIdSchema,
  deal: Sha256Schema,
  terms: DealTermsSchema,
  signatures: z.array(RoomDealSignatureSchema).length(2),
});
export type RoomDeal = z.infer<typeof RoomDealSchema>;
