/**
 * What the principal window's page and its local server say to each other (docs/VIEW.md): the
 * server's events on the live stream (everything already verified and reduced to safe text on the
 * server, so the page only shows it), and the bodies of the page's actions. The page imports
 * these as types only; the server parses every body it receives with the action schemas.
 */
import { z } from "zod";
import {
  ApprovalVerdictSchema,
  ChannelStateSchema,
  ControlActionSchema,
  DealStatusSchema,
  LIMITS,
  ListingSideSchema,
  NonceSchema,
  OWNER_ASK_LIMITS,
  QuestionStateSchema,
  SeatNameSchema,
  Sha256Schema,
  TableIdSchema,
  TaskIdSchema,
  TaskStatusSchema,
} from "../protocol/index.js";

/** One ledger entry as the transcript shows it; every string is one safe line (src/text/framing.ts). */
export const EntryViewSchema = z.strictObject({
  seq: z.int().min(1),
  /** The seat that wrote it, `owner <name>` for an approval, or `relay` for a system entry. */
  who: z.string(),
  role: z.enum(["seat", "owner", "relay"]),
  /** The entry's kind, or a system entry's subkind. */
  kind: z.string(),
  /** What it is about after its kind (`on task 7.oa`, `yes on #5`); "" when nothing. */
  about: z.string(),
  /** The body (or a system entry's words), one safe line each. */
  lines: z.array(z.string()),
  effects: z.array(z.string()),
  /** It carries a seat's or owner's signature (whether it verified is the table's verification). */
  signed: z.boolean(),
  /** The chat app a relay-attested approval or control came through, else null. */
  via: z.string().nullable(),
  /** The original length in characters when the relay cut the body, else null. */
  truncated: z.int().nullable(),
  /** Written by one of this owner's seats, or by this owner. */
  mine: z.boolean(),
});
export type EntryView = z.infer<typeof EntryViewSchema>;

/** An effect in plain words: the action, the resource, each argument as `key: value`. */
export const EffectWordsSchema = z.strictObject({
  owner: z.string(),
  action: z.string(),
  resource: z.string(),
  args: z.array(z.string()),
});
export type EffectWords = z.infer<typeof EffectWordsSchema>;

/** A task of the table and what this owner may do about it. */
export const TaskViewSchema = z.strictObject({
  id: TaskIdSchema,
  owner: z.string(),
  state: TaskStatusSchema,
  executor: z.string().nullable(),
  proposal: z.int().min(1),
  proposer: z.string(),
  /** The proposal's or decision's body, safe lines. */
  proposal_lines: z.array(z.string()),
  effects: z.array(EffectWordsSchema),
  mine: z.boolean(),
  can_approve: z.boolean(),
  can_reject: z.boolean(),
});
export type TaskView = z.infer<typeof TaskViewSchema>;

/** The table's verification: the verdict of docs/SPEC.md §8.2 over what the session followed. */
export const VerificationSchema = z.strictObject({
  verdict: z.enum(["CLEAN", "REFUTED", "INCONCLUSIVE"]),
  /** Entries up to this seq had their signatures checked by this run. */
  through: z.int().min(0),
  refuted_seq: z.int().nullable(),
  /** What was refuted or left unchecked, and the coverage, in words. */
  lines: z.array(z.string()),
});
export type Verification = z.infer<typeof VerificationSchema>;

/** How the owner session to a table stands. */
export const SessionStatusSchema = z.enum(["connecting", "live", "reconnecting", "refused", "caught", "unreachable"]);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** One piece of evidence against the relay, as the banner names it. */
export const EvidenceViewSchema = z.strictObject({
  table: z.string(),
  kind: z.enum(["fork", "truncation"]),
  seq: z.int().min(0),
  message: z.string(),
  recorded_at: z.int().nullable(),
});
export type EvidenceView = z.infer<typeof EvidenceViewSchema>;

/** Everything about one table except its transcript. */
export const TableSummarySchema = z.strictObject({
  table: TableIdSchema,
  parent: z.string().nullable(),
  topic: z.string(),
  status: SessionStatusSchema,
  problem: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  closed: z.string().nullable(),
  /** Every owner's pause in force, oldest first (docs/SPEC.md §5.5); `mine` is this owner's own. */
  pauses: z.array(z.strictObject({ owner: z.string(), via: z.string(), seq: z.int(), mine: z.boolean() })),
  floor: z.string().nullable(),
  round: z.int().min(0),
  budgets: z.array(z.strictObject({ label: z.string(), used: z.int().min(0), limit: z.int().min(1).nullable() })),
  seats: z.array(
    z.strictObject({
      name: z.string(),
      owner: z.string(),
      human: z.boolean(),
      present: z.boolean(),
      mine: z.boolean(),
      /** The entry that revoked the key holding this seat (it left, not seated again), else null (docs/SPEC.md §5.13). */
      revoked: z.int().min(1).nullable(),
      /** This owner's seat, present: the page offers to revoke it. */
      can_revoke: z.boolean(),
    }),
  ),
  /** What this owner's button signs at an open table: lift their own pause, put one on (they hold a present seat), or nothing. */
  control: ControlActionSchema.nullable(),
  tasks: z.array(TaskViewSchema),
  subtables: z.array(z.strictObject({ table: z.string(), topic: z.string(), closed: z.string().nullable() })),
  head: z.strictObject({ seq: z.int().min(0), link: z.string() }).nullable(),
  verification: VerificationSchema.nullable(),
});
export type TableSummary = z.infer<typeof TableSummarySchema>;

/** One notification channel's health, in words (docs/CHAT-APPS.md). */
export const ChannelViewSchema = z.strictObject({ state: ChannelStateSchema, line: z.string() });
export type ChannelView = z.infer<typeof ChannelViewSchema>;

/** What never left this machine: one record of a seat's private journal (journal-reader.ts), in words. */
export const LocalItemSchema = z.strictObject({
  at: z.int().min(0),
  table: z.string(),
  seat: z.string(),
  kind: z.enum(["rationale", "note", "refusal", "held"]),
  title: z.string(),
  lines: z.array(z.string()),
  /** For a held message: its hash and where the owner's answer stands, from the journal's own records (answers, sends); else null. */
  held: z
    .strictObject({ message_sha256: Sha256Schema, state: z.enum(["pending", "approved", "rejected", "sent"]) })
    .nullable(),
});
export type LocalItem = z.infer<typeof LocalItemSchema>;

/** A question one of this owner's seats asked it (docs/SPEC.md §5.14), its texts opened with this home's room key in an e2e room, as safe lines. */
export const QuestionViewSchema = z.strictObject({
  id: NonceSchema,
  seat: z.string(),
  lines: z.array(z.string()),
  /** The choices the answer is one of, each one safe line; null: a free-text answer. */
  choices: z.array(z.string()).nullable(),
  deadline: z.int().min(0),
  state: QuestionStateSchema,
  /** The answer once given: its value in safe lines, and whether the owner key signed it (else the chat app it came through). */
  answer: z.strictObject({ lines: z.array(z.string()), verified: z.boolean(), via: z.string() }).nullable(),
});
export type QuestionView = z.infer<typeof QuestionViewSchema>;

/** An instruction this owner gave one of its seats, as that seat reads it: numbered, owner-signed (checked against this owner key) or relay-attested from chat. */
export const InstructionViewSchema = z.strictObject({
  n: z.int().min(1),
  lines: z.array(z.string()),
  verified: z.boolean(),
  via: z.string(),
  at: z.int().min(0),
});
export type InstructionView = z.infer<typeof InstructionViewSchema>;

/** One of this owner's present seats at a table: its instructions so far, or why they cannot be read from this machine. */
export const SeatLoopSchema = z.strictObject({
  seat: z.string(),
  instructions: z.array(InstructionViewSchema),
  problem: z.string().nullable(),
});
export type SeatLoop = z.infer<typeof SeatLoopSchema>;

/** A room's deal (docs/ROOMS.md "Deals") as the verified ledger folds it: pending until both owners signed, in words; `can_sign` while this owner has not. */
export const DealViewSchema = z.strictObject({
  offer: Sha256Schema,
  offer_seq: z.int().min(1),
  status: DealStatusSchema,
  /** The status's label (DONE, PENDING), shown once as the deal's badge; `lines` start with what it means. */
  label: z.string(),
  lines: z.array(z.string()),
  /** The owners who signed, in the ledger's order. */
  signed: z.array(z.string()),
  can_sign: z.boolean(),
});
export type DealView = z.infer<typeof DealViewSchema>;

/** The owner in the loop at one table (owner-loop.ts): its seats' questions, its instructions, the room's deals, and why the questions could not be read (else null). */
export const LoopEventSchema = z.strictObject({
  type: z.literal("loop"),
  table: z.string(),
  questions: z.array(QuestionViewSchema),
  seats: z.array(SeatLoopSchema),
  deals: z.array(DealViewSchema),
  problem: z.string().nullable(),
});
export type LoopEvent = z.infer<typeof LoopEventSchema>;

/** How one of this owner's listings stands: live, or how it stopped being live (src/text/market-board.ts). */
export const ListingStandingSchema = z.enum(["live", "withdrawn", "superseded", "filled", "expired", "left"]);

/** One of this owner's listings in a market, live or ended: the member's words one safe line each, the rest trestle's (instants as ISO 8601 in UTC). */
export const MarketListingSchema = z.strictObject({
  leaf: Sha256Schema,
  seq: z.int().min(1),
  seat: z.string(),
  side: ListingSideSchema,
  title: z.string(),
  text: z.string().nullable(),
  category: z.string(),
  quantity: z.int().min(1),
  /** The quantity no recorded deal closed. */
  left: z.int().min(0),
  /** The public price range in words ("ask" when there is none). */
  price: z.string(),
  expires: z.int().min(0),
  standing: ListingStandingSchema,
  /** How it ended, in words; null while live. */
  ended: z.string().nullable(),
  /** For a listing that takes sealed bids, where they stand in words; else null. */
  sealed: z.string().nullable(),
});
export type MarketListing = z.infer<typeof MarketListingSchema>;

/** Where the room of a match stands for this owner: nobody opened it, open (negotiating), a deal waiting for a signature, a deal both owners signed, closed (or deleted) with no deal, or not known (the relay did not say whether it exists). */
export const MatchRoomStateSchema = z.enum(["not_opened", "open", "deal_pending", "deal_done", "no_deal", "unknown"]);
export type MatchRoomState = z.infer<typeof MatchRoomStateSchema>;

/** One of this owner's matches in a market: both listings (this owner's first), the other side, the words they share, its room and how the room stands, and what the page may do. */
export const MarketMatchSchema = z.strictObject({
  seq: z.int().min(1),
  /** The side of this owner's listing. */
  side: ListingSideSchema,
  title: z.string(),
  their_title: z.string(),
  /** The other side's owner. */
  other: z.string(),
  words: z.array(z.string()),
  /** A sale by sealed bids: its settled price in words; null for a match by words. */
  sale: z.string().nullable(),
  quantity: z.int().min(1),
  room: TableIdSchema,
  state: MatchRoomStateSchema,
  /** The state in words, with what it rests on. */
  state_words: z.string(),
  /** This owner is a party of the room (its creator, or the side that joined). */
  entered: z.boolean(),
  /** What the page's button does (as `trestle market room`): open the room nobody opened, or enter the one the other side opened; null: nothing to do. */
  action: z.enum(["open", "enter"]).nullable(),
  /** The room's deals, from its verified ledger when this window follows the room. */
  deals: z.array(DealViewSchema),
  /** The market's deal_recorded entry for the match, else null. */
  recorded: z.int().min(1).nullable(),
});
export type MarketMatch = z.infer<typeof MarketMatchSchema>;

/** This owner's allowance across the market's rooms (docs/MARKETS.md "An owner's allowance"): the limits its market seat's mandate sets, and what the allowance store counts, read-only. */
export const AllowanceViewSchema = z.strictObject({
  /** The currency of the amounts (the mandate's allowance, else the store's), null when neither names one. */
  currency: z.string().nullable(),
  /** The mandate's `allowance.total` and `allowance.open`, and the mandate they are read from; null when no mandate of this owner's market seats in this home sets one. */
  total: z.int().min(0).nullable(),
  open_limit: z.int().min(0).nullable(),
  source: z.string().nullable(),
  spent: z.int().min(0),
  reserved: z.int().min(0),
  open: z.int().min(0),
  /** The figures in words, in the page's order: the allowance, spent, reserved, what is left (with an allowance), commitments open. */
  figures: z.array(
    z.strictObject({
      name: z.enum(["total", "spent", "reserved", "left", "open"]),
      label: z.string(),
      value: z.string(),
    }),
  ),
  /** Where the limits come from, in words. */
  lines: z.array(z.string()),
  /** Each commitment the store holds, open ones first, in words. */
  commitments: z.array(z.strictObject({ state: z.enum(["open", "spent"]), words: z.string() })),
  /** Why the store or a mandate cannot be trusted (fail closed), else null. */
  problem: z.string().nullable(),
});
export type AllowanceView = z.infer<typeof AllowanceViewSchema>;

/** A market this owner created or is a member of (src/view/markets.ts): this owner's listings (live first), matches with their rooms, and allowance. */
export const MarketEventSchema = z.strictObject({
  type: z.literal("market"),
  table: z.string(),
  topic: z.string(),
  role: z.enum(["creator", "member"]),
  public: z.boolean(),
  listings: z.array(MarketListingSchema),
  matches: z.array(MarketMatchSchema),
  allowance: AllowanceViewSchema,
  /** Why a room's presence could not be read, else null. */
  problem: z.string().nullable(),
});
export type MarketEvent = z.infer<typeof MarketEventSchema>;

/** An event on the live stream (`GET /api/stream`, one JSON object per line). */
export const ViewEventSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("hello"),
    owner: z.string(),
    owner_key: z.string(),
    relay: z.string(),
    relay_key: z.string(),
  }),
  z.strictObject({ type: z.literal("table"), summary: TableSummarySchema }),
  /** New transcript entries of `table`; with `reset`, they replace what the page holds. */
  z.strictObject({
    type: z.literal("entries"),
    table: z.string(),
    reset: z.boolean(),
    items: z.array(EntryViewSchema),
  }),
  z.strictObject({ type: z.literal("channels"), channels: z.array(ChannelViewSchema), error: z.string().nullable() }),
  z.strictObject({ type: z.literal("evidence"), items: z.array(EvidenceViewSchema) }),
  /** The newest records of this owner's seats' private journals, newest first, and how many lines could not be read. */
  z.strictObject({ type: z.literal("local"), items: z.array(LocalItemSchema), unreadable: z.int().min(0) }),
  LoopEventSchema,
  MarketEventSchema,
  z.strictObject({ type: z.literal("ping") }),
]);
export type ViewEvent = z.infer<typeof ViewEventSchema>;

/** `POST /api/approve`: sign `verdict` on this owner's task with the owner key. */
export const ApproveBodySchema = z.strictObject({
  table: TableIdSchema,
  task: TaskIdSchema,
  verdict: ApprovalVerdictSchema,
});
export type ApproveBody = z.infer<typeof ApproveBodySchema>;

/** `POST /api/control`: sign a pause of the table as its owner, or lift this owner's own pause. */
export const ControlBodySchema = z.strictObject({ table: TableIdSchema, action: ControlActionSchema });
export type ControlBody = z.infer<typeof ControlBodySchema>;

/** `POST /api/revoke`: sign a revocation of one of this owner's seats at the table (as `trestle revoke`). */
export const RevokeBodySchema = z.strictObject({ table: TableIdSchema, seat: SeatNameSchema });
export type RevokeBody = z.infer<typeof RevokeBodySchema>;

/** `POST /api/gate`: sign the owner's answer to a message the commitment gate holds for one of this owner's seats (as `trestle gate approve|reject`). */
export const GateBodySchema = z.strictObject({
  table: TableIdSchema,
  seat: SeatNameSchema,
  message_sha256: Sha256Schema,
  verdict: ApprovalVerdictSchema,
});
export type GateBody = z.infer<typeof GateBodySchema>;

/** The answer to `POST /api/gate`: recorded in the seat's journal (not the ledger), in words. */
export const GateResultSchema = z.strictObject({
  ok: z.literal(true),
  message_sha256: Sha256Schema,
  verdict: ApprovalVerdictSchema,
  message: z.string(),
});
export type GateResult = z.infer<typeof GateResultSchema>;

/** The answer to an action: the entry it became, in words. */
export const ActionResultSchema = z.strictObject({ ok: z.literal(true), seq: z.int().min(1), message: z.string() });
export type ActionResult = z.infer<typeof ActionResultSchema>;

/** `POST /api/answer`: sign this owner's answer to its seat's question: the choice's index, or free text. */
export const AnswerBodySchema = z.strictObject({
  table: TableIdSchema,
  question: NonceSchema,
  answer: z.union([
    z.strictObject({
      choice: z
        .int()
        .min(0)
        .max(OWNER_ASK_LIMITS.choices - 1),
    }),
    z.strictObject({ text: z.string().min(1).max(LIMITS.note_chars) }),
  ]),
});
export type AnswerBody = z.infer<typeof AnswerBodySchema>;

/** `POST /api/instruct`: sign an instruction to one of this owner's seats (as `trestle instruct`). */
export const InstructBodySchema = z.strictObject({
  table: TableIdSchema,
  seat: SeatNameSchema,
  text: z.string().min(1).max(LIMITS.note_chars),
});
export type InstructBody = z.infer<typeof InstructBodySchema>;

/** `POST /api/deal`: sign the deal on accepted offer `offer` (its entry hash) with the owner key; this owner's seat in it records the signature (as `trestle deal sign`). */
export const DealBodySchema = z.strictObject({ table: TableIdSchema, offer: Sha256Schema });
export type DealBody = z.infer<typeof DealBodySchema>;

/** The answer to one decision an agent asked the owner for (decisions.ts), from the page opened at its link. */
export const DecisionBodySchema = z.strictObject({ verdict: z.enum(["approve", "decline"]) });
export type DecisionBody = z.infer<typeof DecisionBodySchema>;

/** One decision as the page shows it (decisions.ts DecisionView): safe lines the server wrote, where it stands. */
export const DecisionViewSchema = z.strictObject({
  title: z.string(),
  lines: z.array(z.string()),
  approve: z.string(),
  state: z.enum(["pending", "signing", "approved", "declined", "failed", "expired", "cancelled"]),
  problem: z.string().nullable(),
  expires_at: z.int(),
});
export type DecisionViewWire = z.infer<typeof DecisionViewSchema>;

/** The answer to an answer, instruction or deal signature, in words. */
export const LoopResultSchema = z.strictObject({ ok: z.literal(true), message: z.string() });
export type LoopResult = z.infer<typeof LoopResultSchema>;

/** `POST /api/market-room`: open or enter the room of this owner's match `match` (its entry's seq) in market `table`, seating its bot (as `trestle market room`). */
export const MarketRoomBodySchema = z.strictObject({
  table: TableIdSchema,
  match: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
});
export type MarketRoomBody = z.infer<typeof MarketRoomBodySchema>;

/** `POST /api/reconcile`: bring this owner's allowance in market `table` up to date from its rooms' verified ledgers (as `trestle allowance reconcile`). */
export const ReconcileBodySchema = z.strictObject({ table: TableIdSchema });
export type ReconcileBody = z.infer<typeof ReconcileBodySchema>;
