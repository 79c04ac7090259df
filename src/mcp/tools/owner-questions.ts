/**
 * `trestle_owner_questions` (docs/MCP.md "The owner's own session", decision 0419): an owner's
 * server puts each open question its seats asked at a table to the human through form elicitation
 * (a pick among the choices, or a text field: an answer authorizes nothing, so a form is fine,
 * decision 0480), and signs each answer given with the owner key. The questions go out together as
 * one input-required reply (the client asks, then retries with the answers; on 2025-11-25 the SDK
 * sends each as an elicitation/create); the retry signs what was answered. A decline or cancel
 * leaves that question open. The call also holds the owner session there, which is what lets the
 * owner's seats ask at all (E_NO_ANSWERER otherwise); with `wait_seconds` it waits for the first
 * question to arrive.
 */
import { inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { z } from "zod";
import { answerQuestion } from "../../client/index.js";
import { OwnerWords, requireChoice } from "../../owner/index.js";
import { LIMITS, TrestleError, type QuestionRecord } from "../../protocol/index.js";
import { safeLine } from "../../text/framing.js";
import { holdOwnerSession } from "../owner-session.js";
import { defineTool, type ToolAsk, type ToolContext, type ToolReply } from "../tool.js";
import { TableArg } from "./args.js";

/** The longest this call waits for a first question, in seconds (clients time calls out). */
const MCP_WAIT_S = 300;
/** How often it looks for a new question while waiting. */
const POLL_MS = 1000;
/** The most questions put to the human in one call; the rest come with the next. */
const MAX_ASKED = 8;

/** What the human's accepted form holds. */
const AnsweredSchema = z.object({ answer: z.string().min(1) });
/** What the retry brings back: the questions asked, in the order of their keys (`q0`, `q1`, …). */
const AskedStateSchema = z.strictObject({ questions: z.array(z.string().min(1).max(128)).min(1).max(MAX_ASKED) });

/** `trestle_owner_questions`. */
export const ownerQuestions = defineTool({
  name: "trestle_owner_questions",
  title: "Answer your seats' questions",
  description:
    "Put each open question your own seats asked you at a table to you, the human (a pick among its choices, or a text field), and sign each answer you give with your owner key; a question you decline or cancel stays open. Calling it also keeps your owner session at the table, which your seats need to ask you at all. wait_seconds: wait that long for a first question when none is open.",
  input: z.strictObject({
    table: TableArg,
    wait_seconds: z
      .int()
      .min(0)
      .max(MCP_WAIT_S)
      .optional()
      .describe(`how long to wait for a first question when none is open (default 0, at most ${MCP_WAIT_S})`),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, wait_seconds }, ctx) {
    const id = ctx.session.tableId(table);
    if (!ctx.elicitation.form) {
      throw new TrestleError(
        "E_NOT_CONFIRMED",
        `this MCP client cannot ask your owner (no form elicitation), so nothing was signed for the questions at ${id}`,
        { reason: "no_elicitation" },
      );
    }
    const owner = await ctx.session.ownerKey();
    const presence = await holdOwnerSession(ctx, id);
    const client = await ctx.session.client(id);
    const words = await OwnerWords.at(ctx.session.settings.home, id);
    const reader = { signer: owner.signer, as: { owner: owner.name } };
    const all = async () =>
      Promise.all((await client.http.questions(id, reader)).questions.map((q) => words.openQuestion(q)));
    const session =
      presence === "live"
        ? "your owner session here is live: your seats can ask you"
        : `no owner session here (${presence})`;
    const asked = AskedStateSchema.safeParse(ctx.state);
    if (asked.success) {
      const put = {
        table: id,
        owner: owner.name,
        words,
        sign: (seat: string, q: string, value: string) =>
          answerQuestion(client.http, id, owner.signer, owner.name, seat, q, value, () => ctx.now()),
      };
      return answered(ctx, put, asked.data.questions, await all(), session);
    }
    const open = async () => (await all()).filter((q) => q.state === "open");
    const until = ctx.now() + (wait_seconds ?? 0) * 1000;
    let questions = await open();
    if (questions.length === 0 && until > ctx.now()) ctx.progress("waiting for a question from your seats");
    while (questions.length === 0 && ctx.now() < until && !ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      questions = await open();
    }
    if (questions.length === 0) return { status: [`No open questions from your seats at ${id}; ${session}.`] };
    return askAll(id, owner.name, words, questions.slice(0, MAX_ASKED));
  },
});

/** The reply that asks the human every question at once, one form each (keys `q0`, `q1`, …). */
function askAll(table: string, owner: string, words: OwnerWords, questions: readonly QuestionRecord[]): ToolAsk {
  const ask = Object.fromEntries(
    questions.map(({ question: q }, i) => {
      const message = [
        `trestle: your seat ${q.seat} at ${table} asks you (question ${q.question}, open until ${new Date(q.deadline).toISOString()}):`,
        `  "${safeLine(q.text, 1000)}"`,
        `Your answer is signed with your owner key (${owner}) and goes to that seat alone${words.sealed ? ", sealed with the room key" : ""}. Decline to leave the question open.`,
      ].join("\n");
      const answer = q.choices
        ? { type: "string" as const, title: "Your answer", enum: q.choices }
        : { type: "string" as const, title: "Your answer", minLength: 1, maxLength: LIMITS.note_chars };
      return [
        `q${i}`,
        inputRequired.elicit({
          mode: "form",
          message,
          requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
        }),
      ];
    }),
  );
  return { ask, state: { questions: questions.map((q) => q.question.question) } };
}

/** How to sign an answer at this table. */
interface Put {
  table: string;
  owner: string;
  words: OwnerWords;
  sign(seat: string, question: string, value: string): Promise<unknown>;
}

/** Signs each answer the human gave to the questions asked (by the order of their keys); one status line each, a refusal of that answer included. */
async function answered(
  ctx: ToolContext,
  put: Put,
  asked: readonly string[],
  records: readonly QuestionRecord[],
  session: string,
): Promise<ToolReply> {
  const lines: string[] = [];
  for (const [i, id] of asked.entries()) {
    const record = records.find((r) => r.question.question === id);
    if (!record) {
      lines.push(`  ${id}: not answered (no such question at ${put.table} any more)`);
      continue;
    }
    lines.push(await signAnswer(ctx, put, record, `q${i}`));
  }
  return { status: [`${asked.length} question(s) from your seats at ${put.table}; ${session}.`, ...lines] };
}

/** Signs and posts the human's answer to one question under `key`; one status line. */
async function signAnswer(ctx: ToolContext, put: Put, record: QuestionRecord, key: string): Promise<string> {
  const q = record.question;
  const response = inputResponse(ctx.inputResponses, key);
  if (response.kind !== "elicit" || response.action !== "accept") {
    const why =
      response.kind !== "elicit"
        ? "no answer came back"
        : response.action === "decline"
          ? "you declined"
          : "you cancelled";
    return `  ${q.question} from ${q.seat}: left open (${why})`;
  }
  const parsed = AnsweredSchema.safeParse(response.content);
  if (!parsed.success) return `  ${q.question} from ${q.seat}: left open (the form came back without an answer)`;
  try {
    requireChoice(record, parsed.data.answer);
    await put.sign(q.seat, q.question, await put.words.seal(q.seat, "answer", parsed.data.answer));
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    return `  ${q.question} from ${q.seat}: not answered (${error.code}: ${error.message})`;
  }
  return `  ${q.question} from ${q.seat}: answered "${safeLine(parsed.data.answer, 200)}" (signed with your owner key)`;
}
