/**
 * `trestle gate list|approve|reject|send` (docs/ROOMS.md): the owner sees what the commitment gate
 * holds for a seat (opened in an e2e room, with the terms it binds in the words every surface uses,
 * src/text/commitment.ts), signs an approval or a rejection of one message's hash with the owner key on
 * this machine, and the seat sends an approved message exactly as it was held.
 */
import type { GuardedSeat } from "../../owner/index.js";
import { heldLines } from "../../text/commitment.js";
import { guardedSeat, printSent, unrefuted } from "../room.js";
import { OWNER_FLAGS, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

const FLAGS = { ...TABLE_FLAG, ...SEAT_FLAGS };

/**
 * The full hash of the message `prefix` names (at least 8 hex characters) among every message the
 * gate ever held for the seat, sent and rejected ones too, so that acting on one of those answers
 * E_GATE with its state; a prefix that names none is a usage error.
 */
function heldHash(seat: GuardedSeat, prefix: string): string {
  const text = prefix.toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(text))
    throw new UsageError("name the held message by its hash (at least 8 hex characters; trestle gate list shows them)");
  const matches = [...new Set(seat.journal.ofType("held").map((h) => h.message_sha256))].filter((h) =>
    h.startsWith(text),
  );
  if (matches.length !== 1)
    throw new UsageError(
      matches.length === 0
        ? `no message ${prefix} was ever held for this seat (trestle gate list shows what is held)`
        : `${prefix} names ${matches.length} held messages; give more of the hash`,
    );
  return matches[0]!;
}

/** `gate list`: the messages held for the owner. */
export const gateList: Command = {
  name: "gate list",
  summary: "list the messages the gate holds for your approval, with what each binds you to",
  flags: FLAGS,
  async run(ctx) {
    const seat = await guardedSeat(ctx);
    const pending = seat.pending();
    // As the owner reads them: opened in an e2e room, with what each binds (an accept's offer from the verified ledger, a sealed bid's from the journal), from one verified transcript.
    const transcript = pending.length === 0 ? undefined : unrefuted(await seat.transcript());
    const held = await Promise.all(
      pending.map(async (h) => {
        const { submission, binds, named } = await seat.readable(h, transcript);
        return { ...h, submission, binds, words: heldLines(submission, named) };
      }),
    );
    const lines =
      held.length === 0
        ? ["nothing is held"]
        : held.map((h) => `${h.message_sha256.slice(0, 16)}  ${h.why}  ${h.words.join("; ")}`);
    ctx.out.result(lines, held);
  },
};

async function answer(ctx: Context, verdict: "approve" | "reject"): Promise<void> {
  const [prefix] = positionals(ctx.args, ["hash"]);
  const seat = await guardedSeat(ctx);
  const hash = heldHash(seat, prefix!);
  const { key } = await ctx.owner();
  await seat.answer(key.signer, hash, verdict);
  const next =
    verdict === "approve" ? `; the seat sends it with trestle gate send ${hash.slice(0, 12)}` : "; it will not be sent";
  ctx.out.result(
    `${verdict === "approve" ? "approved" : "rejected"} message ${hash.slice(0, 16)}… with your owner key${next}`,
    { message_sha256: hash, verdict },
  );
}

/** `gate approve <hash>`: the owner approves one held message. */
export const gateApprove: Command = {
  name: "gate approve",
  summary: "approve one held message with your owner key (one approval, one message, spent once)",
  args: "<hash>",
  flags: { ...FLAGS, ...OWNER_FLAGS },
  run: (ctx) => answer(ctx, "approve"),
};

/** `gate reject <hash>`: the owner rejects one held message (a rejection wins over any approval). */
export const gateReject: Command = {
  name: "gate reject",
  summary: "reject one held message with your owner key (it wins over any approval)",
  args: "<hash>",
  flags: { ...FLAGS, ...OWNER_FLAGS },
  run: (ctx) => answer(ctx, "reject"),
};

/** `gate send <hash>`: sends an approved held message exactly as held. */
export const gateSend: Command = {
  name: "gate send",
  summary: "send a held message the owner approved, exactly as it was held",
  args: "<hash>",
  flags: FLAGS,
  async run(ctx) {
    const [prefix] = positionals(ctx.args, ["hash"]);
    const seat = await guardedSeat(ctx);
    const hash = heldHash(seat, prefix!);
    printSent(ctx, "held message", await seat.sendHeld(hash));
  },
};

/** The gate verbs, in help order. */
export const GATE: readonly Command[] = [gateList, gateApprove, gateReject, gateSend];
