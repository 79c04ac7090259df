/**
 * Submissions (what a seat signs and sends) and ledger entries (what the relay appends), per kind
 * (docs/SPEC.md §3). An authored entry is exactly its submission plus relay fields, so the signed
 * statement can be rebuilt from the entry alone; a system entry carries typed `data`.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { CapabilityCardSchema } from "./card.js";
import { TableConfigSchema } from "./config.js";
import { ControlDataSchema } from "./control.js";
import { JoinStatementSchema } from "./join.js";
import { ApprovalStatementSchema } from "./approval.js";
import {
  ApprovalVerdictSchema,
  ApprovalViaSchema,
  boundedJsonObject,
  EffectsSchema,
  RequestIdSchema,
  RequestTypeSchema,
  TaskIdSchema,
  TaskProposalSchema,
  TaskReasonSchema,
  TaskStatusSchema,
  VerifyVerdictSchema,
} from "./task.js";
import { ElectorateSchema } from "./config.js";
import { ParentLinkSchema, ResultDecisionSchema } from "./subtable.js";
import {
  AuctionSettledDataSchema,
  MechanismCommitSchema,
  MechanismOpenSchema,
  MechanismRevealSchema,
  MechanismSubmissionSchema,
} from "./mechanism.js";
import { CustodyDataSchema } from "./custody.js";
import { SeatRevokeDataSchema } from "./revoke.js";
import { EjectDataSchema, InviteDataSchema, ROOM_SUBMISSIONS } from "./room.js";
import { DealRecordedDataSchema, MARKET_SUBMISSIONS } from "./market.js";
import { MatchDataSchema } from "./match.js";
import { BidCommitSchema, BidRevealSchema, BidSubmissionSchema, ListingSettledDataSchema } from "./listing-bid.js";
import {
  GroupBoundDataSchema,
  GroupListingDataSchema,
  GroupUnboundDataSchema,
  GroupUnlistDataSchema,
} from "./market-group.js";
import {
  AuthoredFields,
  BodySchema,
  LabelSchema,
  MillisSchema,
  OwnerNameSchema,
  PublicKeySchema,
  RefSchema,
  SeatListSchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

const Budget = z.strictObject({ tokens: z.int().min(0).max(10_000_000) });
const Refs = z.array(RefSchema).min(1).max(LIMITS.refs);
const Authored = AuthoredFields;

/** `say`: a turn's text. */
export const SaySubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("say"),
  body: BodySchema,
  to: SeatListSchema.optional(),
  re: SeqSchema.optional(),
  refs: Refs.optional(),
  budget: Budget.optional(),
});

/** `pass`: give up this turn. */
export const PassSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("pass"),
  body: BodySchema.default(""),
  budget: Budget.optional(),
});

/** `raise_hand`: ask for the floor. */
export const RaiseHandSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("raise_hand"),
  body: BodySchema.default(""),
});

/** `proposal`: a suggested course of action. */
export const ProposalSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("proposal"),
  body: BodySchema,
  to: SeatListSchema.optional(),
  re: SeqSchema.optional(),
  refs: Refs.optional(),
  budget: Budget.optional(),
  effects: EffectsSchema.optional(),
});

/** `decision`: a binding outcome; may terminate the table. */
export const DecisionSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("decision"),
  body: BodySchema,
  re: SeqSchema.optional(),
  refs: Refs.optional(),
  budget: Budget.optional(),
  effects: EffectsSchema.optional(),
});

// Commit gateway (docs/SPEC.md §5.6, §5.7): task work and request/response protocols.

/** `progress`: the executor moves a task to running, or reports it is still running (heartbeat). */
export const ProgressSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("progress"),
  task: TaskIdSchema,
  body: BodySchema.default(""),
  budget: Budget.optional(),
});

/** `receipt`: the executor reports what it did. */
export const ReceiptSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("receipt"),
  task: TaskIdSchema,
  body: BodySchema,
  result: boundedJsonObject(LIMITS.effect_args_bytes).optional(),
  refs: Refs.optional(),
  budget: Budget.optional(),
});

/** `verify`: a seat other than the executor checks a reported task; `body` is the reason. */
export const VerifySubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("verify"),
  task: TaskIdSchema,
  verdict: VerifyVerdictSchema,
  body: BodySchema.min(1),
  budget: Budget.optional(),
});

/** `request`: opens a request/response exchange named by `request_id`. */
export const RequestSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("request"),
  request_id: RequestIdSchema,
  type: RequestTypeSchema,
  to: SeatListSchema.optional(),
  body: BodySchema,
  budget: Budget.optional(),
});

/** `response`: answers the request with the same `request_id` and `type`. */
export const ResponseSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("response"),
  request_id: RequestIdSchema,
  type: RequestTypeSchema,
  verdict: ApprovalVerdictSchema.optional(),
  body: BodySchema.default(""),
  budget: Budget.optional(),
});

/** `vote`: a seat's choice on the proposal at `re`; enough yes votes make it a decision (quorum). */
export const VoteSubmissionSchema = z.strictObject({
  ...Authored,
  kind: z.literal("vote"),
  re: SeqSchema,
  choice: z.enum(["yes", "no", "abstain"]),
  body: BodySchema.default(""),
});

const SUBMISSIONS = [
  SaySubmissionSchema,
  PassSubmissionSchema,
  RaiseHandSubmissionSchema,
  ProposalSubmissionSchema,
  DecisionSubmissionSchema,
  ProgressSubmissionSchema,
  ReceiptSubmissionSchema,
  VerifySubmissionSchema,
  RequestSubmissionSchema,
  ResponseSubmissionSchema,
  VoteSubmissionSchema,
  // Rooms (§5.10): one schema per room kind; the auction's `mechanism` (§5.11) is told apart by `op`.
  ...ROOM_SUBMISSIONS,
  MechanismSubmissionSchema,
  // Markets (§5.15): a member's listings; sealed bids on a listing are told apart by `op`.
  ...MARKET_SUBMISSIONS,
  BidSubmissionSchema,
] as const;

/** Any seat submission, parsed; defaults applied, so it is exactly what the seat signs. */
export const SubmissionSchema = z.discriminatedUnion("kind", SUBMISSIONS);
export type Submission = z.infer<typeof SubmissionSchema>;
/** A submission as a sender may write it (defaults not yet applied). */
export type SubmissionInput = z.input<typeof SubmissionSchema>;
export type AuthoredKind = Submission["kind"];
/** Every kind a seat can write, in schema order. */
export const AuthoredKindSchema = z.enum(
  SUBMISSIONS.map((s) => ("shape" in s ? s.shape.kind.value : s.options[0].shape.kind.value)) as [
    AuthoredKind,
    ...AuthoredKind[],
  ],
);

/** Last head a client verified; the relay refuses a write whose known head is not on its chain. */
export const HeadRefSchema = z.strictObject({ seq: SeqSchema, link: Sha256Schema });
export type HeadRef = z.infer<typeof HeadRefSchema>;

/** POST /tables/:id/entries body (and the `submit` WebSocket frame's payload). */
export const SubmitRequestSchema = z.strictObject({
  submission: SubmissionSchema,
  sig: SignatureSchema,
  known_head: HeadRefSchema.optional(),
});
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

/** Who signed the statement an entry records (seat key, or owner key for joins and creates). */
export const AuthorSchema = z.strictObject({ key: PublicKeySchema, sig: SignatureSchema });
export type Author = z.infer<typeof AuthorSchema>;

/** A body the relay cut to the floor's `max_chars`: original length and hash (the seat signed the hash). */
export const TruncatedSchema = z.strictObject({
  chars: z.int().min(1),
  body_sha256: Sha256Schema,
});
export type Truncated = z.infer<typeof TruncatedSchema>;

const Relay = { seq: SeqSchema, ts: MillisSchema, leaf: Sha256Schema, link: Sha256Schema };

const authoredEntry = <
  S extends
    | Exclude<(typeof SUBMISSIONS)[number], typeof MechanismSubmissionSchema | typeof BidSubmissionSchema>
    | (typeof MechanismSubmissionSchema.options)[number]
    | (typeof BidSubmissionSchema.options)[number],
>(
  s: S,
) => s.extend({ ...Relay, truncated: TruncatedSchema.optional(), author: AuthorSchema });

/** authoredEntry over each schema of a tuple, in its order, each keeping its own type: the room and market kinds come from ROOM_SUBMISSIONS and MARKET_SUBMISSIONS alone. */
const authoredEntries = <
  T extends readonly ((typeof ROOM_SUBMISSIONS)[number] | (typeof MARKET_SUBMISSIONS)[number])[],
>(
  list: T,
) => list.map((s) => authoredEntry(s)) as { -readonly [K in keyof T]: ReturnType<typeof authoredEntry<T[K]>> };

const system = <K extends string, D extends z.ZodType, A extends z.ZodType>(subkind: K, data: D, author: A) =>
  z.strictObject({
    ...Relay,
    table: TableIdSchema,
    seat: z.null(),
    kind: z.literal("system"),
    subkind: z.literal(subkind),
    data,
    author,
  });

/** Why a table closed. */
export const CloseReasonSchema = z.enum([
  "decision",
  "rounds_exhausted",
  "budget_tokens",
  "max_entries",
  "bot_depth",
  "ledger_full",
  "quorum",
  // Liveness (docs/SPEC.md §5.2): the topology can never grant the floor again.
  "no_speaker",
  // Rooms (§5.10): a seat closed the room with this outcome.
  "deal",
  "no_deal",
]);
export type CloseReason = z.infer<typeof CloseReasonSchema>;

/** Why the floor moved. */
export const FloorReasonSchema = z.enum([
  "start",
  "turn",
  "hand",
  "judge",
  "bot_depth",
  "human_done",
  "named",
  "delegate",
  "report",
]);
export type FloorReason = z.infer<typeof FloorReasonSchema>;

/**
 * First entry: the validated config, the relay key heads are signed with, and the creating owner;
 * for a sub-table also `parent`: the parent link with each seat's carried join (signed by the opener's seat key).
 */
export const TableOpenedEntrySchema = system(
  "table_opened",
  z.strictObject({
    config: TableConfigSchema,
    relay: PublicKeySchema,
    creator: OwnerNameSchema,
    parent: ParentLinkSchema.optional(),
  }),
  AuthorSchema,
);
/** A seat joined: the owner-signed join statement and the card it hashes. */
export const SeatJoinedEntrySchema = system(
  "seat_joined",
  z.strictObject({ join: JoinStatementSchema, card: CapabilityCardSchema }),
  AuthorSchema,
);
/** A seat left the table for `reason`. */
export const SeatLeftEntrySchema = system(
  "seat_left",
  z.strictObject({ seat: SeatNameSchema, reason: LabelSchema }),
  z.null(),
);
/** The floor moved to `holder` (null: nobody holds it) in `round`. */
export const FloorEntrySchema = system(
  "floor",
  z.strictObject({ holder: SeatNameSchema.nullable(), round: z.int().min(0), reason: FloorReasonSchema }),
  z.null(),
);
/** A proposal or decision opened a task for one owner's effects (caused by that entry). */
export const TaskOpenedEntrySchema = system(
  "task_opened",
  z.strictObject({
    task: TaskIdSchema,
    owner: OwnerNameSchema,
    proposal: TaskProposalSchema,
    effects: EffectsSchema,
    effects_sha256: Sha256Schema,
  }),
  z.null(),
);
/** A task moved to `state`; `cause` is the entry that moved it (null: the watchdog, judged at this ts). */
export const TaskStateEntrySchema = system(
  "task_state",
  z.strictObject({
    task: TaskIdSchema,
    state: TaskStatusSchema,
    reason: TaskReasonSchema,
    cause: SeqSchema.nullable(),
  }),
  z.null(),
);
/** The table closed; after it only task work is accepted (approvals, progress, receipts, verifications, stalls; §5.6). */
export const TableClosedEntrySchema = system("table_closed", z.strictObject({ reason: CloseReasonSchema }), z.null());

/** An owner paused the table (owner-signed, or relay-attested from a chat app when `author` is null). */
export const TablePausedEntrySchema = system("table_paused", ControlDataSchema, AuthorSchema.nullable());
/** An owner resumed the table (owner-signed, or relay-attested from a chat app when `author` is null). */
export const TableResumedEntrySchema = system("table_resumed", ControlDataSchema, AuthorSchema.nullable());
/** A seat of this table opened sub-table `config.id` with some of this table's seats (signed by its seat key). */
export const SubtableOpenedEntrySchema = system(
  "subtable_opened",
  z.strictObject({ config: TableConfigSchema, opener: SeatNameSchema }),
  AuthorSchema,
);
/** Sub-table `table` closed at (seq, link) for `reason` with `decision`; signed by the relay (purpose `result`). */
export const SubtableResultEntrySchema = system(
  "subtable_result",
  z.strictObject({
    table: TableIdSchema,
    seq: SeqSchema,
    link: Sha256Schema,
    reason: LabelSchema,
    decision: ResultDecisionSchema.nullable(),
  }),
  AuthorSchema,
);
/** A decision the table reached by quorum on proposal `proposal` (by `seat`); caused by the vote before it. */
export const DecisionEntrySchema = system(
  "decision",
  z.strictObject({
    proposal: SeqSchema,
    seat: SeatNameSchema,
    body: BodySchema,
    refs: z.array(RefSchema).min(1).max(LIMITS.refs).optional(),
    of: ElectorateSchema,
    yes: z.int().min(0),
    no: z.int().min(0),
    abstain: z.int().min(0),
    electorate: z.int().min(0),
    needed: z.int().min(1),
  }),
  z.null(),
);

/** Rooms (§5.10): the creator issued an invite (signed with purpose `room`), rotating `replaces` if given. */
export const InviteIssuedEntrySchema = system("invite_issued", InviteDataSchema, AuthorSchema);
/** Rooms (§5.10): the creator ejected a seat (signed with purpose `room`); the `seat_left` it causes follows. */
export const SeatEjectedEntrySchema = system("seat_ejected", EjectDataSchema, AuthorSchema);
/** Sealed-bid auctions (§5.11): the relay settled an auction, caused by the last reveal or due at the reveal deadline. */
export const AuctionSettledEntrySchema = system("auction_settled", AuctionSettledDataSchema, z.null());
/** Custody (§8.4): the table moved to relay `to`, authorised by its owners; signed by `to` (purpose `custody`). */
export const CustodyEntrySchema = system("custody", CustodyDataSchema, AuthorSchema);
/** Revocation (§5.13): a seat's owner revoked it and its key (signed with purpose `owner`); the `seat_left` it causes follows. */
export const SeatRevokedEntrySchema = system("seat_revoked", SeatRevokeDataSchema, AuthorSchema);
/** Markets (§5.15): the market matched an offer and a want; caused by the listing written just before. */
export const MatchEntrySchema = system("match", MatchDataSchema, z.null());
/** Markets (§5.15): a match's room closed a deal both owners signed (their signatures are recorded and checked). */
export const DealRecordedEntrySchema = system("deal_recorded", DealRecordedDataSchema, z.null());
/** Markets (§5.15): the relay settled a sealed listing's bids, caused by the last reveal or due at its reveal_until; a sale's match follows. */
export const ListingSettledEntrySchema = system("listing_settled", ListingSettledDataSchema, z.null());
/** Markets' groups (§5.15): the creator's signed code bound a chat group, redeemed in `group` (signed with purpose `room`). */
export const GroupBoundEntrySchema = system("group_bound", GroupBoundDataSchema, AuthorSchema);
/** Markets' groups (§5.15): the creator unbound a chat group (signed with purpose `room`). */
export const GroupUnboundEntrySchema = system("group_unbound", GroupUnboundDataSchema, AuthorSchema);
/** Markets' groups (§5.15): a member's listing from a bound group, attested by the relay (`via`), signed by nobody. */
export const GroupListingEntrySchema = system("group_listing", GroupListingDataSchema, z.null());
/** Markets' groups (§5.15): a member withdrew, from a bound group, a listing posted from a group; attested by the relay. */
export const GroupUnlistEntrySchema = system("group_unlist", GroupUnlistDataSchema, z.null());

const SYSTEM_ENTRIES = [
  TableOpenedEntrySchema,
  SeatJoinedEntrySchema,
  SeatLeftEntrySchema,
  FloorEntrySchema,
  TableClosedEntrySchema,
  TablePausedEntrySchema,
  TableResumedEntrySchema,
  TaskOpenedEntrySchema,
  TaskStateEntrySchema,
  SubtableOpenedEntrySchema,
  SubtableResultEntrySchema,
  DecisionEntrySchema,
  InviteIssuedEntrySchema,
  SeatEjectedEntrySchema,
  AuctionSettledEntrySchema,
  CustodyEntrySchema,
  SeatRevokedEntrySchema,
  MatchEntrySchema,
  DealRecordedEntrySchema,
  ListingSettledEntrySchema,
  GroupBoundEntrySchema,
  GroupUnboundEntrySchema,
  GroupListingEntrySchema,
  GroupUnlistEntrySchema,
] as const;

/** A system entry, told apart by `subkind`. */
export const SystemEntrySchema = z.discriminatedUnion("subkind", SYSTEM_ENTRIES);
export type SystemEntry = z.infer<typeof SystemEntrySchema>;
export type SystemSubkind = SystemEntry["subkind"];

/** An authored entry (signed by a seat key), one schema per submission kind. */
export const AuthoredEntrySchema = z.discriminatedUnion("kind", [
  authoredEntry(SaySubmissionSchema),
  authoredEntry(PassSubmissionSchema),
  authoredEntry(RaiseHandSubmissionSchema),
  authoredEntry(ProposalSubmissionSchema),
  authoredEntry(DecisionSubmissionSchema),
  authoredEntry(ProgressSubmissionSchema),
  authoredEntry(ReceiptSubmissionSchema),
  authoredEntry(VerifySubmissionSchema),
  authoredEntry(RequestSubmissionSchema),
  authoredEntry(ResponseSubmissionSchema),
  authoredEntry(VoteSubmissionSchema),
  ...authoredEntries(ROOM_SUBMISSIONS),
  z.discriminatedUnion("op", [
    authoredEntry(MechanismOpenSchema),
    authoredEntry(MechanismCommitSchema),
    authoredEntry(MechanismRevealSchema),
  ]),
  ...authoredEntries(MARKET_SUBMISSIONS),
  z.discriminatedUnion("op", [authoredEntry(BidCommitSchema), authoredEntry(BidRevealSchema)]),
]);
export type AuthoredEntry = z.infer<typeof AuthoredEntrySchema>;

/**
 * An owner's approval (§5.6): the signed statement plus relay fields, `seat: null`. `author` is the
 * owner key; a relay-attested chat approval would carry `via` and `author: null`, which admit
 * refuses until the owner's config allows chat approvals.
 */
export const ApprovalEntrySchema = ApprovalStatementSchema.extend({
  ...Relay,
  seat: z.null(),
  kind: z.literal("approval"),
  owner: OwnerNameSchema,
  via: ApprovalViaSchema.optional(),
  author: AuthorSchema.nullable(),
});
export type ApprovalEntry = z.infer<typeof ApprovalEntrySchema>;

/** Any ledger entry. Parsing an untrusted export goes through this schema. */
export const EntrySchema = z.discriminatedUnion("kind", [
  ...AuthoredEntrySchema.options,
  ApprovalEntrySchema,
  SystemEntrySchema,
]);
export type Entry = z.infer<typeof EntrySchema>;
export type EntryKind = Entry["kind"];

/** Omit over each member of a union, keeping it discriminated. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An entry before the ledger assigns seq, ts, leaf and link: what the policy admits. */
export type EntryDraft = DistributiveOmit<Entry, "seq" | "ts" | "leaf" | "link">;
/** An authored entry before the ledger assigns seq, ts, leaf and link. */
export type AuthoredDraft = DistributiveOmit<AuthoredEntry, "seq" | "ts" | "leaf" | "link">;
/** An approval entry before the ledger assigns seq, ts, leaf and link. */
export type ApprovalDraft = Omit<ApprovalEntry, "seq" | "ts" | "leaf" | "link">;
/** A system entry of one subkind before seq, ts, leaf and link. */
export type SystemDraftOf<K extends SystemSubkind> = Omit<SystemEntryOf<K>, "seq" | "ts" | "leaf" | "link">;
/** An entry before the chain fields: what the leaf hash covers. */
export type UnchainedEntry = DistributiveOmit<Entry, "leaf" | "link">;
/** The system entry of one subkind. */
export type SystemEntryOf<K extends SystemSubkind> = Extract<SystemEntry, { subkind: K }>;
