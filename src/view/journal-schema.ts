/**
 * MIRROR, TO RECONCILE ON MERGE: the records of a seat's private journal that the principal window
 * shows, as branch `rooms` defines them in src/owner/records.ts (JournalRecordSchema) and
 * src/owner/paths.ts (`<home>/private/<table>/<seat>.jsonl`, one JSON record per line). That file
 * builds on protocol schemas main does not have yet, so this one repeats the four shapes the window
 * reads (private rationale, notes to the owner, guard refusals, messages held for the owner) with
 * the protocol's primitives; error codes are any `E_…` name, since the owner-side codes (E_MANDATE,
 * E_HELD, E_GATE) arrive with rooms. When both are on one branch, import JournalRecordSchema and
 * seatFiles from src/owner instead and delete this file; journal-reader.ts is the only user.
 */
import { z } from "zod";
import { MillisSchema, SeatNameSchema, SeqSchema, Sha256Schema, TableIdSchema } from "../protocol/index.js";

const Base = { v: z.literal(1), at: MillisSchema, table: TableIdSchema, seat: SeatNameSchema };
const Text = z.string().min(1).max(4000);
const Code = z.string().regex(/^E_[A-Z_]{1,40}$/);

/** Why the agent did something: stays on this machine, for the owner (rooms: RationaleRecordSchema). */
export const RationaleRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("rationale"),
  text: Text,
  re: z.strictObject({ seq: SeqSchema.optional(), message_sha256: Sha256Schema.optional() }).optional(),
});

/** A note the agent sent its owner's chat apps, never the table (rooms: NoteRecordSchema). */
export const NoteRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("owner_note"),
  text: Text,
  id: z.string().optional(),
  queued: z.int().min(0).optional(),
  error: Code.optional(),
});

/** What an owner-side guard refused to send, and why (rooms: RefusalRecordSchema). */
export const RefusalRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("refusal"),
  guard: z.enum(["mandate", "disclosure", "gate"]),
  code: Code,
  reason: z.string().min(1).max(64),
  message: z.string().max(2000),
  kind: z.string().max(64),
  message_sha256: Sha256Schema,
  detail: z.record(z.string(), z.unknown()).optional(),
});

/** A message held until the owner approves that exact message (rooms: HeldRecordSchema). */
export const HeldRecordSchema = z.strictObject({
  ...Base,
  type: z.literal("held"),
  message_sha256: Sha256Schema,
  why: z.enum(["require_confirm", "loosened"]),
  submission: z.record(z.string(), z.unknown()),
});

/** The journal's other record types (gate answers, sends): valid lines the window does not show. */
export const UNSHOWN_TYPES: ReadonlySet<string> = new Set(["gate_answer", "sent", "send_failed"]);

/** A journal record the window shows. */
export const ShownRecordSchema = z.discriminatedUnion("type", [RationaleRecordSchema, NoteRecordSchema, RefusalRecordSchema, HeldRecordSchema]);
export type ShownRecord = z.infer<typeof ShownRecordSchema>;
