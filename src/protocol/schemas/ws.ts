/**
 * WebSocket frames on /tables/:id/ws (docs/SPEC.md §6.3). The relay opens with a challenge; the
 * seat answers with a signature over it; then the relay pushes every visible new entry with the
 * new signed head, and accepts submissions. `{"type":"ping"}` is answered `{"type":"pong"}` by the
 * runtime without waking the table.
 */
import * as z from "zod";
import { ErrorEnvelopeSchema } from "../errors.js";
import { EntrySchema, SubmitRequestSchema } from "./entry.js";
import { HiddenEntrySchema } from "./export.js";
import { SignedHeadSchema } from "./head.js";
import { OwnerNameSchema, SeatNameSchema, SeqSchema, SignatureSchema, TableIdSchema } from "./primitives.js";
import { ApprovalRequestSchema } from "./approval.js";

/** Exact ping frame text and its automatic answer. */
export const PING_FRAME = '{"type":"ping"}';
export const PONG_FRAME = '{"type":"pong"}';

/** The `id` a client gives a submit or approve frame; the relay's ack or error repeats it. */
export const FrameIdSchema = z.string().min(1).max(64);

/** Any JSON object with a usable `id`: how the relay addresses its error to a frame that did not parse (§6.3). */
export const FrameWithIdSchema = z.looseObject({ id: FrameIdSchema });

/** Frames a client sends. */
export const ClientFrameSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("auth"),
    seat: SeatNameSchema,
    sig: SignatureSchema,
    cursor: z.int().min(0).optional(),
  }),
  z.strictObject({
    type: z.literal("submit"),
    id: FrameIdSchema,
    request: SubmitRequestSchema,
  }),
  // Owner sessions (§6.3): the owner key answers the challenge; the session may approve.
  z.strictObject({
    type: z.literal("owner_auth"),
    owner: OwnerNameSchema,
    sig: SignatureSchema,
    cursor: z.int().min(0).optional(),
  }),
  z.strictObject({
    type: z.literal("approve"),
    id: FrameIdSchema,
    request: ApprovalRequestSchema,
  }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** Frames the relay sends. */
export const ServerFrameSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("challenge"), table: TableIdSchema, challenge: z.string() }),
  z.strictObject({ type: z.literal("welcome"), seat: SeatNameSchema, cursor: z.int().min(0), head: SignedHeadSchema }),
  z.strictObject({
    type: z.literal("owner_welcome"),
    owner: OwnerNameSchema,
    cursor: z.int().min(0),
    head: SignedHeadSchema,
  }),
  z.strictObject({
    type: z.literal("entries"),
    items: z.array(z.union([EntrySchema, HiddenEntrySchema])),
    head: SignedHeadSchema,
  }),
  z.strictObject({ type: z.literal("ack"), id: z.string(), seq: SeqSchema, head: SignedHeadSchema }),
  z.strictObject({ type: z.literal("error"), id: z.string().optional(), error: ErrorEnvelopeSchema.shape.error }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
