/**
 * Table controls (docs/SPEC.md §5.5): an owner who holds a seat pauses the table, and lifts only
 * their own pause (one per owner; the table writes only while none holds). Either owner-signed (purpose `owner`, statement `{ scope: "table_control", ... }`) or
 * relay-attested from a bound chat account (`author: null`, `via` names the chat app). A
 * relay-attested control proves only that the relay says so; docs/SECURITY.md says what that means.
 */
import { z } from "zod";
import { NonceSchema, OwnerNameSchema, SeqSchema, SignatureSchema, TableIdSchema } from "./primitives.js";

/** The chat apps an owner can act from; `owner` means signed with the owner key itself. */
export const ChatPlatformSchema = z.enum(["telegram", "line", "discord"]);
export type ChatPlatform = z.infer<typeof ChatPlatformSchema>;

/** Who made a control happen: the owner's own signature, or a chat tap the relay attests. */
export const ControlViaSchema = z.enum(["owner", "telegram", "line", "discord"]);
export type ControlVia = z.infer<typeof ControlViaSchema>;

/** Pause puts the owner's own brake on (every authored write gets E_PAUSED); resume lifts that owner's brake only. */
export const ControlActionSchema = z.enum(["pause", "resume"]);
export type ControlAction = z.infer<typeof ControlActionSchema>;

/** Data of a `table_paused` / `table_resumed` entry; the nonce makes a retried control idempotent. */
export const ControlDataSchema = z.strictObject({
  owner: OwnerNameSchema,
  via: ControlViaSchema,
  nonce: NonceSchema,
});
export type ControlData = z.infer<typeof ControlDataSchema>;

/** One owner's pause in force: who holds it, how it was made, and its `table_paused` entry. */
export const PauseHolderSchema = z.strictObject({
  owner: OwnerNameSchema,
  via: ControlViaSchema,
  seq: SeqSchema,
});
export type PauseHolder = z.infer<typeof PauseHolderSchema>;

/** What an owner signs (purpose `owner`) to pause or resume a table. */
export const ControlStatementSchema = z.strictObject({
  scope: z.literal("table_control"),
  table: TableIdSchema,
  owner: OwnerNameSchema,
  action: ControlActionSchema,
  nonce: NonceSchema,
});
export type ControlStatement = z.infer<typeof ControlStatementSchema>;

/** POST /tables/:id/control body. */
export const ControlRequestSchema = z.strictObject({
  control: ControlStatementSchema,
  sig: SignatureSchema,
});
export type ControlRequest = z.infer<typeof ControlRequestSchema>;
