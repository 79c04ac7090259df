/**
 * Revoking a seat (docs/SPEC.md §5.13): the seat's owner signs (purpose `owner`, statement
 * `{ scope: "seat_revoke", ... }`) that one of its seats, held by `seat_key`, leaves the table and
 * that key is refused here from then on. The statement names the key, so it can never revoke a key
 * that holds the seat later.
 */
import * as z from "zod";
import {
  NonceSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

/** What an owner signs (purpose `owner`) to revoke its seat `seat`, held by `seat_key`. */
export const SeatRevokeStatementSchema = z.strictObject({
  scope: z.literal("seat_revoke"),
  table: TableIdSchema,
  owner: OwnerNameSchema,
  seat: SeatNameSchema,
  seat_key: PublicKeySchema,
  nonce: NonceSchema,
});
export type SeatRevokeStatement = z.infer<typeof SeatRevokeStatementSchema>;

/** Data of `system/seat_revoked`: the statement without scope and table; the nonce makes a retried revocation idempotent. */
export const SeatRevokeDataSchema = z.strictObject({
  owner: OwnerNameSchema,
  seat: SeatNameSchema,
  seat_key: PublicKeySchema,
  nonce: NonceSchema,
});
export type SeatRevokeData = z.infer<typeof SeatRevokeDataSchema>;

/** POST /tables/:id/revoke body. */
export const SeatRevokeRequestSchema = z.strictObject({
  revoke: SeatRevokeStatementSchema,
  sig: SignatureSchema,
});
export type SeatRevokeRequest = z.infer<typeof SeatRevokeRequestSchema>;
