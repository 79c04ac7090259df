/**
 * Owner-key requests about the owner's own chat channels (docs/SPEC.md §11): creating a one-time
 * bind code and unbinding a chat account (purpose `bind`), and reading channel health (purpose
 * `auth`, scope `owner_http`). Every statement names the owner key and a time, and the relay
 * accepts it only within LIMITS.auth_window_ms of its clock.
 */
import * as z from "zod";
import { ChatPlatformSchema } from "./control.js";
import { MillisSchema, NonceSchema, PublicKeySchema, SignatureSchema } from "./primitives.js";

/** Languages notification and reply text exist in; carried on the wire as this code. */
export const LangSchema = z.enum(["en", "zh-Hans", "zh-Hant", "ja"]);
export type Lang = z.infer<typeof LangSchema>;

/** A chat account id as the platform names it (Telegram user id, LINE user id, Discord user id). */
export const AccountIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "chat account id: 1-64 of [A-Za-z0-9_-]");
export type AccountId = z.infer<typeof AccountIdSchema>;

/** Signed (purpose `bind`) to get a one-time code that binds one chat account on `platform`. */
export const BindCodeStatementSchema = z.strictObject({
  action: z.literal("code"),
  owner_key: PublicKeySchema,
  platform: ChatPlatformSchema,
  lang: LangSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
});
export type BindCodeStatement = z.infer<typeof BindCodeStatementSchema>;

/** Signed (purpose `bind`) to remove one bound chat account. */
export const UnbindStatementSchema = z.strictObject({
  action: z.literal("unbind"),
  owner_key: PublicKeySchema,
  platform: ChatPlatformSchema,
  account: AccountIdSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
});
export type UnbindStatement = z.infer<typeof UnbindStatementSchema>;

/** Any `bind`-purpose statement. */
export const BindStatementSchema = z.discriminatedUnion("action", [BindCodeStatementSchema, UnbindStatementSchema]);
export type BindStatement = z.infer<typeof BindStatementSchema>;

/** POST /owners/:key/bind-codes and POST /owners/:key/unbind body. */
export const BindRequestSchema = z.strictObject({ statement: BindStatementSchema, sig: SignatureSchema });
export type BindRequest = z.infer<typeof BindRequestSchema>;

/** Signed (purpose `auth`) for an owner read such as GET /owners/:key/channels. */
export const OwnerAuthStatementSchema = z.strictObject({
  scope: z.literal("owner_http"),
  owner_key: PublicKeySchema,
  method: z.enum(["GET", "POST"]),
  path: z.string().min(1).max(2048),
  ts: MillisSchema,
});
export type OwnerAuthStatement = z.infer<typeof OwnerAuthStatementSchema>;

/** The `Authorization: Trestle <base64url(JSON)>` payload of an owner read. */
export const OwnerAuthSchema = OwnerAuthStatementSchema.extend({ sig: SignatureSchema });
export type OwnerAuth = z.infer<typeof OwnerAuthSchema>;

/** A bind code as shown to the owner: 8 characters of an unambiguous alphabet, grouped `XXXX-XXXX`. */
export const BindCodeSchema = z.string().regex(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/, "bind code XXXX-XXXX");

/** POST /owners/:key/bind-codes response. */
export const BindCodeResponseSchema = z.strictObject({
  code: BindCodeSchema,
  platform: ChatPlatformSchema,
  expires: MillisSchema,
  send: z.string(),
});
export type BindCodeResponse = z.infer<typeof BindCodeResponseSchema>;

/** POST /owners/:key/unbind response. */
export const UnbindResponseSchema = z.strictObject({
  platform: ChatPlatformSchema,
  account: AccountIdSchema,
  removed: z.boolean(),
});
export type UnbindResponse = z.infer<typeof UnbindResponseSchema>;

/** How one delivery attempt ended; `queued` is recorded when a message enters the outbox. */
export const AttemptStatusSchema = z.enum(["queued", "delivered", "failed"]);
export type AttemptStatus = z.infer<typeof AttemptStatusSchema>;

/** Why an attempt failed, as far as the platform's answer tells. */
export const FailureReasonSchema = z.enum([
  "quota_exhausted",
  "rate_limited",
  "unauthorized",
  "blocked",
  "bad_request",
  "server_error",
  "network",
  "interrupted",
  "not_configured",
  /** The bot can no longer post there: removed from the group, the group or channel gone (a market's group, §5.15). */
  "removed",
  /** A Telegram group became a supergroup, with a new id, which the market binds again with a new code. */
  "migrated",
]);
export type FailureReason = z.infer<typeof FailureReasonSchema>;

/**
 * A channel's health. `unproven`: it has never delivered (not ok, whatever else it did);
 * `ok`: it has delivered and its latest attempt did not fail; `failing`: it delivered before but
 * its latest attempt failed; `quota_exhausted`: its latest attempt hit the platform's monthly quota;
 * `removed` and `migrated`: the bot can no longer post there (a market's group: the bot was removed,
 * or a Telegram group became a supergroup with a new id), whether or not it ever delivered.
 */
export const ChannelStateSchema = z.enum(["unproven", "ok", "failing", "quota_exhausted", "removed", "migrated"]);
export type ChannelState = z.infer<typeof ChannelStateSchema>;

/** One attempt as recorded; `resends` counts the resends of its notification to its channel so far (0: the first send). */
export const AttemptRecordSchema = z.strictObject({
  event: z.string(),
  status: AttemptStatusSchema,
  http_status: z.int().nullable(),
  reason: FailureReasonSchema.nullable(),
  detail: z.string().nullable(),
  resends: z.int().min(0),
  at: MillisSchema,
});
export type AttemptRecord = z.infer<typeof AttemptRecordSchema>;

/** A notification a channel gave up on: refused for good, or out of attempts (`reason` is null only for rows older than this field). */
export const UndeliveredRecordSchema = z.strictObject({
  event: z.string(),
  reason: FailureReasonSchema.nullable(),
  at: MillisSchema,
});
export type UndeliveredRecord = z.infer<typeof UndeliveredRecordSchema>;

/** One bound chat account and its delivery health. */
export const ChannelHealthSchema = z.strictObject({
  platform: ChatPlatformSchema,
  account: AccountIdSchema,
  label: z.string(),
  lang: LangSchema,
  bound_at: MillisSchema,
  state: ChannelStateSchema,
  delivered: z.int().min(0),
  last_delivered_at: MillisSchema.nullable(),
  last_attempt: AttemptRecordSchema.nullable(),
  recent: z.array(AttemptRecordSchema),
  /** Notifications this channel never delivered and will not retry, and the newest of them. */
  undelivered: z.int().min(0),
  last_undelivered: UndeliveredRecordSchema.nullable(),
});
export type ChannelHealth = z.infer<typeof ChannelHealthSchema>;

/** GET /owners/:key/channels response. */
export const ChannelsResponseSchema = z.strictObject({
  owner_key: PublicKeySchema,
  channels: z.array(ChannelHealthSchema),
  has_proven_channel: z.boolean(),
});
export type ChannelsResponse = z.infer<typeof ChannelsResponseSchema>;
