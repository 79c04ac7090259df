/**
 * `trestle_owner_questions` (docs/MCP.md "The owner's own session", decision 0419): an owner's
 * server puts each open question its seats asked at a table to the human through elicitation (a
 * pick among the choices, or a text field), and signs each answer given with the owner key. A
 * decline or cancel leaves that question open. The call also holds the owner session there, which
 * is what lets the owner's seats ask at all (E_NO_ANSWERER otherwise); with `wait_seconds` it
 * waits for the first question to arrive.
 */
import { z } from "zod";
import { answerQuestion } from "../../client/index.js";
import { OwnerWords, requireChoice } from "../../owner/index.js";
import { LIMITS, TrestleError, type QuestionRecord } from "../../protocol/index.js";
import { safeLine } from "../../text/framing.js";
import { requireElicitation } from "../confirm.js";
import { holdOwnerSession } from "../owner-session.js";
import { defineTool, type ToolContext } from "../tool.js";
import { TableArg } from "./args.js";

/** The longest this call waits for a first question, in seconds (clients time calls out). */
const MCP_WAIT_S = 300;
/** How often it looks for a new question while waiting. */
const POLL_MS = 1000;

/** What the human's accepted form holds. */
const AnsweredSchema = z.object({ answer: z.string().min(1) });

/** `trestle_owner_questions`. */
export const ownerQuestions = defineTool({
  name: "trestle_owner_questions",
  title: "Answer your seats' questions",
  description:
    "Put each open question your own seats asked you at a table to you, the human, one at a time (a pick among its choices, or a text field), and sign each answer you give with your owner key; a question you decline or cancel stays open. Calling it also keeps your owner session at the table, which your seats need to ask you at all. wait_seconds: wait that long for a first question when none is open.",
  input: z.strictObject({
    table: TableArg,
    wait_seconds: z.int().min(0).max(MCP_WAIT_S).optional().describe(`how long to wait for a first question when none is open (default 0, at most ${MCP_WAIT_S})`),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, wait_seconds }, ctx) {
    const id = ctx.session.tableId(table);
    requireElicitation(ctx, `for the questions at ${id}`);
    const owner = await ctx.session.ownerKey();
    const presence = await holdOwnerSession(ctx, id);
    const client = await ctx.session.client(id);
    const words = await OwnerWords.at(ctx.session.settings.home, id);
    const reader = { signer: owner.signer, as: { owner: owner.name } };
    const open = async () => {
      const { questions } = await client.http.questions(id, reader);
      return Promise.all(questions.filter((q) => q.state === "open").map((q) => words.openQuestion(q)));
    };
    const until = ctx.now() + (wait_seconds ?? 0) * 1000;
    let questions = await open();
    if (questions.length === 0 && until > ctx.now()) ctx.progress("waiting for a question from your seats");
    while (questions.length === 0 && ctx.now() < until && !ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      questions = await open();
    }
    const session = presence === "live" ? "your owner session here is live: your seats can ask you" : `no owner session here (${presence})`;
    if (questions.length === 0) return { status: [`No open questions from your seats at ${id}; ${session}.`] };
    const lines: string[] = [];
    for (const question of questions) lines.push(await putToOwner(ctx, { table: id, owner: owner.name, words, question, sign: (seat, q, value) => answerQuestion(client.http, id, owner.signer, owner.name, seat, q, value, () => ctx.now()) }));
    return { status: [`${questions.length} question(s) from your seats at ${id}; ${session}.`, ...lines] };
  },
});

/** One question to put to the human, and how to sign an answer to it. */
interface Put {
  table: string;
  owner: string;
  words: OwnerWords;
  question: QuestionRecord;
  sign(seat: string, question: string, value: string): Promise<unknown>;
}

/** Asks the human one question; signs and posts their answer. Answers one status line, a refusal of that answer included. */
async function putToOwner(ctx: ToolContext, put: Put): Promise<string> {
  const q = put.question.question;
  const { choices } = q;
  const message = [
    `trestle: your seat ${q.seat} at ${put.table} asks you (question ${q.question}, open until ${new Date(q.deadline).toISOString()}):`,
    `  "${safeLine(q.text, 1000)}"`,
    `Your answer is signed with your owner key (${put.owner}) and goes to that seat alone${put.words.sealed ? ", sealed with the room key" : ""}. Decline to leave the question open.`,
  ].join("\n");
  const answer = choices
    ? { type: "string" as const, title: "Your answer", enum: choices }
    : { type: "string" as const, title: "Your answer", minLength: 1, maxLength: LIMITS.note_chars };
  let result;
  try {
    result = await ctx.elicit({ mode: "form", message, requestedSchema: { type: "object", properties: { answer }, required: ["answer"] } });
  } catch (error) {
    return `  ${q.question} from ${q.seat}: left open (the request to you failed: ${error instanceof Error ? error.message : String(error)})`;
  }
  if (result.action !== "accept") return `  ${q.question} from ${q.seat}: left open (you ${result.action === "decline" ? "declined" : "cancelled"})`;
  const parsed = AnsweredSchema.safeParse(result.content);
  if (!parsed.success) return `  ${q.question} from ${q.seat}: left open (the form came back without an answer)`;
  try {
    requireChoice(put.question, parsed.data.answer);
    await put.sign(q.seat, q.question, await put.words.seal(q.seat, "answer", parsed.data.answer));
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    return `  ${q.question} from ${q.seat}: not answered (${error.code}: ${error.message})`;
  }
  return `  ${q.question} from ${q.seat}: answered "${safeLine(parsed.data.answer, 200)}" (signed with your owner key)`;
}
