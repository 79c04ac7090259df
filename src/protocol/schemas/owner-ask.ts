/**
 * A seat and its own owner, apart from the room (docs/SPEC.md §5.14, docs/ROOMS.md, decision 0403):
 * a seat's question to its owner (purpose `question`), the owner's answer (purpose `answer`, or
 * relay-attested from a bound chat account), and the owner's instruction to the seat (purpose
 * `instruction`, or relay-attested from chat). None of them is a ledger entry: the relay keeps them
 * for the seat and its owner alone, and in an end-to-end encrypted room every text in them is
 * sealed (§5.12), so the relay holds nothing it can read.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { isSealedText, sealedChars } from "../signing/sealed-text.js";
import { ChatPlatformSchema } from "./control.js";
import {
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  SeatNameSchema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";

/** How long a question may wait for its answer, and how many choices it may offer. */
export const OWNER_ASK_LIMITS = { max_wait_ms: 24 * 60 * 60 * 1000, choices: 8, choice_chars: 64 } as const;

/**
 * Text of at most `chars` UTF-16 units; with `sealed` (the table is an end-to-end encrypted room,
 * §5.12) also sealed text up to the length `chars` of plaintext seals to. No other table gives that
 * allowance (decision 0448): text that only looks sealed is plain text there. Longer is E_TOO_LARGE.
 * The exported statement schemas are the wire form (sealed allowed); a table parses a request with
 * its own (`ownerRequestsFor`, `noteRequestFor`).
 */
export function ownerText(chars: number, what: string, sealed: boolean) {
  const tooLong = (length: number) => `${what} is at most ${chars} chars, not ${length}`;
  if (!sealed)
    return z
      .string()
      .min(1)
      .max(chars, { error: (issue) => tooLong(String(issue.input).length) });
  return z
    .string()
    .min(1)
    .max(sealedChars(chars))
    .superRefine((t, ctx) => {
      if (t.length > chars && !isSealedText(t)) {
        ctx.addIssue({
          code: "too_big",
          origin: "string",
          maximum: chars,
          inclusive: true,
          message: tooLong(t.length),
        });
      }
    });
}

/** A seat's question as a table takes it; `sealed`: an e2e room's, whose texts may be sealed. */
function questionStatement(sealed: boolean) {
  return z
    .strictObject({
      scope: z.literal("owner_question"),
      table: TableIdSchema,
      seat: SeatNameSchema,
      question: NonceSchema,
      text: ownerText(LIMITS.note_chars, "a question", sealed),
      /** Absent: a free-text answer. Present: the answer is exactly one of these (2-8, distinct). */
      choices: z
        .array(ownerText(OWNER_ASK_LIMITS.choice_chars, "a choice", sealed))
        .min(2)
        .max(OWNER_ASK_LIMITS.choices)
        .optional(),
      deadline: MillisSchema,
      ts: MillisSchema,
    })
    .refine((q) => q.choices === undefined || new Set(q.choices).size === q.choices.length, {
      message: "choices are distinct",
      path: ["choices"],
    })
    .refine((q) => q.deadline > q.ts && q.deadline - q.ts <= OWNER_ASK_LIMITS.max_wait_ms, {
      message: `the deadline is after the question's time and at most ${OWNER_ASK_LIMITS.max_wait_ms / 3_600_000} h later`,
      path: ["deadline"],
    });
}

/** What a seat signs (purpose `question`) to ask its own owner; `question` (a fresh nonce) is its id at the table. */
export const QuestionStatementSchema = questionStatement(true);
export type QuestionStatement = z.infer<typeof QuestionStatementSchema>;

/** POST /tables/:id/questions body. */
export const QuestionRequestSchema = z.strictObject({ question: QuestionStatementSchema, sig: SignatureSchema });
export type QuestionRequest = z.infer<typeof QuestionRequestSchema>;

/** What every statement of an owner to its own seat names: the table, the owner and the seat. */
const OWNER_TO_SEAT = { table: TableIdSchema, owner: OwnerNameSchema, seat: SeatNameSchema };

/** The owner's answer as a table takes it; `sealed`: an e2e room's, whose answer may be sealed. */
function answerStatement(sealed: boolean) {
  return z.strictObject({
    scope: z.literal("owner_answer"),
    ...OWNER_TO_SEAT,
    question: NonceSchema,
    value: ownerText(LIMITS.note_chars, "an answer", sealed),
    ts: MillisSchema,
  });
}

/** What the seat's owner signs (purpose `answer`) to answer one question of one seat. */
export const AnswerStatementSchema = answerStatement(true);
export type AnswerStatement = z.infer<typeof AnswerStatementSchema>;

/** POST /tables/:id/questions/:q/answer body. */
export const AnswerRequestSchema = z.strictObject({ answer: AnswerStatementSchema, sig: SignatureSchema });
export type AnswerRequest = z.infer<typeof AnswerRequestSchema>;

/** An answer as the seat receives it: signed by the owner key (verified), or the relay's word that a bound chat account gave it (unverified). */
export const OwnerAnswerSchema = z.discriminatedUnion("verified", [
  z.strictObject({
    verified: z.literal(true),
    via: z.literal("owner_key"),
    value: z.string(),
    at: MillisSchema,
    answer: AnswerStatementSchema,
    sig: SignatureSchema,
  }),
  z.strictObject({ verified: z.literal(false), via: ChatPlatformSchema, value: z.string(), at: MillisSchema }),
]);
export type OwnerAnswer = z.infer<typeof OwnerAnswerSchema>;

/** Where a question stands: open until its deadline, then expired unless answered. */
export const QuestionStateSchema = z.enum(["open", "answered", "expired"]);
export type QuestionState = z.infer<typeof QuestionStateSchema>;

/** A question as the relay keeps it (GET /tables/:id/questions[/:q]): the seat's signed question, its state and its answer once given. */
export const QuestionRecordSchema = z.strictObject({
  question: QuestionStatementSchema,
  sig: SignatureSchema,
  state: QuestionStateSchema,
  answer: OwnerAnswerSchema.optional(),
});
export type QuestionRecord = z.infer<typeof QuestionRecordSchema>;

/** POST /tables/:id/questions answer: the question's id, its deadline and how many of the owner's chat channels it was queued for. */
export const QuestionResponseSchema = z.strictObject({
  question: NonceSchema,
  deadline: MillisSchema,
  queued: z.int().min(0),
});
export type QuestionResponse = z.infer<typeof QuestionResponseSchema>;

/** GET /tables/:id/questions answer: the reader's questions (a seat's own, or every seat's of an owner), oldest first. */
export const QuestionListSchema = z.strictObject({ questions: z.array(QuestionRecordSchema) });
export type QuestionList = z.infer<typeof QuestionListSchema>;

/** An owner's instruction as a table takes it; `sealed`: an e2e room's, whose text may be sealed. */
function instructionStatement(sealed: boolean) {
  return z.strictObject({
    scope: z.literal("owner_instruction"),
    ...OWNER_TO_SEAT,
    text: ownerText(LIMITS.note_chars, "an instruction", sealed),
    nonce: NonceSchema,
    ts: MillisSchema,
  });
}

/** What an owner signs (purpose `instruction`) to tell one of its own seats what to do. */
export const InstructionStatementSchema = instructionStatement(true);
export type InstructionStatement = z.infer<typeof InstructionStatementSchema>;

/** POST /tables/:id/instructions body. */
export const InstructionRequestSchema = z.strictObject({
  instruction: InstructionStatementSchema,
  sig: SignatureSchema,
});
export type InstructionRequest = z.infer<typeof InstructionRequestSchema>;

/** An instruction as its seat receives it, numbered from 1 per seat: owner-signed (verified) or relay-attested from chat (unverified). */
export const OwnerInstructionSchema = z.discriminatedUnion("verified", [
  z.strictObject({
    n: z.int().min(1),
    verified: z.literal(true),
    via: z.literal("owner_key"),
    text: z.string(),
    at: MillisSchema,
    instruction: InstructionStatementSchema,
    sig: SignatureSchema,
  }),
  z.strictObject({
    n: z.int().min(1),
    verified: z.literal(false),
    via: ChatPlatformSchema,
    text: z.string(),
    at: MillisSchema,
  }),
]);
export type OwnerInstruction = z.infer<typeof OwnerInstructionSchema>;

/** GET /tables/:id/instructions?after=N answer: the reading seat's instructions numbered after N. */
export const InstructionListSchema = z.strictObject({ instructions: z.array(OwnerInstructionSchema) });
export type InstructionList = z.infer<typeof InstructionListSchema>;

/** POST /tables/:id/instructions answer: the instruction's number for its seat. */
export const InstructionResponseSchema = z.strictObject({ n: z.int().min(1) });
export type InstructionResponse = z.infer<typeof InstructionResponseSchema>;

/** The three requests as an end-to-end encrypted room takes them: texts plain within the limits, or sealed. */
const E2E_REQUESTS = {
  question: QuestionRequestSchema,
  answer: AnswerRequestSchema,
  instruction: InstructionRequestSchema,
};

/** The three requests as every other table takes them: texts plain within the limits, whatever their shape. */
const PLAIN_REQUESTS = {
  question: z.strictObject({ question: questionStatement(false), sig: SignatureSchema }),
  answer: z.strictObject({ answer: answerStatement(false), sig: SignatureSchema }),
  instruction: z.strictObject({ instruction: instructionStatement(false), sig: SignatureSchema }),
};

/** The three requests a table parses, as plain types (the published declarations spell no zod object type). */
export interface OwnerRequestSchemas {
  question: z.ZodType<QuestionRequest>;
  answer: z.ZodType<AnswerRequest>;
  instruction: z.ZodType<InstructionRequest>;
}

/** The question, answer and instruction requests as a table takes them (decision 0448): sealed text's larger allowance only when `e2e`. */
export function ownerRequestsFor(e2e: boolean): OwnerRequestSchemas {
  return e2e ? E2E_REQUESTS : PLAIN_REQUESTS;
}

/** An answer's text as a table takes it from a chat app (plain: a chat never answers in an e2e room). */
export const PlainAnswerValueSchema: z.ZodType<string> = answerStatement(false).shape.value;

/** An instruction's text as a table takes it from a chat app (plain: a chat never instructs in an e2e room). */
export const PlainInstructionTextSchema: z.ZodType<string> = instructionStatement(false).shape.text;
