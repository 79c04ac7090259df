/**
 * What the room verbs share (docs/CLI.md "Rooms"): how a verb is made (`roomVerb`), the seat of --seat at --table as a GuardedSeat
 * (every write goes through the owner-side guards), terms from --amount (an integer in the
 * currency's minor units), --currency and --text, and how a sent message is printed.
 */
import type { SeatSubmission } from "../client/index.js";
import { GuardedSeat, resolveRef, standingDealLines, type RoomRef, type Transcript } from "../owner/index.js";
import { majorUnits } from "../text/terms.js";
import { parseOrThrow, TermsSchema, TrestleError, type CurrencyCode, type Terms } from "../protocol/index.js";
import { integer, optional, positionals, SEAT_FLAGS, TABLE_FLAG, type Flags } from "./args.js";
import type { Command } from "./commands/command.js";
import { bodyOf } from "./commands/write.js";
import type { Context } from "./context.js";
import { currencyFlag } from "./currency-flag.js";
import { headRef } from "../text/format.js";
import type { Sent } from "../owner/index.js";

/** --amount, --currency and --text. */
export const TERMS_FLAGS: Flags = {
  amount: {
    type: "string",
    value: "N",
    help: "the amount as an integer in the currency's minor units (2,800.00 TWD is 280000)",
  },
  currency: { type: "string", value: "CODE", help: "ISO 4217 currency of the amount (e.g. TWD, USD, JPY)" },
  text: { type: "string", value: "TEXT", help: "the terms in words (what, where, when)" },
};

/** The seat of --seat at --table, writing through the owner-side guards of this home. */
export async function guardedSeat(ctx: Context): Promise<GuardedSeat> {
  const table = ctx.tableId();
  const { seat, key } = await ctx.seat();
  return new GuardedSeat({
    client: await ctx.table(table),
    seat,
    signer: key.signer,
    home: ctx.home,
    clock: ctx.io.clock,
  });
}

/** `transcript` to show; a REFUTED one is refused (exit 4) with E_REFUTED, the first bad seq and why (one that caught the relay is already E_FORK: readTranscript). */
export function unrefuted(transcript: Transcript): Transcript {
  const { verdict, refuted } = transcript.report;
  if (verdict !== "REFUTED") return transcript;
  throw new TrestleError(
    "E_REFUTED",
    `the table's transcript is REFUTED at ${refuted?.seq ?? "?"}: ${refuted?.reason ?? "no reason given"}`,
    { ...refuted },
  );
}

/** The terms the flags give; a usage error for a --currency that is not a code, E_SCHEMA naming the field when the terms are not flat, exact terms. */
export function termsFrom(ctx: Context): Terms {
  const amount = integer(ctx.args, "amount");
  const currency = currencyFlag(ctx.args);
  const text = optional(ctx.args, "text");
  return parseOrThrow(
    TermsSchema,
    {
      ...(amount === undefined ? {} : { amount }),
      ...(currency === undefined ? {} : { currency }),
      ...(text === undefined ? {} : { text }),
    },
    "terms",
  );
}

/** Prints that `label` was written as an entry, with its message hash. */
export function printSent(ctx: Context, label: string, sent: Sent): void {
  ctx.out.result(
    [
      `${label} written as entry #${sent.seq} (head ${headRef(sent.head)}), message ${sent.message_sha256.slice(0, 12)}…`,
      ...standingDealLines(sent),
    ],
    sent,
  );
}

/** An amount in words: "2,800.00 TWD". */
export function money(amount: number, currency: CurrencyCode): string {
  return `${majorUnits(amount, currency)} ${currency}`;
}

const MESSAGE = "[message | -]";

/** A room verb: `args` names its positionals before the optional message; `build` makes the submission (through `seat`, for a sealed bid). */
export function roomVerb(
  name: string,
  summary: string,
  shape: { args: string[]; flags?: Flags },
  build: (
    ctx: Context,
    named: string[],
    resolve: (ref: string, what: RoomRef) => Promise<string>,
    seat: GuardedSeat,
  ) => SeatSubmission | Promise<SeatSubmission>,
): Command {
  return {
    name: `room ${name}`,
    summary,
    args: [...shape.args.map((a) => `<${a}>`), MESSAGE].join(" "),
    flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...shape.flags },
    async run(ctx) {
      const given = positionals(ctx.args, [...shape.args, "message"], shape.args.length);
      const seat = await guardedSeat(ctx);
      const resolve = async (ref: string, what: RoomRef) => resolveRef(await seat.transcript(), ref, what);
      const body = await bodyOf(ctx, given[shape.args.length], null);
      const submission = await build(ctx, given.slice(0, shape.args.length), resolve, seat);
      printSent(ctx, name, await seat.send({ ...submission, body } as SeatSubmission));
    },
  };
}
