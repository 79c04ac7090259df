/**
 * HTTP response bodies (docs/SPEC.md §6): what each route returns on success. Errors always use
 * the one error envelope from errors.ts.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { EntrySchema } from "./entry.js";
import { HiddenEntrySchema } from "./export.js";
import { SignedHeadSchema } from "./head.js";
import { PublicKeySchema, SeatNameSchema, SeqSchema, TableIdSchema } from "./primitives.js";
import { ProjectionSchema } from "./projection.js";
import { TaskIdSchema, TaskStateSchema, TaskStatusSchema } from "./task.js";

/** POST /tables: the new table and its first head. */
export const CreateResponseSchema = z.strictObject({ table: TableIdSchema, head: SignedHeadSchema });
export type CreateResponse = z.infer<typeof CreateResponseSchema>;

/** POST /tables/:id/join: the seat and the seq of its seat_joined entry. */
export const JoinResponseSchema = z.strictObject({ seat: SeatNameSchema, seq: SeqSchema, head: SignedHeadSchema });
export type JoinResponse = z.infer<typeof JoinResponseSchema>;

/** POST /tables/:id/entries: the entry's seq (the same seq again for a retried submission). */
export const SubmitResponseSchema = z.strictObject({
  seq: SeqSchema,
  truncated: z.boolean(),
  head: SignedHeadSchema,
});
export type SubmitResponse = z.infer<typeof SubmitResponseSchema>;

/** GET /tables/:id/entries: a page of entries, hidden ones as leaf hashes. */
export const EntriesResponseSchema = z.strictObject({
  items: z.array(z.union([EntrySchema, HiddenEntrySchema])),
  next: SeqSchema.nullable(),
  head: SignedHeadSchema,
});
export type EntriesResponse = z.infer<typeof EntriesResponseSchema>;

/** POST /tables/:id/approvals: the approval's seq and the task's state after it (§5.6). */
export const ApproveResponseSchema = z.strictObject({
  seq: SeqSchema,
  task: TaskIdSchema,
  state: TaskStatusSchema,
  head: SignedHeadSchema,
});
export type ApproveResponse = z.infer<typeof ApproveResponseSchema>;

/**
 * GET /tables/:id/tasks: tasks in opening order after `after`; `next` is the `after` of the next
 * page; `head` is the relay-signed head the task states were computed at (§7), so a client can
 * check the read against the head it holds.
 */
export const TasksResponseSchema = z.strictObject({
  items: z.array(TaskStateSchema),
  next: SeqSchema.nullable(),
  head: SignedHeadSchema,
});
export type TasksResponse = z.infer<typeof TasksResponseSchema>;

/** GET /tables/:id/projection: the seat's projection and the relay-signed head it was computed at (§7). */
export const ProjectionResponseSchema = ProjectionSchema.extend({ head: SignedHeadSchema });
export type ProjectionResponse = z.infer<typeof ProjectionResponseSchema>;

/** GET /.well-known/trestle.json; `version` and `features` are optional so older relays still parse. */
export const WellKnownSchema = z.strictObject({
  protocol: z.literal("trestle/0.1"),
  relay_key: PublicKeySchema,
  limits: z.record(z.string(), z.number()),
  /** The relay's software version (semver). */
  version: z.string().min(1).max(64).optional(),
  /** What this relay offers beyond the protocol's core (docs/SPEC.md §6.1). */
  features: z.array(z.string().min(1).max(64)).max(64).optional(),
});
export type WellKnown = z.infer<typeof WellKnownSchema>;

/** The limits as published. */
export const PUBLISHED_LIMITS: Record<string, number> = { ...LIMITS };
