/**
 * Table controls (docs/SPEC.md §5.5): an owner who holds a seat pauses the table, and lifts only
 * their own pause (one per owner; the table writes only while none holds). Either owner-signed (purpose `owner`, statement `{ scope: "table_control", ... }`) or
 * relay-attested from a bound chat account (`author: null`, `via` names the chat app). A
 * relay-attested control proves only that the relay says so; docs/SECURITY.md says what that means.
 */
import * as z from "zod";
import { NonceSchema, OwnerNameSchema, SeqSchema, SignatureSchema, TableIdSchema } from "./primitives.js";

/**
 * The chat apps an owner can act from: the one list of platform ids. A new platform is added here
 * and in CHAT_PLATFORM_NAMES; src/chat/platforms/index.ts is typed against it, so the compiler
 * names what else is missing (docs/CHAT-APPS.md "Adding a platform").
 */
export const ChatPlatformSchema = z.enum(["telegram", "line", "discord"]);
export type ChatPlatform = z.infer<typeof ChatPlatformSchema>;

/** Each chat app's name as people write it, for messages, help and docs. */
export const CHAT_PLATFORM_NAMES: Readonly<Record<ChatPlatform, string>> = {
  telegram: "Telegram",
  line: "LINE",
  discord: "Discord",
};

/** Every chat app in prose, by id or by name, the last after `conjunction`: e.g. "telegram, line or discord". */
export function chatPlatformsInWords(by: "id" | "name", conjunction: "or" | "and"): string {
  const words = ChatPlatformSchema.options.map((platform) => (by === "id" ? platform : CHAT_PLATFORM_NAMES[platform]));
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} ${conjunction} ${words.at(-1)}`;
}

/** Who made a control happen: the owner's own signature (`owner`), or a chat tap the relay attests. */
export const ControlViaSchema = z.enum(["owner", ...ChatPlatformSchema.options]);
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
