/**
 * What this seat keeps for its owner (docs/MCP.md "Rooms"): `trestle_tell_owner` (a note to the
 * owner's chat apps, through the relay, never the table), `trestle_rationale` (why you did
 * something, kept on this machine, never sent), `trestle_room_send_held` (send a message the gate
 * holds, once the owner approved it, asking them in the principal window when this client can), and
 * `trestle_mandate` (what the owner's mandate allows, never its secret strings, and only its rules
 * when the owner keeps its amounts from the agent).
 */
import { z } from "zod";
import { mandateLines } from "../../owner/index.js";
import { CHAT_PLATFORM_NAMES, LIMITS, SeqSchema, Sha256Schema, TrestleError } from "../../protocol/index.js";
import { approveHeld, guardedSeat, type SentReply } from "../room-seat.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** `trestle_tell_owner`. */
export const tellOwner = defineTool({
  name: "trestle_tell_owner",
  title: "Tell your owner something",
  description: `Send your owner a short note in their bound chat apps (${Object.values(CHAT_PLATFORM_NAMES).join(", ")}) through the relay. It never reaches the table or the other parties. Use it to report, or to ask them to approve a held message.`,
  input: z.strictObject({ table: TableArg, text: z.string().min(1).max(LIMITS.note_chars).describe("the note") }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, text }, ctx) {
    const sent = await (await guardedSeat(ctx, ctx.session.tableId(table))).tellOwner(text);
    return {
      status:
        sent.queued > 0
          ? `Sent to your owner on ${sent.queued} chat ${sent.queued === 1 ? "channel" : "channels"}.`
          : "Recorded for your owner, but they have no chat app bound, so no message went out.",
    };
  },
});

/** `trestle_rationale`. */
export const rationale = defineTool({
  name: "trestle_rationale",
  title: "Record your private rationale",
  description:
    "Write down why you did something. It stays on your owner's machine for them to read; it is never sent to the relay or the table.",
  input: z.strictObject({
    table: TableArg,
    text: z.string().min(1).max(4000).describe("your reasoning, for your owner"),
    seq: SeqSchema.optional().describe("the entry it is about"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ table, text, seq }, ctx) {
    const seat = await guardedSeat(ctx, ctx.session.tableId(table));
    seat.rationale(text, seq === undefined ? undefined : { seq });
    return { status: "Kept on your owner's machine; nothing was sent." };
  },
});

/** `trestle_room_send_held`. */
export const sendHeld = defineTool({
  name: "trestle_room_send_held",
  title: "Send a message your owner approved",
  description:
    "Send a message the commitment gate held (E_HELD gave its hash), exactly as it was held, once your owner approved it. If they have not, and this client can show them a link, they are asked in the principal window; otherwise it stays held until they approve it in a terminal (trestle gate approve).",
  input: z.strictObject({
    table: TableArg,
    hash: Sha256Schema.describe("the held message's sha256, from the E_HELD error"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, hash }, ctx) {
    const seat = await guardedSeat(ctx, ctx.session.tableId(table));
    const done: SentReply = (sent, approved) => ({
      status: [
        `Held message ${hash.slice(0, 12)} written as entry #${sent.seq} at ${seat.table}.`,
        ...(approved ? ["Your owner approved it in person just now."] : []),
      ],
    });
    try {
      return done(await seat.sendHeld(hash), false);
    } catch (error) {
      if (!(error instanceof TrestleError) || error.code !== "E_HELD") throw error;
      return approveHeld(ctx, seat, hash, error, done);
    }
  },
});

/** `trestle_mandate`. */
export const mandate = defineTool({
  name: "trestle_mandate",
  title: "What your owner's mandate allows",
  description:
    "What your owner's mandate lets this seat commit to, and what it holds for them, as the guards judge it now (the strings you must never write are not shown, nor the amounts when your owner keeps them to themselves). Only your owner can change it.",
  input: z.strictObject({ table: TableArg }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table }, ctx) {
    const seat = await guardedSeat(ctx, ctx.session.tableId(table));
    return { status: mandateLines(await seat.mandate()) };
  },
});
