/**
 * A seat's question to its own owner and the owner's answer (docs/SPEC.md §5.14, decision 0403).
 * Neither is a ledger entry: the question is kept in this object's storage under `ask:q:<id>`
 * (so it survives eviction) and read only by the asking seat and its owner. A question is taken
 * only if somebody can answer it now, as with approvals (§5.6): the owner has a live owner
 * session here (trestle view, watch --owner, an MCP owner session) or, outside an e2e room, a
 * proven chat channel; else E_NO_ANSWERER at once, nothing kept. An answer comes signed by the
 * seat's owner's key (verified) or relay-attested from a bound chat account (unverified, never
 * in an e2e room); one answer per question, before its deadline.
 */
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { canonicalize } from "../../../src/protocol/encoding/canonical.js";
import { noticeBase } from "../../../src/protocol/reading/notifications.js";
import { isE2eRoom } from "../../../src/protocol/policy/sealed.js";
import { isSealedText } from "../../../src/protocol/signing/sealed-text.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import type { ChatPlatform } from "../../../src/protocol/schemas/control.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import {
  ownerRequestsFor,
  PlainAnswerValueSchema,
  QuestionRecordSchema,
  type OwnerAnswer,
  type QuestionList,
  type QuestionRecord,
  type QuestionResponse,
} from "../../../src/protocol/schemas/owner-ask.js";
import type { TableContext } from "../context.js";
import { requireTable } from "./writes.js";
import { requireSigned } from "../signing/revoked-signer.js";
import { keepCounted, notifyOwner, presentSeat, requireOwnerKey } from "./owner-channel.js";

const KEY = (id: string) => `ask:q:${id}`;

/** A relay-attested answer from a bound chat account (the Worker checked the binding and that the account is bound to `owner_key`). */
export interface AttestedAnswer {
  question: string;
  owner_key: string;
  via: ChatPlatform;
  /** A choice's index (a button) or free text (a reply). */
  value: { choice: number } | { text: string };
}

/**
 * Verifies a seat's question, refuses it when nobody can answer, keeps it and tells the owner's
 * chat channels. Every check comes before the question and its count are kept; the same signed
 * question sent again while open hands its event over again (the owner's object keeps it once), so
 * a hand-off that failed is completed by the resend.
 */
export async function askOwner(t: TableContext, body: unknown): Promise<QuestionResponse> {
  const state = requireTable(t);
  const sealed = isE2eRoom(state);
  const { question, sig } = parseOrThrow(ownerRequestsFor(sealed).question, body, "question request");
  if (question.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the question is for table "${question.table}"`);
  const seat = presentSeat(state, question.seat);
  const signed = { key: seat.key, seat: seat.name, purpose: "question", statement: question, sig } as const;
  await requireSigned(state, signed, {
    code: "E_BAD_SIGNATURE",
    message: "the question is not signed by the seat's key",
  });
  const texts = [question.text, ...(question.choices ?? [])];
  if (sealed && !texts.every(isSealedText))
    throw new TrestleError(
      "E_PLAINTEXT",
      "this room is end-to-end encrypted: a question's text and choices are sealed text (e2e1:…)",
      { path: "text" },
    );
  const now = t.now();
  if (Math.abs(now - question.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the question's time is outside the window; check your clock");
  const ownerKey = requireOwnerKey(state, seat.owner);
  const event = {
    ...noticeBase(state),
    type: "owner_question" as const,
    id: `${state.table}:question:${question.question}`,
    seat: question.seat,
    question: question.question,
    text: sealed ? "" : question.text,
    choices: sealed ? [] : (question.choices ?? []),
    deadline: question.deadline,
  };
  const reply = { question: question.question, deadline: question.deadline };
  const kept = await readRecord(t, question.question);
  if (kept) {
    if (canonicalize(kept.question) !== canonicalize(question))
      throw new TrestleError(
        "E_NONCE_REUSED",
        `question id "${question.question}" was already used for another question`,
      );
    return { ...reply, queued: withState(kept, now).state === "open" ? await notifyOwner(t.env, ownerKey, event) : 0 };
  }
  await requireAnswerer(t, seat.owner, ownerKey, sealed);
  await keepCounted(t.storage, question.seat, now, {
    [KEY(question.question)]: { question, sig, state: "open" } satisfies QuestionRecord,
  });
  return { ...reply, queued: await notifyOwner(t.env, ownerKey, event) };
}

/** Records the seat's owner's signed answer; refuses another owner, another seat, a second answer and one past the deadline. */
export async function answerQuestion(t: TableContext, id: string, body: unknown): Promise<OwnerAnswer> {
  const state = requireTable(t);
  const { answer, sig } = parseOrThrow(ownerRequestsFor(isE2eRoom(state)).answer, body, "answer request");
  if (answer.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the answer is for table "${answer.table}"`);
  if (answer.question !== id)
    throw new TrestleError("E_SCHEMA", `the answer names question "${answer.question}", not "${id}"`, {
      path: "answer.question",
    });
  const record = await requireRecord(t, id);
  if (answer.seat !== record.question.seat)
    throw new TrestleError(
      "E_FORBIDDEN",
      `question "${id}" was asked by seat ${record.question.seat}, not ${answer.seat}`,
    );
  const seat = own(state.seats, record.question.seat);
  if (!seat || answer.owner !== seat.owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `only ${seat?.owner ?? "the seat's owner"}, who owns seat ${record.question.seat}, answers its questions`,
    );
  const ownerKey = requireOwnerKey(state, seat.owner);
  if (!(await verifyStatement(ownerKey, "answer", answer, sig)))
    throw new TrestleError("E_BAD_SIGNATURE", "the answer is not signed by the seat's owner's key");
  if (isE2eRoom(state) && !isSealedText(answer.value))
    throw new TrestleError("E_PLAINTEXT", "this room is end-to-end encrypted: an answer is sealed text (e2e1:…)", {
      path: "value",
    });
  if (record.answer?.verified && record.answer.sig === sig) return record.answer;
  refuseClosed(record, t.now());
  if (record.question.choices && !isE2eRoom(state) && !record.question.choices.includes(answer.value)) {
    throw new TrestleError(
      "E_SCHEMA",
      `the answer is one of the question's choices: ${record.question.choices.join(" | ")}`,
      { path: "value" },
    );
  }
  const given: OwnerAnswer = { verified: true, via: "owner_key", value: answer.value, at: t.now(), answer, sig };
  await t.storage.put(KEY(id), { ...record, state: "answered", answer: given } satisfies QuestionRecord);
  return given;
}

/** Records a relay-attested answer from chat; never about an e2e room (the relay cannot read the question there). */
export async function answerAttested(t: TableContext, input: AttestedAnswer): Promise<OwnerAnswer> {
  const state = requireTable(t);
  const record = await requireRecord(t, input.question);
  const seat = own(state.seats, record.question.seat);
  if (!seat || ownerKeyOf(state, seat.owner) !== input.owner_key)
    throw new TrestleError("E_FORBIDDEN", "this chat account is not bound to the owner of the seat that asked");
  if (isE2eRoom(state))
    throw new TrestleError(
      "E_NEEDS_SIGNATURE",
      "this room is end-to-end encrypted: answer on your machine (trestle answer, trestle view)",
    );
  refuseClosed(record, t.now());
  const choices = record.question.choices;
  let value: string;
  if ("choice" in input.value) {
    const chosen = choices?.[input.value.choice];
    if (chosen === undefined) throw new TrestleError("E_SCHEMA", "no such choice for this question");
    value = chosen;
  } else {
    if (choices && !choices.includes(input.value.text))
      throw new TrestleError("E_SCHEMA", `the answer is one of the question's choices: ${choices.join(" | ")}`);
    value = parseOrThrow(PlainAnswerValueSchema, input.value.text, "answer text");
  }
  const given: OwnerAnswer = { verified: false, via: input.via, value, at: t.now() };
  await t.storage.put(KEY(input.question), { ...record, state: "answered", answer: given } satisfies QuestionRecord);
  return given;
}

/** GET /tables/:id/questions/:q for the asking seat or its owner; anyone else is told there is no such question. */
export async function readQuestion(t: TableContext, principal: Principal, id: string): Promise<QuestionRecord> {
  const record = await requireRecord(t, id);
  if (!readsQuestion(requireTable(t), principal, record))
    throw new TrestleError("E_UNKNOWN_QUESTION", `no question "${id}" of yours at this table`);
  return withState(record, t.now());
}

/** GET /tables/:id/questions: a seat's own questions, or every question of an owner's seats, oldest first. */
export async function listQuestions(t: TableContext, principal: Principal): Promise<QuestionList> {
  const state = requireTable(t);
  const kept = await t.storage.list<unknown>({ prefix: "ask:q:" });
  const questions = [...kept.values()]
    .map((raw) => parseOrThrow(QuestionRecordSchema, raw, "kept question"))
    .filter((record) => readsQuestion(state, principal, record))
    .map((record) => withState(record, t.now()))
    .sort((a, b) => a.question.ts - b.question.ts);
  return { questions };
}

/** Whether `principal` is the seat that asked or that seat's owner. */
function readsQuestion(state: TableState, principal: Principal, record: QuestionRecord): boolean {
  if ("seat" in principal) return principal.seat === record.question.seat;
  return own(state.seats, record.question.seat)?.owner === principal.owner;
}

/** The record with `expired` for an open question past its deadline. */
function withState(record: QuestionRecord, now: number): QuestionRecord {
  return record.state === "open" && now > record.question.deadline ? { ...record, state: "expired" } : record;
}

/** Refuses an answer to a question already answered or past its deadline. */
function refuseClosed(record: QuestionRecord, now: number): void {
  if (record.state === "answered")
    throw new TrestleError(
      "E_ALREADY_RESOLVED",
      `question "${record.question.question}" was already answered (${record.answer?.via})`,
    );
  if (now > record.question.deadline)
    throw new TrestleError(
      "E_EXPIRED",
      `question "${record.question.question}" expired at ${new Date(record.question.deadline).toISOString()}`,
    );
}

/** E_NO_ANSWERER unless the owner has a live session here, or (outside an e2e room) a proven chat channel. */
async function requireAnswerer(t: TableContext, owner: string, ownerKey: string, sealed: boolean): Promise<void> {
  if (t.answerers().has(owner)) return;
  if (!sealed && (await t.channels({ name: owner, public_key: ownerKey }))) return;
  const ways = sealed
    ? "no owner session or window (a chat app cannot answer in an end-to-end encrypted room)"
    : "no owner session, window or proven chat channel";
  throw new TrestleError("E_NO_ANSWERER", `${owner} cannot answer now: ${ways}`, { owner });
}

async function readRecord(t: TableContext, id: string): Promise<QuestionRecord | undefined> {
  const raw = await t.storage.get<unknown>(KEY(id));
  return raw === undefined ? undefined : parseOrThrow(QuestionRecordSchema, raw, "kept question");
}

async function requireRecord(t: TableContext, id: string): Promise<QuestionRecord> {
  const record = await readRecord(t, id);
  if (!record) throw new TrestleError("E_UNKNOWN_QUESTION", `no question "${id}" at this table`);
  return record;
}
