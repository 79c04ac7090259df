/**
 * Authorizations for reads and sockets (docs/SPEC.md §6.2). HTTP reads carry a signed, short-lived
 * statement bound to method and path; a WebSocket signs the relay's fresh challenge. Both use
 * purpose `auth`, told apart by `scope`.
 */
import * as z from "zod";
import { MillisSchema, OwnerNameSchema, SeatNameSchema, SignatureSchema, TableIdSchema } from "./primitives.js";

/** The principal a read is made as: a seat (its visibility applies) or an owner of the table. */
export const PrincipalSchema = z.union([
  z.strictObject({ seat: SeatNameSchema }),
  z.strictObject({ owner: OwnerNameSchema }),
]);
export type Principal = z.infer<typeof PrincipalSchema>;

/** Signed for an HTTP read: valid for LIMITS.auth_window_ms around `ts`, for this method and path only. */
export const HttpAuthStatementSchema = z.strictObject({
  scope: z.literal("http"),
  table: TableIdSchema,
  as: PrincipalSchema,
  method: z.enum(["GET", "POST"]),
  path: z.string().min(1).max(2048),
  ts: MillisSchema,
});
export type HttpAuthStatement = z.infer<typeof HttpAuthStatementSchema>;

/** The `Authorization: Trestle <base64url(JSON)>` payload. */
export const HttpAuthSchema = HttpAuthStatementSchema.extend({ sig: SignatureSchema });
export type HttpAuth = z.infer<typeof HttpAuthSchema>;

/** Signed by an owner to answer a WebSocket challenge: a live owner session (§6.3), which can approve. */
export const OwnerSocketAuthStatementSchema = z.strictObject({
  scope: z.literal("ws"),
  table: TableIdSchema,
  owner: OwnerNameSchema,
  challenge: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
});
export type OwnerSocketAuthStatement = z.infer<typeof OwnerSocketAuthStatementSchema>;

/** Signed by a seat to answer a WebSocket challenge. */
export const SocketAuthStatementSchema = z.strictObject({
  scope: z.literal("ws"),
  table: TableIdSchema,
  seat: SeatNameSchema,
  challenge: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
});
export type SocketAuthStatement = z.infer<typeof SocketAuthStatementSchema>;
