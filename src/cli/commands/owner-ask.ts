/**
 * A seat and its own owner (docs/SPEC.md §5.14): `ask` (the seat asks and waits for the answer),
 * `answer` (the owner answers, signed with the owner key, or lists open questions), `instruct`
 * (the owner tells its seat) and `instructions` (the seat reads them, framed as its owner's). None
 * of it is a table entry. In an end-to-end encrypted room every text is sealed with the room key
 * this home holds and opened here when read (src/owner/owner-words-sealing.ts).
 */
import { askOwner, answerQuestion, instructSeat, readInstructions } from "../../client/index.js";
import { OwnerWords, requireChoice } from "../../owner/index.js";
import { TrestleError, type QuestionRecord } from "../../protocol/index.js";
import { safeLine } from "../../text/framing.js";
import { frameOwnerAnswer, frameOwnerInstructions } from "../../text/owner-words.js";
import { integer, OWNER_FLAGS, positionals, required, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { bodyOf } from "./write.js";
import type { Command } from "./command.js";

/** `ask <text>`: asks the seat's owner and waits; exits refused (E_NO_ANSWERER at once, E_EXPIRED at the deadline). */
export const ask: Command = {
  name: "ask",
  summary: "ask your owner a question and wait for the answer (never the table)",
  args: "<text | ->",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    choice: {
      type: "string",
      multiple: true,
      value: "TEXT",
      help: "a choice the answer must be (repeat 2-8 times; none: free text)",
    },
    wait: { type: "string", value: "SECONDS", help: "how long to wait for the answer (default 600, at most 86400)" },
  },
  async run(ctx) {
    const [text] = positionals(ctx.args, ["text"]);
    const table = ctx.tableId();
    const { seat, key } = await ctx.seat();
    const choices = ctx.args.values.choice;
    const wait = integer(ctx.args, "wait", 600) ?? 600;
    const words = await OwnerWords.at(ctx.home, table);
    const seal = words.sealer(seat, "question");
    const asked = await askOwner(
      ctx.http(),
      table,
      key.signer,
      seat,
      {
        text: await bodyOf(ctx, text, "a question"),
        ...(Array.isArray(choices) && choices.length > 0 ? { choices: choices.map(String) } : {}),
        wait_ms: wait * 1000,
      },
      {
        clock: ctx.io.clock,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        ...(seal ? { seal } : {}),
        asked: (taken) =>
          ctx.out.notice(
            `asked your owner: question ${taken.question}, waiting until ${new Date(taken.deadline).toISOString()}`,
          ),
      },
    );
    const record = await words.openQuestion(asked);
    if (!record.answer)
      throw new TrestleError(
        "E_EXPIRED",
        `your owner did not answer question ${record.question.question} by ${new Date(record.question.deadline).toISOString()}`,
      );
    ctx.out.result(frameOwnerAnswer(record.answer).split("\n"), record);
  },
};

/** `answer <question> <value>`: the owner's signed answer; `answer --list` lists its seats' questions at the table. */
export const answer: Command = {
  name: "answer",
  summary: "answer a question one of your seats asked you (signed with your owner key); --list shows them",
  args: "[<question> <value>]",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    list: { type: "boolean", help: "list your seats' questions at the table instead" },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const { owner, key } = await ctx.owner();
    const words = await OwnerWords.at(ctx.home, table);
    const listed = await ctx.http().questions(table, { signer: key.signer, as: { owner } });
    const questions = await Promise.all(listed.questions.map((q) => words.openQuestion(q)));
    if (ctx.args.values.list === true) {
      ctx.out.result(questions.length === 0 ? ["no questions from your seats here"] : questions.map(questionLine), {
        questions,
      });
      return;
    }
    const [question, value] = positionals(ctx.args, ["question", "value"]);
    const asked = questions.find((q) => q.question.question === question);
    if (!asked) throw new TrestleError("E_UNKNOWN_QUESTION", `no question "${question}" of your seats at ${table}`);
    requireChoice(asked, value!);
    const { seat } = asked.question;
    const sealed = await words.seal(seat, "answer", value!);
    const given = await words.openAnswer(
      seat,
      await answerQuestion(ctx.http(), table, key.signer, owner, seat, question!, sealed, ctx.io.clock),
    );
    ctx.out.result(
      `answered ${seat}'s question ${question} (signed with your owner key${words.sealed ? ", sealed with the room key" : ""})`,
      given,
    );
  },
};

/** `instruct <text>`: the owner's signed instruction to its seat --seat. */
export const instruct: Command = {
  name: "instruct",
  summary: "tell one of your seats what to do, signed with your owner key (never the table)",
  args: "<text | ->",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    seat: { type: "string", value: "NAME", help: "your seat to instruct (required)" },
  },
  async run(ctx) {
    const [text] = positionals(ctx.args, ["text"]);
    const table = ctx.tableId();
    const { owner, key } = await ctx.owner();
    const seat = required(ctx.args, "seat");
    const words = await OwnerWords.at(ctx.home, table);
    const sealed = await words.seal(seat, "instruction", await bodyOf(ctx, text, "an instruction"));
    const sent = await instructSeat(ctx.http(), table, key.signer, owner, seat, sealed, ctx.io.clock);
    ctx.out.result(`instruction #${sent.n} kept for ${seat} (it reads it with trestle instructions)`, sent);
  },
};

/** `instructions`: the seat's instructions from its owner, framed as the owner's, numbered after --after. */
export const instructions: Command = {
  name: "instructions",
  summary: "read your owner's instructions to this seat, marked verified or unverified",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    after: { type: "string", value: "N", help: "only those numbered after N (default 0)" },
    "check-key": {
      type: "string",
      value: "KEY",
      help: "your owner's public key: check each signed instruction against it",
    },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const { seat, key } = await ctx.seat();
    const ownerKey = typeof ctx.args.values["check-key"] === "string" ? ctx.args.values["check-key"] : undefined;
    const read = await readInstructions(
      ctx.http(),
      table,
      key.signer,
      seat,
      integer(ctx.args, "after", 0) ?? 0,
      ownerKey,
    );
    const list = {
      instructions: await (await OwnerWords.at(ctx.home, table)).openInstructions(seat, read.instructions),
    };
    ctx.out.result(
      list.instructions.length === 0
        ? ["no instructions from your owner"]
        : frameOwnerInstructions(list.instructions).split("\n"),
      list,
    );
  },
};

/** One question as the owner's list shows it. */
function questionLine(q: QuestionRecord): string {
  const choices = q.question.choices ? ` [${q.question.choices.map((c) => safeLine(c, 64)).join(" | ")}]` : "";
  const answered = q.answer
    ? `: ${safeLine(q.answer.value, 200)} (${q.answer.via})`
    : ` until ${new Date(q.question.deadline).toISOString()}`;
  return `${q.question.question} from ${q.question.seat} ${q.state}${answered}: ${safeLine(q.question.text, 300)}${choices}`;
}

/** The verbs between a seat and its own owner, in help order. */
export const OWNER_ASK: readonly Command[] = [ask, answer, instruct, instructions];
