/**
 * Visibility rules (docs/SPEC.md §5.3): per seat, which authors' and which kinds' entries it may
 * read. A seat without a rule reads everything; owners always read everything (decision 0003).
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { membersAtMost, SeatNameSchema } from "./primitives.js";
import { RoomKindSchema } from "./room.js";
import { MarketKindSchema } from "./market.js";

/** Entry kinds a rule can name; every system entry is `system`, except relay-recorded decisions (`decision`); the room and market kinds are RoomKindSchema's and MarketKindSchema's. */
export const VisibleKindSchema = z.enum([
  "say",
  "pass",
  "raise_hand",
  "proposal",
  "decision",
  "vote",
  "approval",
  "progress",
  "receipt",
  "verify",
  "request",
  "response",
  // Rooms (§5.10).
  ...RoomKindSchema.options,
  // Markets (§5.15).
  ...MarketKindSchema.options,
  "system",
]);
export type VisibleKind = z.infer<typeof VisibleKindSchema>;

/** One seat's rule: entries it reads must be by one of `seats` (when set) and of one of `kinds` (when set). */
export const VisibilityRuleSchema = z.strictObject({
  seats: z
    .array(SeatNameSchema)
    .max(LIMITS.seats)
    .refine((xs) => new Set(xs).size === xs.length, "seat names must be distinct")
    .optional(),
  kinds: z
    .array(VisibleKindSchema)
    .max(VisibleKindSchema.options.length)
    .refine((xs) => new Set(xs).size === xs.length, "kinds must be distinct")
    .optional(),
});
export type VisibilityRule = z.infer<typeof VisibilityRuleSchema>;

/** Rules by seat name; seats not listed read everything. */
export const VisibilitySchema = z
  .record(SeatNameSchema, VisibilityRuleSchema)
  .superRefine(membersAtMost(LIMITS.seats, "rules"));
export type Visibility = z.infer<typeof VisibilitySchema>;
