/**
 * A seat's question to its owner as a chat message, and the data its buttons carry back (decision
 * 0413). A question with choices shows one button per choice, whose data is `q1.<ref>.<i>`: the
 * question's ref (16 base64url characters of SHA-256 over the owner key and the event id, as
 * callback.ts makes for approvals) and the choice's index, 21 ASCII characters, inside every
 * platform's limit (Telegram callback_data 64 bytes, LINE postback data 300, Discord custom_id
 * 100). A free-text question ends with the line naming `/answer <ref> <text>`, which every platform
 * takes, and a Telegram reply to the message counts as that command (the reply names the ref).
 * About an end-to-end encrypted room the relay cannot read the question: the message says there is
 * one and where to answer it, with no text, no choices, no buttons and no ref.
 * The question's text is the only part cut to fit the platform; the ref line is never cut.
 */
import { safeLine } from "../text/framing.js";
import type { OwnerQuestionNotice } from "../protocol/schemas/notify.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { approvalRef } from "./callback.js";
import { t } from "./i18n.js";
import { longestTopic } from "./fit-approval.js";
import { ellipsize, type ChatAction, type ChatMessage, type Fits } from "./message.js";

/** A tap on one choice of a question. */
export interface ChoiceTap {
  verb: "choose";
  ref: string;
  choice: number;
}

/** The longest answer data this module makes, in bytes. */
export const ANSWER_DATA_BYTES = 21;

const PATTERN = /^q1\.([A-Za-z0-9_-]{16})\.([0-7])$/;
/** The `/answer <ref>` a question message names on its last line. */
const ANSWER_LINE = /\/answer ([A-Za-z0-9_-]{16})(?:\s|$)/;

/** The ref of the question event `eventId` sent to `ownerKey`, as its buttons and its `/answer` line name it. */
export function questionRef(ownerKey: string, eventId: string): string {
  return approvalRef(ownerKey, eventId);
}

/** The button data for choice `choice` of the question `ref` names. */
export function encodeChoice(ref: string, choice: number): string {
  return `q1.${ref}.${choice}`;
}

/** The choice tap a button's data names, or null for anything else (the data is attacker-controlled). */
export function parseChoice(text: unknown): ChoiceTap | null {
  if (typeof text !== "string") return null;
  const match = PATTERN.exec(text);
  return match ? { verb: "choose", ref: match[1]!, choice: Number(match[2]) } : null;
}

/** The ref on the last line of a question message as a chat app quotes it back, or null (only the last line: a seat's text above it never counts). */
export function refOfQuoted(text: string | undefined): string | null {
  const last = text?.trimEnd().split("\n").at(-1);
  return (last === undefined ? null : ANSWER_LINE.exec(last)?.[1]) ?? null;
}

/** The table's line of a question's message with the topic cut to at most `topicChars` characters, and the topic's length uncut (render.ts makes it). */
export interface QuestionHead {
  line: (topicChars: number) => string;
  topicChars: number;
}

/**
 * The message for a question to `ownerKey` in `lang`, fitted to `fits`: the topic is cut first,
 * then the question's text; the choices, the commands and the `/answer` line are never cut.
 */
export function questionMessage(
  event: OwnerQuestionNotice,
  ownerKey: string,
  lang: Lang,
  head: QuestionHead,
  fits: Fits,
): ChatMessage {
  const title = t(lang, "title.owner_question");
  const asks = t(lang, "line.owner_question", { seat: event.seat, deadline: new Date(event.deadline).toISOString() });
  const byKey = t(lang, "line.question_answer", { question: event.question, table: event.table });
  if (event.e2e) return { title, lines: [head.line(0), asks, t(lang, "line.question_e2e"), byKey], actions: [] };
  const ref = questionRef(ownerKey, event.id);
  const choices = event.choices.map((c) => safeLine(c, 64));
  const actions: ChatAction[] = choices.map((label, i) => ({ label, data: encodeChoice(ref, i), style: "choice" }));
  const listed = choices.length > 0 ? [t(lang, "line.question_choices", { choices: choices.join(" | ") })] : [];
  const how = choices.length > 0 ? t(lang, "line.question_tap") : t(lang, "line.question_reply", { ref });
  const form = (topic: number, text: number): ChatMessage => ({
    title,
    lines: [head.line(topic), asks, ellipsize(event.text, text), ...listed, byKey, how],
    actions,
    ...(choices.length > 0 ? {} : { reply: true }),
  });
  const whole = event.text.length;
  return (
    longestTopic((n) => form(n, whole), head.topicChars, fits) ??
    longestTopic((n) => form(0, n), whole, fits) ??
    form(0, 0)
  );
}
