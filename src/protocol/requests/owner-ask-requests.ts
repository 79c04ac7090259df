/**
 * Building the signed requests between a seat and its own owner (docs/SPEC.md §5.14): the seat's
 * question (purpose `question`), the owner's answer (`answer`) and instruction (`instruction`).
 * Pure given the key; the caller supplies ids, nonces and times.
 */
import { signStatement, type Signer } from "../signing/crypto.js";
import { parseOrThrow } from "../errors.js";
import {
  AnswerStatementSchema,
  InstructionStatementSchema,
  QuestionStatementSchema,
  type AnswerRequest,
  type AnswerStatement,
  type InstructionRequest,
  type InstructionStatement,
  type QuestionRequest,
  type QuestionStatement,
} from "../schemas/owner-ask.js";

/** A seat's question to its owner, signed with the seat key. */
export async function signQuestion(
  seatSigner: Signer,
  fields: Omit<QuestionStatement, "scope">,
): Promise<QuestionRequest> {
  const question = parseOrThrow(QuestionStatementSchema, { scope: "owner_question", ...fields }, "question");
  return { question, sig: await signStatement(seatSigner, "question", question) };
}

/** The owner's answer to one question of one of its seats, signed with the owner key. */
export async function signAnswer(ownerSigner: Signer, fields: Omit<AnswerStatement, "scope">): Promise<AnswerRequest> {
  const answer = parseOrThrow(AnswerStatementSchema, { scope: "owner_answer", ...fields }, "answer");
  return { answer, sig: await signStatement(ownerSigner, "answer", answer) };
}

/** The owner's instruction to one of its seats, signed with the owner key. */
export async function signInstruction(
  ownerSigner: Signer,
  fields: Omit<InstructionStatement, "scope">,
): Promise<InstructionRequest> {
  const instruction = parseOrThrow(
    InstructionStatementSchema,
    { scope: "owner_instruction", ...fields },
    "instruction",
  );
  return { instruction, sig: await signStatement(ownerSigner, "instruction", instruction) };
}
