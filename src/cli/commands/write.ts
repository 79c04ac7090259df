/**
 * The shared body of the writing verbs (say, pass, raise-hand, propose, decide, progress, receipt,
 * vote, verify --task): read the text (an argument, or stdin for "-"), build the submission with
 * its optional fields, sign it with the seat key (after the owner-side guards when the seat has a
 * mandate or sits in an e2e room whose key this home holds, docs/ROOMS.md), send it with the newest verified head as known_head, and print the new seq, with the state of the task the entry moved or the tasks its
 * effects opened.
 */
import type { AuthoredKind, TaskState } from "../../protocol/index.js";
import type { SeatSubmission } from "../../client/index.js";
import { positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { fieldFlags, readFields, type EntryField } from "../entry-fields.js";
import { UsageError } from "../exit.js";
import { headRef, taskLine } from "../../text/format.js";
import type { Command } from "./command.js";
import { GuardedSeat, writesGuarded } from "../../owner/index.js";

/** Which optional fields a kind carries. */
interface Shape {
  kind: AuthoredKind;
  text: "required" | "optional";
  fields: readonly EntryField[];
}

/** A writing command for `shape`. */
export function writeCommand(name: string, summary: string, shape: Shape): Command {
  return {
    name,
    summary,
    args: shape.text === "required" ? "<text | ->" : "[text | -]",
    flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...fieldFlags(shape.fields) },
    async run(ctx) {
      const [text] = positionals(ctx.args, ["text"], shape.text === "required" ? 1 : 0);
      const body = await bodyOf(ctx, text, shape.text === "required" ? shape.kind : null);
      await submitEntry(ctx, { kind: shape.kind, body, ...readFields(ctx.args, shape.fields) } as SeatSubmission);
    },
  };
}

/** The body from a positional: itself, stdin for "-" (one trailing newline dropped), "" when absent; `required` names a kind that needs text. */
export async function bodyOf(ctx: Context, text: string | undefined, required: string | null): Promise<string> {
  const body = text === "-" ? (await ctx.io.stdin()).replace(/\r?\n$/, "") : (text ?? "");
  if (required !== null && body === "") throw new UsageError(`${required} needs some text`);
  return body;
}

/** What a verb adds to the printed result: a label for the entry (default its kind) and fields for --json. */
export interface WriteExtras {
  label?: string;
  json?: Record<string, unknown>;
}

/** Signs and writes `submission` as the seat of --seat at --table (through the owner-side guards when the seat has a mandate or the home holds the room key, docs/ROOMS.md), and prints what it did. */
export async function submitEntry(ctx: Context, submission: SeatSubmission, extras: WriteExtras = {}): Promise<void> {
  const table = ctx.tableId();
  const { seat, key } = await ctx.seat();
  const client = await ctx.table(table);
  const result = writesGuarded(ctx.home, table, seat)
    ? await new GuardedSeat({ client, seat, signer: key.signer, home: ctx.home, clock: ctx.io.clock }).send(submission)
    : await client.submit(key.signer, seat, submission);
  const c = ctx.out.c;
  const cut = result.truncated ? c.yellow(" (truncated by the relay to the floor's max_chars)") : "";
  const lines = [
    `${extras.label ?? submission.kind} written as entry #${result.seq} (head ${headRef(result.head)})${cut}`,
  ];
  let tasks: TaskState[] = [];
  if ("task" in submission || ("effects" in submission && submission.effects)) {
    const all = await client.tasks({ signer: key.signer, as: { seat } });
    tasks = all.filter((t) => ("task" in submission ? t.id === submission.task : t.proposal.seq === result.seq));
    lines.push(...tasks.map((t) => `task ${taskLine(t, c)}`));
  }
  ctx.out.result(lines, { ...result, ...extras.json, ...(tasks.length > 0 ? { tasks } : {}) });
}
