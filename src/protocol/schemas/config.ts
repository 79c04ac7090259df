/**
 * The table config (BYOB Table Protocol v0.1 shape, extended; docs/SPEC.md §3): who owns the
 * table, which seats exist, the topology, floor rules and termination. It is the body of the
 * first ledger entry, so it is strict: no key a signature covers can be dropped or added.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { membersAtMost, OwnerNameSchema, PublicKeySchema, SeatNameSchema, TableIdSchema } from "./primitives.js";
import { TopologySchema } from "./topology.js";
import { AutoApproveRuleSchema } from "./task.js";
import { VisibilitySchema } from "./visibility.js";
import { RoomConfigSchema } from "./room.js";
import { WitnessesSchema } from "./witnesses.js";
import { MarketConfigSchema } from "./market.js";

/**
 * Room news (§11.3): which room events reach an owner's chat apps: `all` (offers, counters and
 * rejections too), `commitments` (accepts, deals, held messages, settlements, ejections; the
 * default) or `none`.
 */
export const RoomNewsSettingSchema = z.enum(["all", "commitments", "none"]);
export type RoomNewsSetting = z.infer<typeof RoomNewsSettingSchema>;

/** One owner: a principal whose key signs joins and approvals. */
export const OwnerConfigSchema = z.strictObject({
  public_key: PublicKeySchema,
  /** Commit gateway (§5.6): "async" accepts that approvals wait with nobody online; default "live". */
  approvals: z.enum(["live", "async"]).optional(),
  /** Commit gateway (§5.6): standing approvals; they count once this owner signed the config. */
  auto_approve: z.array(AutoApproveRuleSchema).min(1).max(LIMITS.auto_approve_rules).optional(),
  /** Chat apps (§5.6): effects a relay-attested tap may approve; like auto_approve, they count once this owner signed the config. */
  chat_approve: z.array(AutoApproveRuleSchema).min(1).max(LIMITS.chat_approve_rules).optional(),
  /** Room news (§11.3): which room events this owner's chat apps get; default `commitments`. */
  room_news: RoomNewsSettingSchema.optional(),
});
export type OwnerConfig = z.infer<typeof OwnerConfigSchema>;

/** A declared seat: which owner may fill it, and whether a human operates it. */
export const SeatConfigSchema = z.strictObject({
  owner: OwnerNameSchema,
  human: z.boolean().optional(),
});
export type SeatConfig = z.infer<typeof SeatConfigSchema>;

/** Floor rules: per-entry character budget, bot-only run length, who may decide. */
export const FloorConfigSchema = z.strictObject({
  max_chars: z.int().min(1).max(LIMITS.max_chars_ceiling).optional(),
  max_bot_depth: z.int().min(1).max(1000).optional(),
  decision_by: z.union([z.literal("any"), z.array(SeatNameSchema).min(1).max(LIMITS.seats)]).optional(),
});
export type FloorConfig = z.infer<typeof FloorConfigSchema>;

/** Who votes towards a quorum: each present seat, or each owner with a present seat (one vote per owner). */
export const ElectorateSchema = z.enum(["seats", "owners"]);
export type Electorate = z.infer<typeof ElectorateSchema>;

/** A quorum: at least `n` yes votes, or at least `fraction` (num/den, integers) of the electorate. */
export const QuorumSchema = z.union([
  z.strictObject({ n: z.int().min(1).max(LIMITS.seats), of: ElectorateSchema }),
  z.strictObject({
    fraction: z
      .strictObject({ num: z.int().min(1).max(1000), den: z.int().min(1).max(1000) })
      .refine((f) => f.num <= f.den, { message: "a fraction is at most 1 (num <= den)" }),
    of: ElectorateSchema,
  }),
]);
export type Quorum = z.infer<typeof QuorumSchema>;

/** One termination condition; the table closes when any listed condition fires. */
export const TerminationConditionSchema = z.union([
  z.literal("decision"),
  z.literal("rounds_exhausted"),
  z.strictObject({ budget_tokens: z.int().min(1).max(1_000_000_000) }),
  z.strictObject({ max_entries: z.int().min(1).max(LIMITS.entries) }),
  z.strictObject({ quorum: QuorumSchema }),
]);
export type TerminationCondition = z.infer<typeof TerminationConditionSchema>;

/** Termination: mandatory, at least one condition. */
export const TerminationSchema = z.strictObject({
  any: z.array(TerminationConditionSchema).min(1).max(8),
});
export type Termination = z.infer<typeof TerminationSchema>;

/** The whole table config as written by its creator. */
export const TableConfigSchema = z.strictObject({
  id: TableIdSchema,
  topic: z.string().min(1).max(LIMITS.topic_chars),
  owners: z
    .record(OwnerNameSchema, OwnerConfigSchema)
    .refine((o) => Object.keys(o).length >= 1, { message: "at least 1 owner" })
    .superRefine(membersAtMost(LIMITS.owners, "owners")),
  seats: z.record(SeatNameSchema, SeatConfigSchema).superRefine(membersAtMost(LIMITS.seats, "seats")).optional(),
  topology: TopologySchema,
  floor: FloorConfigSchema.optional(),
  termination: TerminationSchema,
  watchdog: z
    .strictObject({ heartbeat_ms: z.int().min(LIMITS.heartbeat_ms_min).max(LIMITS.heartbeat_ms_max) })
    .optional(),
  /** The table this one is a sub-table of (opened through the parent, docs/SPEC.md §5.9). */
  parent: TableIdSchema.optional(),
  /** Per-seat read rules (docs/SPEC.md §5.3). */
  visibility: VisibilitySchema.optional(),
  /** Anyone may read the whole ledger without authorization, as an owner reads it (docs/SPEC.md §6.4). */
  public: z.boolean().optional(),
  /** The table is a room (docs/SPEC.md §5.10): open topology, owners joined by invite, room kinds allowed. */
  room: RoomConfigSchema.optional(),
  /** The table is a market (docs/SPEC.md §5.15): open topology, members admitted by invite, listings and matches. */
  market: MarketConfigSchema.optional(),
  /** The witnesses the relay submits the table's checkpoints to, and how many a reader requires (docs/SPEC.md §12). */
  witnesses: WitnessesSchema.optional(),
});
export type TableConfig = z.infer<typeof TableConfigSchema>;
