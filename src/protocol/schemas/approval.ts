/**
 * Owner approvals (docs/SPEC.md §5.6): the owner signs {table, task, proposal, effects_sha256,
 * verdict, nonce} with the owner key (purpose `approval`), bound to exactly one proposal entry (its
 * leaf hash) and exactly that owner's effects (their hash). Each nonce is accepted once per owner.
 */
import * as z from "zod";
import { NonceSchema, OwnerNameSchema, Sha256Schema, SignatureSchema, TableIdSchema } from "./primitives.js";
import { ApprovalVerdictSchema, TaskIdSchema } from "./task.js";

/** What the owner signs (purpose `approval`). */
export const ApprovalStatementSchema = z.strictObject({
  table: TableIdSchema,
  task: TaskIdSchema,
  /** Leaf hash of the proposal or decision entry that opened the task. */
  proposal: Sha256Schema,
  /** SHA-256 of the JCS of this owner's effects, in the proposal's order. */
  effects_sha256: Sha256Schema,
  verdict: ApprovalVerdictSchema,
  nonce: NonceSchema,
});
export type ApprovalStatement = z.infer<typeof ApprovalStatementSchema>;

/** POST /tables/:id/approvals body (and the owner socket's `approve` frame payload). */
export const ApprovalRequestSchema = z.strictObject({
  approval: ApprovalStatementSchema,
  owner: OwnerNameSchema,
  sig: SignatureSchema,
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;
