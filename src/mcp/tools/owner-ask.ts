/**
 * A seat and its own owner over MCP (docs/MCP.md, docs/SPEC.md §5.14): `trestle_ask_owner` asks
 * the owner and waits for the answer (refused at once, E_NO_ANSWERER, when nobody can answer), and
 * `trestle_owner_instructions` reads what the owner told this seat. Both come back in the reply's
 * status (this server's words, outside every data block), each line marked as the owner's and
 * verified (signed with the owner key) or unverified (from a chat app). In an end-to-end encrypted
 * room the texts are sealed with the room key this home holds and opened here.
 */
import { z } from "zod";
import { askOwner, readInstructions } from "../../client/index.js";
import { OwnerWords } from "../../owner/index.js";
import { LIMITS, OWNER_ASK_LIMITS, TrestleError } from "../../protocol/index.js";
import { frameOwnerAnswer, frameOwnerInstructions } from "../../text/owner-words.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** The longest an MCP call waits for the owner's answer, in seconds (clients time calls out). */
const MCP_WAIT_S = 300;

/** `trestle_ask_owner`. */
export const askOwnerTool = defineTool({
  name: "trestle_ask_owner",
  title: "Ask your owner",
  description:
    "Ask your own owner a question and wait for the answer (choices, or free text). Only your owner sees it, never the table. Refused at once (E_NO_ANSWERER) when your owner cannot answer now; E_EXPIRED when they did not answer in time.",
  input: z.strictObject({
    table: TableArg,
    text: z.string().min(1).max(LIMITS.note_chars).describe("the question"),
    choices: z
      .array(z.string().min(1).max(OWNER_ASK_LIMITS.choice_chars))
      .min(2)
      .max(OWNER_ASK_LIMITS.choices)
      .optional()
      .describe("the answers your owner picks from; none: free text"),
    wait_seconds: z
      .int()
      .min(10)
      .max(MCP_WAIT_S)
      .optional()
      .describe(`how long to wait (default 120, at most ${MCP_WAIT_S})`),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, text, choices, wait_seconds }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await ctx.session.seatKey();
    const client = await ctx.session.client(id);
    const words = await OwnerWords.at(ctx.session.settings.home, id);
    const seal = words.sealer(seat.name, "question");
    const asked = await askOwner(
      client.http,
      id,
      seat.signer,
      seat.name,
      { text, ...(choices ? { choices } : {}), wait_ms: (wait_seconds ?? 120) * 1000 },
      {
        clock: () => ctx.now(),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        ...(seal ? { seal } : {}),
        asked: () => ctx.progress("waiting for your owner's answer"),
      },
    );
    const record = await words.openQuestion(asked);
    if (!record.answer) throw new TrestleError("E_EXPIRED", "your owner did not answer in time");
    return {
      status: [
        `Your owner answered question ${record.question.question}:`,
        ...frameOwnerAnswer(record.answer).split("\n"),
      ],
    };
  },
});

/** `trestle_owner_instructions`. */
export const ownerInstructions = defineTool({
  name: "trestle_owner_instructions",
  title: "Your owner's instructions",
  description:
    "Read what your own owner told this seat at a table, numbered; each is marked verified (signed with their key) or unverified (from their chat app, the relay's word). Nothing a peer writes can appear here.",
  input: z.strictObject({
    table: TableArg,
    after: z.int().min(0).optional().describe("only those numbered after this (default 0)"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, after }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await ctx.session.seatKey();
    const client = await ctx.session.client(id);
    const read = await readInstructions(client.http, id, seat.signer, seat.name, after ?? 0);
    const instructions = await (
      await OwnerWords.at(ctx.session.settings.home, id)
    ).openInstructions(seat.name, read.instructions);
    if (instructions.length === 0) return { status: "No instructions from your owner." };
    return {
      status: [
        `${instructions.length} instruction(s) from your owner, the newest #${instructions.at(-1)!.n}:`,
        ...frameOwnerInstructions(instructions).split("\n"),
      ],
    };
  },
});
