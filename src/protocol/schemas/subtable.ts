/**
 * Sub-tables (docs/SPEC.md §5.9): a seat of a parent table opens a child table with a subset of the
 * parent's seats by signing {table, parent, config_sha256, seat}; the child's first entry carries
 * the owner-signed joins of those seats, so its ledger verifies on its own. Closing the child
 * appends one relay-signed result (its decision and the head it closed at) to the parent.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { CapabilityCardSchema } from "./card.js";
import { JoinStatementSchema } from "./join.js";
import {
  BodySchema,
  LabelSchema,
  RefSchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

/** What the opening seat signs (purpose `subtable`), with its seat key at the parent. */
export const SubtableStatementSchema = z.strictObject({
  table: TableIdSchema,
  parent: TableIdSchema,
  config_sha256: Sha256Schema,
  seat: SeatNameSchema,
});
export type SubtableStatement = z.infer<typeof SubtableStatementSchema>;

/** POST /tables/:parent/subtables body: the child config (with `parent`), the opening seat and its signature. */
export const SubtableRequestSchema = z.strictObject({
  config: z.record(z.string(), z.unknown()),
  seat: SeatNameSchema,
  sig: SignatureSchema,
});
export type SubtableRequest = z.infer<typeof SubtableRequestSchema>;

/** A seat's original owner-signed join, carried into a sub-table so it needs no new join. */
export const CarriedJoinSchema = z.strictObject({
  join: JoinStatementSchema,
  card: CapabilityCardSchema,
  sig: SignatureSchema,
});
export type CarriedJoin = z.infer<typeof CarriedJoinSchema>;

/** In a child's table_opened: the parent, where it recorded the opening, who opened it, and each seat's join. */
export const ParentLinkSchema = z.strictObject({
  table: TableIdSchema,
  seq: SeqSchema,
  opener: SeatNameSchema,
  joins: z.array(CarriedJoinSchema).min(1).max(LIMITS.seats),
});
export type ParentLink = z.infer<typeof ParentLinkSchema>;

/** The decision a closed child reports to its parent (its last decision in force). */
export const ResultDecisionSchema = z.strictObject({
  seq: SeqSchema,
  seat: SeatNameSchema,
  body: BodySchema,
  refs: z.array(RefSchema).min(1).max(LIMITS.refs).optional(),
});
export type ResultDecision = z.infer<typeof ResultDecisionSchema>;

/** What the relay signs (purpose `result`) when a child closes: the child's final (seq, link), why it closed, its decision. */
export const SubtableResultStatementSchema = z.strictObject({
  parent: TableIdSchema,
  table: TableIdSchema,
  seq: SeqSchema,
  link: Sha256Schema,
  /** The child's table_closed reason (a label, so new close reasons need no change here). */
  reason: LabelSchema,
  decision: ResultDecisionSchema.nullable(),
});
export type SubtableResultStatement = z.infer<typeof SubtableResultStatementSchema>;

/** A child-to-parent delivery (DO RPC): the statement and the relay's signature over it. */
export const SubtableResultRequestSchema = z.strictObject({
  statement: SubtableResultStatementSchema,
  sig: SignatureSchema,
});
export type SubtableResultRequest = z.infer<typeof SubtableResultRequestSchema>;
