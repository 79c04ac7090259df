/**
 * A match room's deal as its market records it (docs/SPEC.md §5.15): what the room's object tells
 * the market's object when asked. Apart from market.ts so that the objects' RPC shapes stay with
 * the wire schemas without importing the listings.
 */
import * as z from "zod";
import { SeqSchema, Sha256Schema, TableIdSchema } from "./primitives.js";
import { RecordedDealSignatureSchema } from "./market.js";

/** A match room's done deal: its market and match, the deal's terms hash, and each owner's signature of it. */
export const RoomDealSchema = z.strictObject({
  market: TableIdSchema,
  match: SeqSchema,
  room: TableIdSchema,
  deal: Sha256Schema,
  signatures: z.array(RecordedDealSignatureSchema).length(2),
});
export type RoomDeal = z.infer<typeof RoomDealSchema>;
