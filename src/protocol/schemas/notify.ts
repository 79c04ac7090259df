/**
 * Owner notifications (docs/SPEC.md §11.3): what a table tells an affected owner's OwnerDO after
 * a write. Each carries `id`, its idempotency key (the same event sent twice is queued once), and
 * the table it is about. `approval_needed` and `task_stalled` are emitted by the commit gateway,
 * `chat_approval` when a chat tap approved or rejected a task; `table_opened` is silent (it only
 * adds the table to the owner's list).
 */
import * as z from "zod";
import { CloseReasonSchema } from "./entry.js";
import { ChatPlatformSchema, ControlViaSchema, PauseHolderSchema } from "./control.js";
import { LangSchema } from "./owner.js";
import { GroupIdSchema } from "./market-group.js";
import { CategorySchema, ListingSideSchema, PriceRangeSchema } from "./market.js";
import {
  LabelSchema,
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SeqSchema,
  TableIdSchema,
} from "./primitives.js";
import { AmountSchema, CurrencySchema, HeldNoticeSchema, TermsSchema } from "./room.js";
import { NoDealReasonSchema } from "./mechanism.js";
import { ApprovalVerdictSchema, ApprovalViaSchema, TaskIdSchema } from "./task.js";
import { OWNER_ASK_LIMITS } from "./owner-ask.js";
import { LIMITS } from "../limits/limits.js";

/** Longest decision or effect text a notification carries; platforms cut further. */
export const NOTIFY_TEXT_CHARS = 1000;

const Base = {
  id: z.string().regex(/^[A-Za-z0-9:._-]{1,200}$/, "event id: 1-200 of [A-Za-z0-9:._-]"),
  table: TableIdSchema,
  topic: z.string().max(500),
  /** About an end-to-end encrypted room (§5.12): the event carries no content (topic, body and text are ""). */
  e2e: z.literal(true).optional(),
};

/** One effect as an owner reads it before approving: who, which resource, what action, with what. */
export const NotifyEffectSchema = z.strictObject({
  owner: OwnerNameSchema,
  resource: z.string().min(1).max(256),
  action: LabelSchema,
  args: z.record(z.string(), z.unknown()).optional(),
});
export type NotifyEffect = z.infer<typeof NotifyEffectSchema>;

/** A proposal's effects wait for this owner's approval. */
export const ApprovalNeededSchema = z.strictObject({
  ...Base,
  type: z.literal("approval_needed"),
  task: TaskIdSchema,
  proposal_seq: SeqSchema,
  proposer: SeatNameSchema,
  effects: z.array(NotifyEffectSchema).min(1).max(16),
  /** Whether a tap on Approve counts now (the owner's chat_approve rules, endorsed, match every effect); absent in older events. */
  chat_approve: z.boolean().optional(),
});
/** The floor went to a human seat of this owner. */
export const FloorToHumanSchema = z.strictObject({
  ...Base,
  type: z.literal("floor_to_human"),
  seq: SeqSchema,
  seat: SeatNameSchema,
  round: z.int().min(0),
});
/** A task of this owner saw no progress within the heartbeat. */
export const TaskStalledSchema = z.strictObject({ ...Base, type: z.literal("task_stalled"), task: TaskIdSchema });
/** A decision was written at a table this owner is in. */
export const DecisionReachedSchema = z.strictObject({
  ...Base,
  type: z.literal("decision_reached"),
  seq: SeqSchema,
  seat: SeatNameSchema,
  body: z.string().max(NOTIFY_TEXT_CHARS),
});
/**
 * What a room closed with a deal binds (§5.10, §5.11): the accepted offer (its entry's seq, author,
 * terms and expiry) or the auction that settled with a deal (its entry's seq and price). Never
 * about an end-to-end encrypted room.
 */
export const DealNoticeSchema = z.union([
  z.strictObject({
    offer: z.strictObject({
      seq: SeqSchema,
      seat: SeatNameSchema,
      terms: TermsSchema,
      expires: MillisSchema.nullable(),
    }),
  }),
  z.strictObject({ auction: z.strictObject({ seq: SeqSchema, price: AmountSchema, currency: CurrencySchema }) }),
]);
export type DealNotice = z.infer<typeof DealNoticeSchema>;

/** The table closed; a room that closed with a deal says what the deal binds (absent in older events and about e2e rooms). */
export const TableClosedNoticeSchema = z.strictObject({
  ...Base,
  type: z.literal("table_closed"),
  seq: SeqSchema,
  reason: CloseReasonSchema,
  deal: DealNoticeSchema.optional(),
});
/** An owner paused the table or lifted their own pause; `pauses` are those in force after it (absent in older events). */
export const TableControlNoticeSchema = z.strictObject({
  ...Base,
  type: z.enum(["table_paused", "table_resumed"]),
  seq: SeqSchema,
  owner: OwnerNameSchema,
  via: ControlViaSchema,
  pauses: z.array(PauseHolderSchema).optional(),
});
/** A task of this owner was approved or rejected by a tap in a chat app: relay-attested, so the owner hears of it everywhere. */
export const ChatApprovalNoticeSchema = z.strictObject({
  ...Base,
  type: z.literal("chat_approval"),
  seq: SeqSchema,
  task: TaskIdSchema,
  verdict: ApprovalVerdictSchema,
  via: ApprovalViaSchema,
});
/** Rooms (§5.10): a seat of this owner wrote to its owner only; never in the ledger, never to the room. The text is "" only about an e2e room. */
export const OwnerNoteSchema = z
  .strictObject({
    ...Base,
    type: z.literal("owner_note"),
    seat: SeatNameSchema,
    /** Whatever the table took (LIMITS.note_chars), so a note the table took is never refused here. */
    text: z.string().max(LIMITS.note_chars),
  })
  .refine((n) => n.e2e === true || n.text !== "", {
    message: "a note's text is empty only about an e2e room",
    path: ["text"],
  });

/** A seat of this owner asks it a question (§5.14); never in the ledger. Text and choices are empty only about an e2e room. */
export const OwnerQuestionNoticeSchema = z
  .strictObject({
    ...Base,
    type: z.literal("owner_question"),
    seat: SeatNameSchema,
    question: NonceSchema,
    /** Whatever the table took (a question's limits), so a question the table took is never refused here. */
    text: z.string().max(LIMITS.note_chars),
    choices: z.array(z.string().max(OWNER_ASK_LIMITS.choice_chars)).max(OWNER_ASK_LIMITS.choices),
    deadline: MillisSchema,
  })
  .refine((n) => n.e2e === true || n.text !== "", {
    message: "a question's text is empty only about an e2e room",
    path: ["text"],
  });
export type OwnerQuestionNotice = z.infer<typeof OwnerQuestionNoticeSchema>;

/**
 * Room news (§11.3): what happened in a room, by kind. `deal_done` and `deal_pending` follow a
 * deal_sign or a close with a deal (done once both owners signed), `auction_deal` and
 * `auction_no_deal` an auction's settlement, `held` a message the owner gate holds on the owner's
 * machine (told through the note route, never the ledger).
 */
export const RoomNewsKindSchema = z.enum([
  "offer",
  "counter",
  "accept",
  "reject",
  "deal_pending",
  "deal_done",
  "no_deal",
  "auction_deal",
  "auction_no_deal",
  "ejected",
  "held",
]);
export type RoomNewsKind = z.infer<typeof RoomNewsKindSchema>;

/** The kinds an owner whose config says `room_news: "commitments"` gets; `all` gets every kind, `none` none. */
export const COMMITMENT_NEWS: ReadonlySet<RoomNewsKind> = new Set([
  "accept",
  "deal_pending",
  "deal_done",
  "no_deal",
  "auction_deal",
  "auction_no_deal",
  "ejected",
  "held",
]);

/** One piece of room news: its kind and the seat that acted; what it binds only outside an e2e room (there, the kind and the seat). */
export const RoomNewsSchema = z
  .strictObject({
    ...Base,
    type: z.literal("room_news"),
    news: RoomNewsKindSchema,
    /** Who acted: offered, answered, signed or closed, opened the auction, was ejected, or wrote the held message. */
    seat: SeatNameSchema,
    /** The entry it is about; absent for a held message, which is not in the ledger. */
    seq: SeqSchema.optional(),
    /** What it binds: the offer's or deal's terms, the auction's price; never about an e2e room. */
    terms: TermsSchema.optional(),
    /** A pending deal: the owners who have not signed it yet. */
    waiting: z.array(OwnerNameSchema).max(2).optional(),
    /** An ejection: the owner who ejected the seat. */
    by: OwnerNameSchema.optional(),
    /** An auction that settled without a deal: why. */
    reason: NoDealReasonSchema.optional(),
    /** A held message: its kind and the hash the owner approves it by (terms ride in `terms`). */
    held: HeldNoticeSchema.omit({ terms: true }).optional(),
  })
  .refine((n) => n.e2e !== true || n.terms === undefined, {
    message: "news about an e2e room carries no terms",
    path: ["terms"],
  });
export type RoomNews = z.infer<typeof RoomNewsSchema>;

/**
 * A market bound a chat group (docs/SPEC.md §5.15 "Groups"), told to the market's group audience
 * (groupAudience): its object takes the group as a channel, in `lang`, and greets it once.
 */
export const GroupBoundNoticeSchema = z.strictObject({
  ...Base,
  type: z.literal("group_bound"),
  seq: SeqSchema,
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
  lang: LangSchema,
});
export type GroupBoundNotice = z.infer<typeof GroupBoundNoticeSchema>;

/** A market unbound a chat group: its audience's object drops the channel and anything still queued for it (silent). */
export const GroupUnboundNoticeSchema = z.strictObject({
  ...Base,
  type: z.literal("group_unbound"),
  seq: SeqSchema,
  platform: ChatPlatformSchema,
  group: GroupIdSchema,
});
export type GroupUnboundNotice = z.infer<typeof GroupUnboundNoticeSchema>;

/**
 * What a market's bound chat groups are told (docs/SPEC.md §5.15 "Groups"): a new listing (its side,
 * the member's title, category, quantity, public price, owner, and `via` for one posted from a group,
 * which is unverified) or a deal both owners signed (the item, its offer's title, and the quantity;
 * its price, as a range of one amount, only when both owners let the market show it, decision 0529). Nothing else of a market reaches a group, and nothing
 * of a room.
 */
export const GroupNewsSchema = z.strictObject({
  ...Base,
  type: z.literal("group_news"),
  news: z.enum(["listing", "deal"]),
  seq: SeqSchema,
  title: z.string().min(1).max(LIMITS.listing_title_chars),
  category: CategorySchema,
  quantity: z.int().min(1).max(LIMITS.listing_quantity),
  /** A listing's side, owner and public price range (a deal's price, min = max, when both owners showed it), and the platform of one posted from a group. */
  side: ListingSideSchema.optional(),
  owner: OwnerNameSchema.optional(),
  price: PriceRangeSchema.optional(),
  via: ChatPlatformSchema.optional(),
});
export type GroupNews = z.infer<typeof GroupNewsSchema>;

/** The audience a market's chat groups are told through: one object (and outbox) for all of the market's groups, named after the market. */
export const GroupAudienceSchema = z.string().regex(/^groups:[a-z0-9][a-z0-9._-]{2,63}$/, "groups:<market id>");

/** The audience of `market`'s chat groups. */
export function groupAudience(market: string): string {
  return `groups:${market}`;
}

/** The table was opened with this owner listed (silent). */
export const TableOpenedNoticeSchema = z.strictObject({ ...Base, type: z.literal("table_opened"), seq: SeqSchema });

/** Any notification. */
export const NotificationSchema = z.union([
  ApprovalNeededSchema,
  FloorToHumanSchema,
  TaskStalledSchema,
  DecisionReachedSchema,
  TableClosedNoticeSchema,
  TableControlNoticeSchema,
  TableOpenedNoticeSchema,
  ChatApprovalNoticeSchema,
  OwnerNoteSchema,
  OwnerQuestionNoticeSchema,
  RoomNewsSchema,
  GroupBoundNoticeSchema,
  GroupUnboundNoticeSchema,
  GroupNewsSchema,
]);
export type Notification = z.infer<typeof NotificationSchema>;
export type NotificationType = Notification["type"];
export type ApprovalNeeded = z.infer<typeof ApprovalNeededSchema>;

/** Notifications that only update the owner's table list and are never sent to a chat. */
export const SILENT_NOTIFICATIONS: ReadonlySet<NotificationType> = new Set(["table_opened", "group_unbound"]);

/** A batch for one owner (or a market's groups: GroupAudienceSchema), as the table sends it to the OwnerDO. */
export const NotifyBatchSchema = z.strictObject({
  owner_key: z.union([PublicKeySchema, GroupAudienceSchema]),
  events: z.array(NotificationSchema).min(1).max(64),
});
export type NotifyBatch = z.infer<typeof NotifyBatchSchema>;
