/**
 * Relay-signed transcript heads (docs/SPEC.md §4.4): {relay, table, seq, link}. Ed25519 is
 * deterministic, so a head is recomputed on demand rather than stored. Two valid heads with one
 * seq and different links prove a fork.
 */
import * as z from "zod";
import { PublicKeySchema, SeqSchema, Sha256Schema, SignatureSchema, TableIdSchema } from "./primitives.js";

/** What the relay signs (purpose `head`). */
export const HeadStatementSchema = z.strictObject({
  relay: PublicKeySchema,
  table: TableIdSchema,
  seq: SeqSchema,
  link: Sha256Schema,
});
export type HeadStatement = z.infer<typeof HeadStatementSchema>;

/** A head with the relay's signature. */
export const SignedHeadSchema = HeadStatementSchema.extend({ sig: SignatureSchema });
export type SignedHead = z.infer<typeof SignedHeadSchema>;
