/**
 * Creating a table (docs/SPEC.md §6.1): one of the config's owners signs {table, config_sha256,
 * owner}, so nobody can open a table in another owner's name, and the relay cannot alter the
 * config without breaking that signature (it is kept in the first entry).
 */
import * as z from "zod";
import { OwnerNameSchema, Sha256Schema, SignatureSchema, TableIdSchema } from "./primitives.js";

/** What the creating owner signs (purpose `create`). */
export const CreateStatementSchema = z.strictObject({
  table: TableIdSchema,
  config_sha256: Sha256Schema,
  owner: OwnerNameSchema,
});
export type CreateStatement = z.infer<typeof CreateStatementSchema>;

/** POST /tables body; `config` is checked by the config validator (E_NO_TERMINATION, E_SCHEMA). */
export const CreateRequestSchema = z.strictObject({
  config: z.record(z.string(), z.unknown()),
  owner: OwnerNameSchema,
  sig: SignatureSchema,
});
export type CreateRequest = z.infer<typeof CreateRequestSchema>;
