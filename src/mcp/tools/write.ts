/**
 * The shared body of the tools that write an entry as this seat (say, pass, raise_hand, propose,
 * decide, progress, receipt, verify, request, respond): build the submission from the arguments, sign it with the
 * seat key (through the owner-side guards when the seat has a mandate or sits in an e2e room whose key
 * the home holds) and submit it with the
 * newest verified head as known_head. A proposal or decision with
 * effects first makes sure this server's owner session is up when it may answer (E_NO_APPROVER).
 * A write the commitment gate holds is put to the owner in the principal window (../room-seat.ts).
 */
import type { z } from "zod";
import { randomNonce, type SeatSubmission } from "../../client/index.js";
import { parseOrThrow, SubmissionSchema, taskIdOf } from "../../protocol/index.js";
import { holdOwnerSession } from "../owner-session.js";
import { writesGuarded } from "../../owner/index.js";
import { guardedSeat, sendGuarded } from "../room-seat.js";
import { defineTool, type Tool, type ToolAsk, type ToolContext, type ToolReply, type ToolSpec } from "../tool.js";
import { WrittenOutput } from "./args.js";

/** A writing tool: its arguments (with an optional `table`) and how they become a submission. */
export interface WriteSpec<S extends z.ZodObject> extends Omit<ToolSpec<S>, "run" | "annotations" | "output"> {
  build(args: z.output<S>): SeatSubmission;
  /** A status line of this server's own about what was written (e.g. the request id it chose). */
  note?(submission: SeatSubmission): string | null;
}

/** Declares a tool that writes one entry as this seat. */
export function writeTool<S extends z.ZodObject>(spec: WriteSpec<S>): Tool {
  return defineTool({
    ...spec,
    output: WrittenOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(args, ctx) {
      const table = ctx.session.tableId(tableOf(args));
      const submission = withoutUndefined(spec.build(args));
      const seat = await ctx.session.seatKey();
      // The protocol's own schema judges it here too, so a bad submission fails before any network.
      parseOrThrow(SubmissionSchema, { ...submission, table, seat: seat.name, nonce: randomNonce() }, "submission");
      const effects = "effects" in submission ? submission.effects : undefined;
      if (effects) await holdOwnerSession(ctx, table);
      const note = spec.note?.(submission) ?? null;
      return submit(ctx, table, submission, (result) => {
        const status = [
          `${submission.kind} written as entry #${result.seq} at ${table} by seat ${seat.name} (head #${result.head.seq}).`,
        ];
        if (result.truncated)
          status.push("The relay cut its body to the floor's max_chars; the entry records the original's hash.");
        if (effects) {
          const tasks = [...new Set(effects.map((e) => e.owner))].map(
            (owner) => `${taskIdOf(result.seq, owner)} (owner ${owner})`,
          );
          status.push(
            `It opened ${tasks.length === 1 ? "a task" : "tasks"}: ${tasks.join(", ")}. Each owner approves their own task; nothing runs before that.`,
          );
        }
        if (note !== null) status.push(note);
        return {
          status,
          structured: { table, seat: seat.name, kind: submission.kind, seq: result.seq, head: result.head.seq },
        };
      });
    },
  });
}

/** Submits as the seat, through the owner-side guards when the seat has a mandate or sits in a room whose key this home holds (docs/ROOMS.md), and replies with `done`. */
async function submit(
  ctx: ToolContext,
  table: string,
  submission: SeatSubmission,
  done: (sent: { seq: number; head: { seq: number }; truncated?: boolean }) => ToolReply,
): Promise<ToolReply | ToolAsk> {
  const seat = await ctx.session.seatKey();
  if (writesGuarded(ctx.session.settings.home, table, seat.name))
    return sendGuarded(ctx, await guardedSeat(ctx, table), submission, (sent) => done(sent));
  return done(await (await ctx.session.client(table)).submit(seat.signer, seat.name, submission));
}

/** The submission without its left-out fields: canonical JSON has no `undefined`. */
function withoutUndefined(submission: SeatSubmission): SeatSubmission {
  return Object.fromEntries(Object.entries(submission).filter(([, value]) => value !== undefined)) as SeatSubmission;
}

function tableOf(args: object): string | undefined {
  return "table" in args && typeof args.table === "string" ? args.table : undefined;
}
