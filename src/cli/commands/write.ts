/**
 * The shared body of the writing verbs (say, pass, raise-hand, propose, decide): read the text
 * (an argument, or stdin for "-"), build the submission with its optional fields, sign it with the
 * seat key, send it with the newest verified head as known_head, and print the new seq.
 */
import type { AuthoredKind } from "../../protocol/index.js";
import type { SeatSubmission } from "../../client/index.js";
import { integer, positionals, SEAT_FLAGS, TABLE_FLAG, type Flags } from "../args.js";
import type { Context } from "../context.js";
import { UsageError } from "../exit.js";
import { headRef } from "../format.js";
import type { Command } from "./command.js";

/** Flags for entries that address seats and cite others (say, propose). */
export const ADDRESS_FLAGS: Flags = {
  to: { type: "string", value: "SEATS", help: "comma-separated seats this is addressed to" },
  re: { type: "string", value: "SEQ", help: "the entry this answers" },
  ref: { type: "string", multiple: true, value: "REF", help: "a reference: entry:<seq>, task:<id>, table:<id> or https://… (repeatable)" },
  tokens: { type: "string", value: "N", help: "tokens spent producing this entry (counts toward budget_tokens)" },
};

/** Which optional fields a kind carries. */
interface Shape {
  kind: AuthoredKind;
  text: "required" | "optional";
  fields: readonly ("to" | "re" | "refs" | "budget")[];
}

/** A writing command for `shape`. */
export function writeCommand(name: string, summary: string, shape: Shape): Command {
  const flags: Flags = { ...TABLE_FLAG, ...SEAT_FLAGS };
  for (const field of shape.fields) {
    const flag = field === "refs" ? "ref" : field === "budget" ? "tokens" : field;
    flags[flag] = ADDRESS_FLAGS[flag]!;
  }
  return {
    name,
    summary,
    args: shape.text === "required" ? "<text | ->" : "[text | -]",
    flags,
    async run(ctx) {
      const table = ctx.tableId();
      const { seat, key } = await ctx.seat();
      const submission = await build(ctx, shape);
      const client = await ctx.table(table);
      const result = await client.submit(key.signer, seat, submission);
      const cut = result.truncated ? ctx.out.c.yellow(" (truncated by the relay to the floor's max_chars)") : "";
      ctx.out.result(`${shape.kind} written as entry #${result.seq} (head ${headRef(result.head)})${cut}`, result);
    },
  };
}

async function build(ctx: Context, shape: Shape): Promise<SeatSubmission> {
  const [text] = positionals(ctx.args, ["text"], shape.text === "required" ? 1 : 0);
  const body = text === "-" ? (await ctx.io.stdin()).replace(/\r?\n$/, "") : (text ?? "");
  const out: Record<string, unknown> = { kind: shape.kind, body };
  const v = ctx.args.values;
  if (typeof v.to === "string") out.to = v.to.split(",").map((s) => s.trim()).filter(Boolean);
  const re = integer(ctx.args, "re");
  if (re !== undefined) out.re = re;
  if (Array.isArray(v.ref) && v.ref.length > 0) out.refs = v.ref;
  const tokens = integer(ctx.args, "tokens");
  if (tokens !== undefined) out.budget = { tokens };
  if (shape.text === "required" && body === "") throw new UsageError(`${shape.kind} needs some text`);
  return out as SeatSubmission;
}
