/**
 * A table's end of life on a relay (docs/SPEC.md §6.6): the owner-signed delete (purpose `owner`,
 * scope `table_delete`), the relay's answer, and the tombstone a deleted table leaves, which every
 * later request for its id reads as E_TABLE_DELETED. Deleting frees the relay's copy; it is not an
 * entry (nothing is left to append it to) and it never touches anyone's export.
 */
import * as z from "zod";
import { MillisSchema, OwnerNameSchema, SignatureSchema, TableIdSchema } from "./primitives.js";

/** What the creating owner signs (purpose `owner`) to delete a table; `ts` must be within the auth window of the relay's clock. */
export const DeleteStatementSchema = z.strictObject({
  scope: z.literal("table_delete"),
  table: TableIdSchema,
  owner: OwnerNameSchema,
  ts: MillisSchema,
});
export type DeleteStatement = z.infer<typeof DeleteStatementSchema>;

/** POST /tables/:id/delete body. */
export const DeleteRequestSchema = z.strictObject({
  delete: DeleteStatementSchema,
  sig: SignatureSchema,
});
export type DeleteRequest = z.infer<typeof DeleteRequestSchema>;

/** Why a table was deleted: its creator's signed delete, or the relay's published lifetime (`table_ttl_ms`, `closed_table_ttl_ms`). */
export const DeleteReasonSchema = z.enum(["owner", "expired"]);
export type DeleteReason = z.infer<typeof DeleteReasonSchema>;

/** What a deleted table leaves behind: when, why, and for a signed delete, by which owner. The `details` of E_TABLE_DELETED. */
export const TombstoneSchema = z.strictObject({
  table: TableIdSchema,
  deleted_at: MillisSchema,
  reason: DeleteReasonSchema,
  owner: OwnerNameSchema.optional(),
});
export type Tombstone = z.infer<typeof TombstoneSchema>;

/** POST /tables/:id/delete answer (the same for a repeat of the same signed delete). */
export const DeleteResponseSchema = TombstoneSchema;
export type DeleteResponse = z.infer<typeof DeleteResponseSchema>;
