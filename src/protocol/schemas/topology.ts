/**
 * Topology configs (docs/SPEC.md §5): how the floor moves. One member per topology kind;
 * each references seats by name, and every referenced seat must be declared in `seats`.
 */
import * as z from "zod";
import { membersAtMost, SeatNameSchema } from "./primitives.js";

const Rounds = z.int().min(1).max(1000);

/** A seat or a list of seats; a single name reads as a list of one. */
const SeatOrSeats = z.union([SeatNameSchema, z.array(SeatNameSchema).min(1).max(16)]);

/** `open`: no floor; any seated seat may write at any time (rooms). */
export const OpenTopologySchema = z.strictObject({ kind: z.literal("open") });

/** `broadcast`: round-robin over `order`, for `rounds` rounds (unbounded if omitted). */
export const BroadcastTopologySchema = z.strictObject({
  kind: z.literal("broadcast"),
  order: z.array(SeatNameSchema).min(1).max(64),
  rounds: Rounds.optional(),
});

/** `debate`: pro and con alternate for `rounds` rounds, then the judge holds the floor. */
export const DebateTopologySchema = z.strictObject({
  kind: z.literal("debate"),
  pro: SeatOrSeats,
  con: SeatOrSeats,
  judge: SeatNameSchema,
  rounds: Rounds,
});

/** `pipeline`: ordered stages; each stage's output goes to the next stage, for `rounds` passes (1 if omitted). */
export const PipelineTopologySchema = z.strictObject({
  kind: z.literal("pipeline"),
  stages: z.array(SeatNameSchema).min(1).max(64),
  rounds: Rounds.optional(),
});

/** `hub_spoke`: the hub names which spoke speaks next; the floor returns to the hub after each spoke. */
export const HubSpokeTopologySchema = z.strictObject({
  kind: z.literal("hub_spoke"),
  hub: SeatNameSchema,
  spokes: z.array(SeatNameSchema).min(1).max(63),
  rounds: Rounds.optional(),
});

/** `delegation`: reporting lines from `lead`; `reports` maps each manager to its direct reports. */
export const DelegationTopologySchema = z.strictObject({
  kind: z.literal("delegation"),
  lead: SeatNameSchema,
  reports: z
    .record(SeatNameSchema, z.array(SeatNameSchema).min(1).max(16))
    .refine((r) => Object.keys(r).length >= 1, { message: "at least 1 manager" })
    .superRefine(membersAtMost(63, "managers")),
});

/** Every topology the relay runs. */
export const TopologySchema = z.discriminatedUnion("kind", [
  OpenTopologySchema,
  BroadcastTopologySchema,
  DebateTopologySchema,
  PipelineTopologySchema,
  HubSpokeTopologySchema,
  DelegationTopologySchema,
]);
export type Topology = z.infer<typeof TopologySchema>;
export type TopologyKind = Topology["kind"];

/** A seat-or-seats value as a list. */
export function seatList(value: string | readonly string[]): string[] {
  return typeof value === "string" ? [value] : [...value];
}
