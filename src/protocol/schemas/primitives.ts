/**
 * Primitive wire types shared by every schema: names, keys, signatures, hashes, nonces,
 * sequence numbers and bounded text. Patterns are strict so that no two spellings mean one thing.
 */
import * as z from "zod";
import { canonicalBytes } from "../encoding/canonical.js";
import { LIMITS } from "../limits/limits.js";

/** Table id: 3-64 chars of lowercase letters, digits, `.`, `_`, `-`, starting alphanumeric. */
export const TableIdSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{2,63}$/, "table id: 3-64 of [a-z0-9._-]");
export type TableId = z.infer<typeof TableIdSchema>;

/** Seat name: 1-64 chars of lowercase letters, digits, `.`, `_`, `-`, starting alphanumeric. */
export const SeatNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "seat name: 1-64 of [a-z0-9._-]");
export type SeatName = z.infer<typeof SeatNameSchema>;

/** Owner name: same alphabet as seat names. */
export const OwnerNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "owner name: 1-64 of [a-z0-9._-]");
export type OwnerName = z.infer<typeof OwnerNameSchema>;

/** Ed25519 public key: 32 bytes as unpadded base64url (43 chars). */
export const PublicKeySchema = z.string().regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, "32-byte base64url key");
export type PublicKey = z.infer<typeof PublicKeySchema>;

/** Ed25519 signature: 64 bytes as unpadded base64url (86 chars). */
export const SignatureSchema = z.string().regex(/^[A-Za-z0-9_-]{85}[AQgw]$/, "64-byte base64url signature");
export type Signature = z.infer<typeof SignatureSchema>;

/** SHA-256 digest as 64 lowercase hex chars. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "lowercase hex SHA-256");
export type Sha256 = z.infer<typeof Sha256Schema>;

/** Client nonce: 16-64 base64url chars (at least 96 bits of entropy expected). */
export const NonceSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "nonce: 16-64 base64url chars");
export type Nonce = z.infer<typeof NonceSchema>;

/** A room invite's id (docs/SPEC.md §5.10): chosen at random by the room's creator, used once; the same alphabet as nonces. */
export const InviteIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "invite id: 16-64 base64url chars");

/** Ledger sequence number: 1, 2, 3, ... */
export const SeqSchema = z.int().min(1).max(Number.MAX_SAFE_INTEGER);
export type Seq = z.infer<typeof SeqSchema>;

/** Milliseconds since the Unix epoch. */
export const MillisSchema = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** One entry body: text up to the published limit. */
export const BodySchema = z.string().max(LIMITS.body_chars);

/**
 * A refinement: the value has a canonical form (§2; else an issue schemaError reports as
 * E_NOT_CANONICAL) of at most `maxBytes` UTF-8 bytes (else `too_big`, reported as E_TOO_LARGE).
 */
export function canonicalAtMost(maxBytes: number, what: string) {
  return (value: unknown, ctx: z.RefinementCtx): void => {
    let size: number;
    try {
      size = canonicalBytes(value).length;
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message, params: { code: "E_NOT_CANONICAL" } });
      return;
    }
    if (size > maxBytes) {
      ctx.addIssue({
        code: "too_big",
        origin: "canonical_json",
        maximum: maxBytes,
        inclusive: true,
        message: `${what} is at most ${maxBytes} bytes of canonical JSON, not ${size}`,
      });
    }
  };
}

/** A refinement: an object (a record) has at most `max` members, else `too_big` (E_TOO_LARGE) naming `what`. */
export function membersAtMost(max: number, what: string) {
  return (value: object, ctx: z.RefinementCtx): void => {
    const count = Object.keys(value).length;
    if (count > max)
      ctx.addIssue({
        code: "too_big",
        origin: "object",
        maximum: max,
        inclusive: true,
        message: `at most ${max} ${what}, not ${count}`,
      });
  };
}

/** A short single-purpose label (roles, reasons, types). */
export const LabelSchema = z.string().regex(/^[a-z0-9][a-z0-9_.:-]{0,63}$/, "label: 1-64 of [a-z0-9_.:-]");

/** A reference: `entry:<seq>`, `task:<seq>.<owner>` (a task id, §5.6), `table:<id>` or an https URL. */
export const RefSchema = z
  .string()
  .max(512)
  .regex(
    /^(entry:[1-9][0-9]*|task:[1-9][0-9]{0,15}\.[a-z0-9][a-z0-9._-]{0,63}|table:[a-z0-9][a-z0-9._-]{2,63}|https:\/\/\S+)$/,
    "ref",
  );

/** A list of seat names, no duplicates. */
export const SeatListSchema = z
  .array(SeatNameSchema)
  .min(1)
  .max(LIMITS.to)
  .refine((xs) => new Set(xs).size === xs.length, "seat names must be distinct");

/** The fields every seat submission carries: the table, the writing seat, and its nonce (used once per seat). */
export const AuthoredFields = { table: TableIdSchema, seat: SeatNameSchema, nonce: NonceSchema };
