/**
 * A market's chat groups (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's signed
 * request for a one-time code that binds a Telegram group, LINE group or Discord channel to the
 * market, and its signed unbinding; the `system/group_bound` and `system/group_unbound` entries that
 * record them; and the listings a bound member posts from a bound group, which the relay attests
 * (`system/group_listing`, `system/group_unlist`: `via` the platform, no seat, no signature). Flat
 * and strict, as every signed shape.
 */
import * as z from "zod";
import { ChatPlatformSchema } from "./control.js";
import { BindCodeSchema, ChannelHealthSchema, LangSchema } from "./owner.js";
import { SignedHeadSchema } from "./head.js";
import { MillisSchema, NonceSchema, OwnerNameSchema, SeqSchema, SignatureSchema, TableIdSchema } from "./primitives.js";
import { ListingTermsFields } from "./market.js";
import { EntryHashSchema } from "./room.js";

/** A group's id on its platform: a Telegram chat id (negative for groups), a LINE groupId, a Discord channel id. */
export const GroupIdSchema = z
  .string()
  .regex(/^-?[A-Za-z0-9_]{1,64}$/, "group id: 1-64 of [A-Za-z0-9_], optionally after a minus");
export type GroupId = z.infer<typeof GroupIdSchema>;

/** What the creator signs (purpose `room`) to get a one-time code that binds one group of `platform`, shown in `lang`. */
export const GroupCodeStatementSchema = z.strictObject({
  scope: z.literal("group_code"),
  table: TableIdSchema,
  platform: ChatPlatformSchema,
  lang: LangSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
});
export type GroupCodeStatement = z.infer<typeof GroupCodeStatementSchema>;

/** POST /tables/:market/group-codes body. */
export const GroupCodeRequestSchema = z.strictObject({ statement: GroupCodeStatementSchema, sig: SignatureSchema });
export type GroupCodeRequest = z.infer<typeof GroupCodeRequestSchema>;

/** POST /tables/:market/group-codes answer: the code, until when it binds, and what to send where. */
export const GroupCodeResponseSchema = z.strictObject({
  code: BindCodeSchema,
  platform: ChatPlatformSchema,
  expires: MillisSchema,
  send: z.string(),
});
export type GroupCodeResponse = z.infer<typeof GroupCodeResponseSchema>;

/** What the creator signs (purpose `room`) to unbind a group. */
export const GroupUnbindStatementSchema = z.strictObject({
  scope: z.literal("group_unbind"),
  table: TableIdSchema,
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
});
export type GroupUnbindStatement = z.infer<typeof GroupUnbindStatementSchema>;

/** POST /tables/:market/groups/unbind body. */
export const GroupUnbindRequestSchema = z.strictObject({ statement: GroupUnbindStatementSchema, sig: SignatureSchema });
export type GroupUnbindRequest = z.infer<typeof GroupUnbindRequestSchema>;

/** POST /tables/:market/groups/unbind answer: the group_unbound entry's seq and the head after it. */
export const GroupUnbindResponseSchema = z.strictObject({ seq: SeqSchema, head: SignedHeadSchema });
export type GroupUnbindResponse = z.infer<typeof GroupUnbindResponseSchema>;

/**
 * One group bound to a market as GET /tables/:market/groups answers it: where it is, its language,
 * its group_bound entry, and how delivery to it stands (the channel health of §11.4: unproven until
 * its greeting was delivered; null before its audience's object took it).
 */
export const BoundGroupSchema = z.strictObject({
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
  lang: LangSchema,
  seq: SeqSchema,
  health: ChannelHealthSchema.nullable(),
});
export type BoundGroup = z.infer<typeof BoundGroupSchema>;

/** GET /tables/:market/groups answer: the groups bound now, in the order they were bound, and the head they were read at. */
export const GroupsResponseSchema = z.strictObject({ groups: z.array(BoundGroupSchema), head: SignedHeadSchema });
export type GroupsResponse = z.infer<typeof GroupsResponseSchema>;

/**
 * Data of `system/group_bound`: the creator's code statement without scope and table (`platform`,
 * `lang`, `nonce`, `ts`), who signed it, and `group`, where the code was redeemed: the relay's word,
 * since only the platform knows which chat a code was typed in.
 */
export const GroupBoundDataSchema = z.strictObject({
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
  lang: LangSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
  by: OwnerNameSchema,
});
export type GroupBoundData = z.infer<typeof GroupBoundDataSchema>;

/** Data of `system/group_unbound`: the creator's unbind statement without scope and table, and who signed it. */
export const GroupUnboundDataSchema = z.strictObject({
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
  nonce: NonceSchema,
  ts: MillisSchema,
  by: OwnerNameSchema,
});
export type GroupUnboundData = z.infer<typeof GroupUnboundDataSchema>;

/**
 * Data of `system/group_listing`: a listing a member posted from a bound group, attested by the
 * relay (`via` the platform, in `group`), never signed by the member: the same fields as a seat's
 * `listing` but no `supersedes` and no sealed bids, and `owner`, the member the bound account
 * speaks for. It commits nobody; a match on it is a match like any other.
 */
export const GroupListingDataSchema = z.strictObject({
  owner: OwnerNameSchema,
  via: ChatPlatformSchema,
  group: GroupIdSchema,
  ...ListingTermsFields,
});
export type GroupListingData = z.infer<typeof GroupListingDataSchema>;

/** Data of `system/group_unlist`: a member withdraws, from a bound group, a listing posted from a group (never a seat's signed one). */
export const GroupUnlistDataSchema = z.strictObject({
  owner: OwnerNameSchema,
  via: ChatPlatformSchema,
  group: GroupIdSchema,
  listing: EntryHashSchema,
});
export type GroupUnlistData = z.infer<typeof GroupUnlistDataSchema>;
