/**
 * Joins (docs/SPEC.md §4.2): an owner delegates a seat at one table to a seat key by signing a
 * join statement; the relay accepts each join nonce once and only before `expires`.
 */
import * as z from "zod";
import { CapabilityCardSchema } from "./card.js";
import {
  InviteIdSchema,
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

/** What the owner signs (purpose `join`): this seat, at this table, is held by this key. */
export const JoinStatementSchema = z.strictObject({
  table: TableIdSchema,
  seat: SeatNameSchema,
  owner: OwnerNameSchema,
  seat_key: PublicKeySchema,
  card_sha256: Sha256Schema,
  human: z.boolean(),
  nonce: NonceSchema,
  expires: MillisSchema,
  /** Optional (§5.6): the owner signs the table's config with the join, so its auto_approve rules count. */
  config_sha256: Sha256Schema.optional(),
  /** Rooms (§5.10): the invite this join uses; the joining owner is new to the table and signs with `owner_key`. */
  invite: InviteIdSchema.optional(),
  /** Rooms (§5.10): the joining owner's public key, present exactly when `invite` is. */
  owner_key: PublicKeySchema.optional(),
});
export type JoinStatement = z.infer<typeof JoinStatementSchema>;

/** POST /tables/:id/join body: the statement, the card it hashes, and the owner's signature. */
export const JoinRequestSchema = z.strictObject({
  join: JoinStatementSchema,
  card: CapabilityCardSchema,
  sig: SignatureSchema,
});
export type JoinRequest = z.infer<typeof JoinRequestSchema>;
