/**
 * A seat's projection (docs/SPEC.md §7): a stable prefix (rules, seats with cards, decisions in
 * force) named by its hash so prompt caches keep hitting, plus the tail after the seat's cursor.
 * No timestamps, signatures or presence; long bodies are cut to a reference.
 */
import * as z from "zod";
import { CapabilityCardSchema } from "./card.js";
import { FloorConfigSchema, TerminationSchema } from "./config.js";
import { OwnerNameSchema, SeatNameSchema, SeqSchema, Sha256Schema, TableIdSchema } from "./primitives.js";
import { TopologySchema } from "./topology.js";
import { TaskIdSchema, TaskStatusSchema } from "./task.js";
import { PauseHolderSchema } from "./control.js";
import { VisibilityRuleSchema } from "./visibility.js";

/** The part of a projection that changes only on join, leave or decision. */
export const PrefixSchema = z.strictObject({
  table: TableIdSchema,
  topic: z.string(),
  rules: z.strictObject({
    topology: TopologySchema,
    floor: FloorConfigSchema.optional(),
    termination: TerminationSchema,
    /** The reading seat's own visibility rule, when it has one. */
    visibility: VisibilityRuleSchema.optional(),
  }),
  seats: z.array(
    z.strictObject({ name: SeatNameSchema, owner: OwnerNameSchema, human: z.boolean(), card: CapabilityCardSchema }),
  ),
  decisions: z.array(
    z.strictObject({
      seq: SeqSchema,
      seat: SeatNameSchema,
      body: z.string(),
      refs: z.array(z.string()).optional(),
      by: z.literal("quorum").optional(),
    }),
  ),
});
export type Prefix = z.infer<typeof PrefixSchema>;

/** One entry as a model reads it. `more` names the full entry when `body` was cut. */
export const ProjectedEntrySchema = z.strictObject({
  seq: SeqSchema,
  kind: z.string(),
  seat: SeatNameSchema.optional(),
  subkind: z.string().optional(),
  to: z.array(SeatNameSchema).optional(),
  re: SeqSchema.optional(),
  refs: z.array(z.string()).optional(),
  body: z.string().optional(),
  more: z.string().optional(),
  truncated: z.literal(true).optional(),
  choice: z.enum(["yes", "no", "abstain"]).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ProjectedEntry = z.infer<typeof ProjectedEntrySchema>;

/** An open task as a model reads it (§5.6); outside the prefix, since it changes on every transition. */
export const ProjectedTaskSchema = z.strictObject({
  id: TaskIdSchema,
  owner: OwnerNameSchema,
  state: TaskStatusSchema,
  proposal: SeqSchema,
  executor: SeatNameSchema.nullable(),
});
export type ProjectedTask = z.infer<typeof ProjectedTaskSchema>;

/** GET /tables/:id/projection response. */
export const ProjectionSchema = z.strictObject({
  table: TableIdSchema,
  seat: SeatNameSchema,
  prefix: PrefixSchema,
  prefix_sha256: Sha256Schema,
  tail: z.array(ProjectedEntrySchema),
  cursor: z.int().min(0),
  more: z.boolean(),
  floor: z.strictObject({ holder: SeatNameSchema.nullable(), round: z.int().min(0), yours: z.boolean() }),
  closed: z.string().nullable(),
  /** Every owner's pause in force, oldest first (§5.5); outside the prefix, which changes only on seat and decision changes. */
  pauses: z.array(PauseHolderSchema),
  tasks: z.array(ProjectedTaskSchema),
});
export type Projection = z.infer<typeof ProjectionSchema>;
