/**
 * This server's seat writing through the owner-side guards (docs/ROOMS.md, docs/MCP.md "Rooms"),
 * and how a tool writing one room kind is made (`roomTool`, with its ref and message arguments):
 * every room kind, and every other write once the seat has a mandate. A message the gate holds
 * for the owner is put to them in the principal window (./confirm.ts) when the client can hand them
 * the link and this server holds the owner key; only their Approve there signs the approval (with
 * the owner key, over exactly that message's hash) and sends the message as it was held. Otherwise
 * it stays held (E_HELD) for the owner's terminal (`trestle gate approve`) or `trestle view`.
 * Nothing a tool argument says can approve anything.
 */
import { z } from "zod";
import { safeJson } from "../text/framing.js";
import type { SeatSubmission } from "../client/index.js";
import {
  GuardedSeat,
  resolveRef,
  standingDealLines,
  type JournalRecordOf,
  type RoomRef,
  type Sent,
} from "../owner/index.js";
import { BodySchema, TrestleError, type Submission } from "../protocol/index.js";
import { heldLines, type Named } from "../text/commitment.js";
import { askOwner } from "./confirm.js";
import { defineTool, type Tool, type ToolAsk, type ToolContext, type ToolReply } from "./tool.js";
import { WrittenOutput } from "./tools/args.js";

/** This server's seat at `table` as a GuardedSeat (journal and mandate in the server's trestle home). */
export async function guardedSeat(ctx: ToolContext, table: string): Promise<GuardedSeat> {
  const seat = await ctx.session.seatKey();
  return new GuardedSeat({
    client: await ctx.session.client(table),
    seat: seat.name,
    signer: seat.signer,
    home: ctx.session.settings.home,
    clock: () => ctx.now(),
  });
}

/** The reply of a write once it was sent (it may read the table again); `approved` when the owner approved it in the window first. */
export type SentReply = (sent: Sent, approved: boolean) => ToolReply | Promise<ToolReply>;

/** Sends `input` as `seat` through the guards and replies with `done`; a held message is put to the owner in the principal window when possible (the reply then asks the client to show them the link). */
export async function sendGuarded(
  ctx: ToolContext,
  seat: GuardedSeat,
  input: SeatSubmission,
  done: SentReply,
): Promise<ToolReply | ToolAsk> {
  let sent: Sent;
  try {
    sent = await seat.send(input);
  } catch (error) {
    if (!(error instanceof TrestleError) || error.code !== "E_HELD") throw error;
    return approveHeld(ctx, seat, String(error.details?.message_sha256), error, done);
  }
  return done(sent, false);
}

/** Asks the owner in the principal window to approve held message `hash`; their Approve signs the approval and sends it. Rethrows `held` when nobody can be asked. */
export async function approveHeld(
  ctx: ToolContext,
  seat: GuardedSeat,
  hash: string,
  held: TrestleError,
  done: SentReply,
): Promise<ToolAsk> {
  const record = seat.pending().find((h) => h.message_sha256 === hash);
  if (!record || !ctx.session.hasOwner || !ctx.elicitation.url) throw held;
  const owner = await ctx.session.ownerKey();
  const { submission, named } = await seat.readable(record);
  return askOwner(ctx, {
    title: `let seat ${seat.seat} send its held ${submission.kind} at room ${seat.table}`,
    lines: heldWords(seat, { ...record, submission }, owner.name, named),
    approve: "Approve and sign with my owner key",
    unsigned: `: message ${hash.slice(0, 12)} stays held`,
    progress: `asking your owner to approve held message ${hash.slice(0, 12)} in the principal window`,
    async sign() {
      await seat.answer(owner.signer, hash, "approve");
      return done(await seat.sendHeld(hash), true);
    },
  });
}

/**
 * What the owner decides on for a held message (opened, in an e2e room): what it commits them to in
 * the words every surface uses (src/text/commitment.ts: an accept's offer named and in full from the
 * verified transcript, a sealed bid's amount from the journal), its message, and the exact message.
 */
export function heldWords(
  seat: GuardedSeat,
  record: Omit<JournalRecordOf<"held">, "submission"> & { submission: Submission },
  owner: string,
  named: Named,
): string[] {
  const s = record.submission;
  return [
    `trestle: sign with your owner key (${owner}) to let seat ${seat.seat} send this ${s.kind} at room ${seat.table}?`,
    record.why === "require_confirm"
      ? `Your mandate holds every ${s.kind} for you.`
      : "You loosened this seat's mandate, so each commitment needs you.",
    "What it commits you to (read from the verified ledger; a sealed bid's amount from this machine; text in quotes is the seat's, not verified):",
    ...heldLines(s, named).map((line) => `  ${line}`),
    `The whole message: ${safeJson(s)}`,
    `Your signature covers exactly this message (sha256 ${record.message_sha256.slice(0, 16)}…), once.`,
    "",
    "Your AI agent asked for this; only you decide. Declining signs nothing and the message stays held.",
  ];
}

/** A ref argument: an offer, grant or auction by its entry's seq or hash. */
export const RefArg = (what: string) =>
  z
    .union([z.int().min(1), z.string().regex(/^[0-9a-fA-F]{8,64}$/)])
    .describe(`the ${what}: its entry's seq, or its hash (8 or more hex characters), as trestle_room_state lists it`);
/** The optional message sent with a write. */
export const MessageArg = BodySchema.optional().describe("a message to the other parties, sent with it");

type Resolve = (ref: string | number, what: RoomRef) => Promise<string>;

/** A tool writing one room kind; `build` turns its arguments into the submission (through `seat`, for a sealed bid). */
export function roomTool<S extends z.ZodObject>(spec: {
  name: `trestle_room_${string}`;
  title: string;
  description: string;
  input: S;
  build(
    args: z.output<S>,
    resolve: Resolve,
    ctx: ToolContext,
    seat: GuardedSeat,
  ): SeatSubmission | Promise<SeatSubmission>;
}): Tool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: WrittenOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(args, ctx) {
      const table = ctx.session.tableId((args as { table?: string }).table);
      const seat = await guardedSeat(ctx, table);
      const resolve: Resolve = async (ref, what) => resolveRef(await seat.transcript(), ref, what);
      const message = (args as { message?: string }).message;
      const submission = {
        ...(await spec.build(args, resolve, ctx, seat)),
        ...(message === undefined ? {} : { body: message }),
      } as SeatSubmission;
      return sendGuarded(ctx, seat, submission, (sent, approved) => ({
        status: [
          `${submission.kind} written as entry #${sent.seq} at ${table} by seat ${seat.seat} (head #${sent.head.seq}).`,
          ...(approved ? ["Your owner approved this exact message in person; their approval is now spent."] : []),
          ...standingDealLines(sent).map((line) => `${line[0]!.toUpperCase()}${line.slice(1)}.`),
          "trestle_room_state shows the room now.",
        ],
        structured: { table, seat: seat.seat, kind: submission.kind, seq: sent.seq, head: sent.head.seq },
      }));
    },
  });
}
