/**
 * A seat and its own owner, client side (docs/SPEC.md §5.14): the seat asks and waits for the
 * answer, reads its owner's instructions; the owner lists its seats' questions, answers, and
 * instructs. An owner-signed answer or instruction is checked here against the owner's key when the
 * caller gives it, so a relay cannot pass off its own words as verified.
 */
import {
  parseOrThrow,
  QuestionStatementSchema,
  signAnswer,
  signInstruction,
  signQuestion,
  TrestleError,
  verifyStatement,
  type InstructionList,
  type InstructionResponse,
  type OwnerAnswer,
  type OwnerInstruction,
  type QuestionRecord,
  type QuestionResponse,
  type Signer,
} from "../protocol/index.js";
import type { HttpClient } from "./http.js";
import { randomNonce, type Clock } from "./random.js";

/** What a seat asks: the text, the choices (absent: free text), and how long it waits. */
export interface Ask {
  text: string;
  choices?: string[];
  wait_ms: number;
}

/** How the seat waits: the clock, a sleep, how often it looks, and (in an e2e room) how it seals each text. */
export interface AskWaiting {
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  poll_ms?: number;
  seal?: (plain: string) => Promise<string>;
  /** The seat's owner's public key: an answer marked verified must carry its signature. */
  owner_key?: string;
  /** Called once the relay took the question, before the wait. */
  asked?: (taken: QuestionResponse) => void;
}

/**
 * Asks `seat`'s owner and waits until the question is answered or expires; answers its last
 * record. Refused at once with E_NO_ANSWERER when the owner cannot answer now.
 */
export async function askOwner(
  http: HttpClient,
  table: string,
  seatSigner: Signer,
  seat: string,
  ask: Ask,
  waiting: AskWaiting,
): Promise<QuestionRecord> {
  const seal = waiting.seal ?? (async (plain: string) => plain);
  const text = await seal(parseOrThrow(QuestionStatementSchema.shape.text, ask.text, "question"));
  const choice = QuestionStatementSchema.shape.choices.unwrap().element;
  const choices =
    ask.choices === undefined
      ? undefined
      : await Promise.all(ask.choices.map((c) => seal(parseOrThrow(choice, c, "choice"))));
  const ts = waiting.clock();
  const request = await signQuestion(seatSigner, {
    table,
    seat,
    question: randomNonce(),
    text,
    ...(choices ? { choices } : {}),
    deadline: ts + ask.wait_ms,
    ts,
  });
  // Posted first, then reported: `asked?.(await …)` would skip the post itself when nobody listens.
  const taken = await http.askOwner(table, request);
  waiting.asked?.(taken);
  const reader = { signer: seatSigner, as: { seat } };
  for (;;) {
    const record = await http.question(table, request.question.question, reader);
    if (record.state !== "open") {
      if (record.answer && waiting.owner_key !== undefined) await checkAnswer(record.answer, waiting.owner_key);
      return record;
    }
    await waiting.sleep(Math.min(waiting.poll_ms ?? 1000, Math.max(1, record.question.deadline - waiting.clock() + 1)));
  }
}

/** The owner's signed answer `value` to question `question` of its seat `seat`. */
export async function answerQuestion(
  http: HttpClient,
  table: string,
  ownerSigner: Signer,
  owner: string,
  seat: string,
  question: string,
  value: string,
  clock: Clock,
): Promise<OwnerAnswer> {
  return http.answerQuestion(
    table,
    await signAnswer(ownerSigner, { table, owner, seat, question, value, ts: clock() }),
  );
}

/** The owner's signed instruction `text` to its seat `seat`. */
export async function instructSeat(
  http: HttpClient,
  table: string,
  ownerSigner: Signer,
  owner: string,
  seat: string,
  text: string,
  clock: Clock,
): Promise<InstructionResponse> {
  return http.instruct(
    table,
    await signInstruction(ownerSigner, { table, owner, seat, text, nonce: randomNonce(), ts: clock() }),
  );
}

/** The seat's instructions numbered after `after`, each owner-signed one checked against `ownerKey` when given (E_BAD_SIGNATURE otherwise). */
export async function readInstructions(
  http: HttpClient,
  table: string,
  seatSigner: Signer,
  seat: string,
  after: number,
  ownerKey?: string,
): Promise<InstructionList> {
  const list = await http.instructions(table, { signer: seatSigner, as: { seat } }, after);
  if (ownerKey !== undefined) for (const item of list.instructions) await checkInstruction(item, ownerKey, seat);
  return list;
}

/** Throws E_BAD_SIGNATURE unless a verified answer's statement carries its value and the owner's signature. */
async function checkAnswer(answer: OwnerAnswer, ownerKey: string): Promise<void> {
  if (!answer.verified) return;
  if (answer.answer.value !== answer.value || !(await verifyStatement(ownerKey, "answer", answer.answer, answer.sig))) {
    throw new TrestleError("E_BAD_SIGNATURE", "an answer marked verified is not signed by the owner's key");
  }
}

/** Throws E_BAD_SIGNATURE unless a verified instruction to `seat` carries its text and the owner's signature. */
async function checkInstruction(item: OwnerInstruction, ownerKey: string, seat: string): Promise<void> {
  if (!item.verified) return;
  const { instruction, sig } = item;
  if (
    instruction.text !== item.text ||
    instruction.seat !== seat ||
    !(await verifyStatement(ownerKey, "instruction", instruction, sig))
  ) {
    throw new TrestleError("E_BAD_SIGNATURE", "an instruction marked verified is not signed by the owner's key");
  }
}
