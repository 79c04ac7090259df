/**
 * The owner's private files for one seat at one table (docs/ROOMS.md "Files on the owner's
 * machine"): the owner-signed mandate, and the journal of what never leaves the machine (the
 * agent's private rationale, notes to the owner, what the guards refused and held, the owner's
 * gate answers, what was sent). Every line and file is parsed by these schemas; the principal
 * window (issue 14) reads the same ones. Nothing here is a wire type: none of it is sent to a relay.
 */
import { z } from "zod";
import {
  AmountSchema,
  AuctionSideSchema,
  AuthoredKindSchema,
  BidSaltSchema,
  CategorySchema,
  CurrencySchema,
  ErrorCodeSchema,
  LIMITS,
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "../protocol/index.js";

/** Every kind a seat can write; `require_confirm` names some of them. */
export const WritableKindSchema = z.enum(AuthoredKindSchema.options as [string, ...string[]]);

/** Money a seat may commit to, in one currency: at most `cap`, and at least `floor` if set (minor units). */
export const MandateMoneySchema = z.strictObject({
  currency: CurrencySchema,
  cap: AmountSchema,
  floor: AmountSchema.optional(),
});
export type MandateMoney = z.infer<typeof MandateMoneySchema>;

/**
 * The owner's allowance across every room of one market (docs/MARKETS.md "An owner's allowance"):
 * at most `total` (minor units of `currency`) spent or reserved by the owner as the buyer of its
 * matches, and with `open`, at most that many commitments open at once (either side).
 */
export const MandateAllowanceSchema = z.strictObject({
  currency: CurrencySchema,
  total: AmountSchema,
  open: z.int().min(0).max(10_000).optional(),
});
export type MandateAllowance = z.infer<typeof MandateAllowanceSchema>;

/** A list of distinct names, at most `max` of them. */
function distinct<T extends z.ZodType<string>>(item: T, max: number, what: string) {
  return z
    .array(item)
    .max(max)
    .refine((list) => new Set(list).size === list.length, `${what} must be distinct`);
}

/** What the guard does with a money amount (an offer's, counter's, accept's, grant's or bid's) equal to a never_disclose number: `refuse` it (the default) or `allow` it. */
export const SecretAmountSchema = z.enum(["refuse", "allow"]);
export type SecretAmount = z.infer<typeof SecretAmountSchema>;

/** What the seat's agent is told of the money limits: `figures`, the cap and floor as amounts, or `rules`, only that they hold (the guard alone knows the amounts). */
export const AgentViewSchema = z.enum(["figures", "rules"]);
export type AgentView = z.infer<typeof AgentViewSchema>;

/** What the owner signs (purpose `mandate`): the limits one seat at one table works under. */
export const MandateSchema = z.strictObject({
  version: z.literal(1),
  table: TableIdSchema,
  seat: SeatNameSchema,
  owner: OwnerNameSchema,
  /** Absent: cap 0, so no priced commitment. */
  money: MandateMoneySchema.optional(),
  /** Strings that must appear in no field of anything the seat writes (any case, any Unicode form; a number in any spelling of its value). */
  never_disclose: z.array(z.string().min(1).max(256)).max(64),
  /** Absent: `refuse`, so a listed number is never committed to as an amount either. */
  secret_amount: SecretAmountSchema.optional(),
  /** Kinds held until the owner approves that exact message. */
  require_confirm: z.array(WritableKindSchema).max(32),
  /** While true the seat writes nothing. */
  paused: z.boolean(),
  /** The owner's standing rule for deals (decision 0420): `within_mandate`, the owner's own client signs a deal whose final terms this mandate allows; absent, the owner signs each deal. */
  sign_deals: z.enum(["within_mandate"]).optional(),
  /** Absent: no allowance across rooms (each room's `money` still holds). In the room of a market's match, what the owner may spend and hold open across all of that market's rooms. */
  allowance: MandateAllowanceSchema.optional(),
  /** Absent: any market. The markets (table ids) the seat may trade in: a market itself, or the room of one of its matches; elsewhere it commits nothing. */
  markets: distinct(TableIdSchema, 64, "markets").optional(),
  /** Absent: any category. The categories the seat may list in and trade in (a match's room: both listings the match cites); elsewhere it commits nothing. */
  categories: distinct(CategorySchema, LIMITS.market_categories, "categories").optional(),
  /** Absent: `figures`. With `rules` nothing trestle gives the seat's agent holds the cap or floor; never_disclose strings reach it in neither view. */
  agent_view: AgentViewSchema.optional(),
  /** Signed looser than the mandate it replaced: accepts, grants and priced offers need the owner's approval per message. */
  loosened: z.boolean(),
  signed_at: MillisSchema,
});
export type Mandate = z.infer<typeof MandateSchema>;

/** The mandate file: the mandate, the owner key that signed it, and the signature. */
export const MandateFileSchema = z.strictObject({
  mandate: MandateSchema,
  owner_key: PublicKeySchema,
  sig: SignatureSchema,
});
export type MandateFile = z.infer<typeof MandateFileSchema>;

/** What the owner signs (purpose `commit`) to approve or reject one message the gate holds. */
export const GateAnswerStatementSchema = z.strictObject({
  scope: z.literal("commit"),
  table: TableIdSchema,
  seat: SeatNameSchema,
  message_sha256: Sha256Schema,
  verdict: z.enum(["approve", "reject"]),
  nonce: NonceSchema,
});
export type GateAnswerStatement = z.infer<typeof GateAnswerStatementSchema>;

const Base = { v: z.literal(1), at: MillisSchema, table: TableIdSchema, seat: SeatNameSchema };
const Text = z.string().min(1).max(4000);

/** Why the agent did something: stays on this machine, for the owner. */
export const RationaleRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("rationale"),
  text: Text,
  re: z.strictObject({ seq: SeqSchema.optional(), message_sha256: Sha256Schema.optional() }).optional(),
});

/** A note the agent sent its owner's chat apps (through the relay, never the room), and how it went. */
export const NoteRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("owner_note"),
  text: Text,
  id: z.string().optional(),
  queued: z.int().min(0).optional(),
  error: ErrorCodeSchema.optional(),
});

/** What a guard refused to send, and why. */
export const RefusalRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("refusal"),
  guard: z.enum(["mandate", "disclosure", "gate", "e2e"]),
  code: ErrorCodeSchema,
  reason: z.string().min(1).max(64),
  message: z.string().max(2000),
  kind: z.string().max(64),
  message_sha256: Sha256Schema,
  detail: z.record(z.string(), z.unknown()).optional(),
});

/** A turn the seat's agent failed (a command or an A2A agent, docs/AGENTS.md): nothing it gave was written. */
export const AgentRefusalRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("agent_refusal"),
  driver: z.enum(["exec", "a2a"]),
  reason: z.string().min(1).max(64),
  message: z.string().max(2000),
  /** What the seat did then: gave the agent another turn at once (retry), passed when it held the floor, or waited. */
  then: z.enum(["retry", "pass", "wait"]),
});

/** A message held until the owner approves it: the exact submission (its hash is what the owner signs). */
export const HeldRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("held"),
  message_sha256: Sha256Schema,
  why: z.enum(["require_confirm", "loosened"]),
  submission: z.record(z.string(), z.unknown()),
});

/** The owner's signed answer to one held message. */
export const GateAnswerRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("gate_answer"),
  message_sha256: Sha256Schema,
  verdict: z.enum(["approve", "reject"]),
  nonce: NonceSchema,
  owner_key: PublicKeySchema,
  sig: SignatureSchema,
});

/** A message that left: its entry, and the approval it spent. */
export const SentRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("sent"),
  message_sha256: Sha256Schema,
  kind: z.string().max(64),
  seq: SeqSchema,
  approval: NonceSchema.optional(),
});

/** A send that failed: refused by the relay, or with an unknown outcome (the approval stays spent either way). */
export const SendFailedRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("send_failed"),
  message_sha256: Sha256Schema,
  kind: z.string().max(64),
  outcome: z.enum(["refused", "unknown"]),
  code: ErrorCodeSchema,
  approval: NonceSchema.optional(),
});

/** A sealed bid this seat made (docs/SPEC.md §5.11): the bid and its secret salt, kept here until the reveal; the ledger holds only the commitment. */
export const BidRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("bid"),
  auction: Sha256Schema,
  side: AuctionSideSchema,
  bid: AmountSchema,
  currency: CurrencySchema,
  salt: BidSaltSchema,
  commitment: Sha256Schema,
});

/** A sealed bid this seat made on a market's listing (docs/SPEC.md §5.15): the bid and its secret salt for the bidding owner, kept here until the reveal; the ledger holds only the commitment. */
export const MarketBidRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("market_bid"),
  listing: Sha256Schema,
  bidder: OwnerNameSchema,
  bid: AmountSchema,
  currency: CurrencySchema,
  salt: BidSaltSchema,
  commitment: Sha256Schema,
});

/** One line of a seat's journal. */
export const JournalRecordSchema = z.discriminatedUnion("type", [
  RationaleRecordSchema,
  NoteRecordSchema,
  RefusalRecordSchema,
  AgentRefusalRecordSchema,
  HeldRecordSchema,
  GateAnswerRecordSchema,
  SentRecordSchema,
  SendFailedRecordSchema,
  BidRecordSchema,
  MarketBidRecordSchema,
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
/** A journal record of one type. */
export type JournalRecordOf<T extends JournalRecord["type"]> = Extract<JournalRecord, { type: T }>;
/** A record as written: `v` and `at` are filled in by the journal. */
export type JournalInput = JournalRecord extends infer R
  ? R extends JournalRecord
    ? Omit<R, "v" | "at" | "table" | "seat">
    : never
  : never;
