/**
 * The commit gateway's wire types (docs/SPEC.md §5.6): effects a proposal or decision asks for,
 * task ids and states, owner auto-approve rules, and the request/response protocol's labels.
 * Effects are signed with the submission, so they are strict and bounded.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import {
  canonicalAtMost,
  OwnerNameSchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  MillisSchema,
} from "./primitives.js";
import { ChatPlatformSchema } from "./control.js";

/** A resource of an owner: 1-128 of `[a-z0-9._:/@-]`, starting alphanumeric (`taskboard`, `github:tao/app`). */
export const ResourceSchema = z.string().regex(/^[a-z0-9][a-z0-9._:/@-]{0,127}$/, "resource: 1-128 of [a-z0-9._:/@-]");

/** An action on a resource: 1-64 of `[a-z0-9_.:-]`, starting alphanumeric (`create_card`, `merge`). */
export const ActionSchema = z.string().regex(/^[a-z0-9][a-z0-9_.:-]{0,63}$/, "action: 1-64 of [a-z0-9_.:-]");

/** A pattern over resources or actions: the same alphabet plus `*`, which matches any run of characters. */
export const PatternSchema = z
  .string()
  .regex(/^[a-z0-9*][a-z0-9._:/@*-]{0,127}$/, "pattern: 1-128 of [a-z0-9._:/@-] and *");

/** Argument keys start with a letter, so no key can mean anything to a JavaScript object. */
const ArgKeySchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, "argument key: 1-64 of [A-Za-z0-9_.-], starting with a letter");

/** Zod drops an own `__proto__` key from records silently; refuse it instead, so nothing signed is lost. */
const NoProtoKey = z.custom<unknown>((v) => !(typeof v === "object" && v !== null && Object.hasOwn(v, "__proto__")), {
  message: 'the key "__proto__" is not allowed',
});

/** A JSON object with argument keys whose canonical form (§2: integers only) is at most `maxBytes` bytes. */
export function boundedJsonObject(maxBytes: number) {
  return NoProtoKey.pipe(z.record(ArgKeySchema, z.unknown())).superRefine(
    canonicalAtMost(maxBytes, "an argument object"),
  );
}

/** One effect: `action` on `owner`'s `resource`, with arguments. */
export const EffectSchema = z.strictObject({
  owner: OwnerNameSchema,
  resource: ResourceSchema,
  action: ActionSchema,
  args: boundedJsonObject(LIMITS.effect_args_bytes),
});
export type Effect = z.infer<typeof EffectSchema>;

/** The effects of one proposal or decision: 1 to LIMITS.effects. */
export const EffectsSchema = z.array(EffectSchema).min(1).max(LIMITS.effects);

/** An owner's rule (`auto_approve`, `chat_approve`): it matches effects whose resource and action both match its patterns. */
export const AutoApproveRuleSchema = z.strictObject({ resource: PatternSchema, action: PatternSchema });
export type AutoApproveRule = z.infer<typeof AutoApproveRuleSchema>;

/** Task id `<seq>.<owner>`: the proposal's seq and the owner whose effects the task carries. */
export const TaskIdSchema = z.string().regex(/^[1-9][0-9]{0,15}\.[a-z0-9][a-z0-9._-]{0,63}$/, "task id: <seq>.<owner>");
export type TaskId = z.infer<typeof TaskIdSchema>;

/** Every state a task can be in; verified, rejected and failed are final. */
export const TaskStatusSchema = z.enum([
  "awaiting_approval",
  "approved",
  "running",
  "reported",
  "verified",
  "rejected",
  "stalled",
  "failed",
]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** What moved a task: an owner rule, an owner's approval, the executor's entries, a verifier, or the watchdog. */
export const TaskReasonSchema = z.enum(["auto_approve", "approval", "progress", "receipt", "verify", "watchdog"]);
export type TaskReason = z.infer<typeof TaskReasonSchema>;

/** An owner's answer, and a verifier's. */
export const ApprovalVerdictSchema = z.enum(["approve", "reject"]);
export type ApprovalVerdict = z.infer<typeof ApprovalVerdictSchema>;
export const VerifyVerdictSchema = z.enum(["pass", "fail"]);
export type VerifyVerdict = z.infer<typeof VerifyVerdictSchema>;

/** A chat app that relays an owner's tap: a relay-attested approval, counted only where `chat_approve` allows (§5.6). */
export const ApprovalViaSchema = z.enum(ChatPlatformSchema.options);
export type ApprovalVia = z.infer<typeof ApprovalViaSchema>;

/** Why a relay-attested approve does not count (E_NEEDS_SIGNATURE `details.reason`, §5.6). */
export const ChatRefusalSchema = z.enum(["no_rules", "not_endorsed", "not_covered"]);
export type ChatRefusal = z.infer<typeof ChatRefusalSchema>;

/** The proposal a task came from: its seq and leaf hash (what the owner's approval signs). */
export const TaskProposalSchema = z.strictObject({ seq: SeqSchema, leaf: Sha256Schema });

/** A task as the fold holds it (also served by GET /tables/:id/tasks). */
export const TaskStateSchema = z.strictObject({
  id: TaskIdSchema,
  owner: OwnerNameSchema,
  proposal: TaskProposalSchema,
  effects_sha256: Sha256Schema,
  state: TaskStatusSchema,
  /** Ledger time of the last transition, progress or resume of the table: the watchdog measures from here. */
  since: MillisSchema,
  /** The seat that first moved it to running; only it may report. */
  executor: SeatNameSchema.nullable(),
  /** Seq of its task_opened entry. */
  opened: SeqSchema,
});
export type TaskState = z.infer<typeof TaskStateSchema>;

/** Request id: 1-64 of `[A-Za-z0-9_.:-]`, starting alphanumeric; unique per table. */
export const RequestIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "request id: 1-64 of [A-Za-z0-9_.:-]");

/** Request type: `shutdown` and `plan_approval` have rules (§5.7); any other label is free-form. */
export const RequestTypeSchema = z.string().regex(/^[a-z0-9][a-z0-9_.:-]{0,63}$/, "request type: 1-64 of [a-z0-9_.:-]");

/** Request types whose response must carry a verdict. */
export const VERDICT_REQUEST_TYPES: ReadonlySet<string> = new Set(["shutdown", "plan_approval"]);
