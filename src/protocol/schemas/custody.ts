/**
 * Custody (docs/SPEC.md §8.4): the statement a table's owners and the relay taking it over sign
 * when a table moves to another relay (an import, or a mirror promoted), and the data of the
 * custody entry that records it. Replica pages and status are in replica.ts.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { SignedHeadSchema } from "./head.js";
import {
  OwnerNameSchema,
  PublicKeySchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

/**
 * What each authorising owner and the relay taking custody sign (purpose `custody`): custody of
 * `table` passes from relay key `from` to relay key `to` after entry `seq`, whose link is `link`,
 * so the authorisation holds for exactly that chain and no other.
 */
export const CustodyStatementSchema = z.strictObject({
  scope: z.literal("custody"),
  table: TableIdSchema,
  from: PublicKeySchema,
  to: PublicKeySchema,
  seq: SeqSchema,
  link: Sha256Schema,
});
export type CustodyStatement = z.infer<typeof CustodyStatementSchema>;

/** One owner's signature over the custody statement, with the key the table lists for that owner. */
export const CustodyOwnerSchema = z.strictObject({
  owner: OwnerNameSchema,
  key: PublicKeySchema,
  sig: SignatureSchema,
});
export type CustodyOwner = z.infer<typeof CustodyOwnerSchema>;

/**
 * The custody entry's data: the relays, the past relay's signed head over the last entry it
 * ordered (`head.seq` and `head.link` are the statement's), and the owners who authorised it.
 */
export const CustodyDataSchema = z.strictObject({
  from: PublicKeySchema,
  to: PublicKeySchema,
  head: SignedHeadSchema,
  owners: z.array(CustodyOwnerSchema).min(1).max(LIMITS.owners),
});
export type CustodyData = z.infer<typeof CustodyDataSchema>;

/** POST /tables/:id/custody: the statement and the owners' signatures over it (the relay adds their keys and its own signature). */
export const CustodyRequestSchema = z.strictObject({
  statement: CustodyStatementSchema,
  owners: z
    .array(z.strictObject({ owner: OwnerNameSchema, sig: SignatureSchema }))
    .min(1)
    .max(LIMITS.owners),
});
export type CustodyRequest = z.infer<typeof CustodyRequestSchema>;

/** One owner's signature as `trestle custody sign` writes it to a file, for another owner's import or promotion. */
export const CustodySignatureSchema = z.strictObject({
  statement: CustodyStatementSchema,
  owner: OwnerNameSchema,
  sig: SignatureSchema,
});
export type CustodySignature = z.infer<typeof CustodySignatureSchema>;

/** POST /tables/:id/custody answer: the custody entry's seq and the first head the new relay signs. */
export const CustodyResponseSchema = z.strictObject({ seq: SeqSchema, head: SignedHeadSchema });
export type CustodyResponse = z.infer<typeof CustodyResponseSchema>;
