/**
 * What a seat keeps for its owner (docs/ROOMS.md): `tell-owner` sends a note to the owner's chat
 * apps (through the relay, never the table); `rationale` writes why the agent did something to the
 * journal on this machine; `journal` shows the journal: rationale, notes, what the guards refused
 * or held and why, the owner's answers and what was sent.
 */
import { bodyLines, safeJson, safeLine } from "../../text/framing.js";
import type { JournalRecord } from "../../owner/index.js";
import { integer, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { guardedSeat, money } from "../room.js";
import { bodyOf } from "./write.js";
import type { Command } from "./command.js";

/** What the journal says a driven seat did after its agent's turn was refused. */
const THEN = { retry: "was given another turn at once", pass: "passed", wait: "waited" } as const;

/** `tell-owner <text>`: a note to the seat's owner, never to the table. */
export const tellOwner: Command = {
  name: "tell-owner",
  summary: "send your owner a note in their chat apps (never the table)",
  args: "<text | ->",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS },
  async run(ctx) {
    const [text] = positionals(ctx.args, ["text"]);
    const sent = await (await guardedSeat(ctx)).tellOwner(await bodyOf(ctx, text, "a note"));
    ctx.out.result(
      `note sent to your owner (${sent.queued} chat ${sent.queued === 1 ? "channel" : "channels"}; none means they bound no chat app yet)`,
      sent,
    );
  },
};

/** `rationale <text>`: private rationale, kept on this machine. */
export const rationale: Command = {
  name: "rationale",
  summary: "record why you did something, for your owner only (never sent)",
  args: "<text | ->",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, re: { type: "string", value: "SEQ", help: "the entry it is about" } },
  async run(ctx) {
    const [text] = positionals(ctx.args, ["text"]);
    const seat = await guardedSeat(ctx);
    const re = integer(ctx.args, "re");
    const record = seat.rationale(await bodyOf(ctx, text, "a rationale"), re === undefined ? undefined : { seq: re });
    ctx.out.result(`kept on this machine in ${seat.journal.path}`, record);
  },
};

/** `journal`: the seat's private records, oldest first. */
export const journal: Command = {
  name: "journal",
  summary: "show what never left this machine for a seat: rationale, notes, refusals, held messages",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS },
  async run(ctx) {
    const seat = await guardedSeat(ctx);
    const { records, skipped } = seat.journal.read();
    const lines = records.map(recordLine);
    if (skipped > 0)
      lines.push(
        ctx.out.c.yellow(
          `${skipped} lines of ${seat.journal.path} are not journal records (edited by hand or by something else)`,
        ),
      );
    ctx.out.result(lines.length === 0 ? ["the journal is empty"] : lines, { records, skipped });
  },
};

function recordLine(r: JournalRecord): string {
  const at = new Date(r.at).toISOString();
  switch (r.type) {
    case "rationale":
      return `${at} rationale${r.re?.seq ? ` (entry #${r.re.seq})` : ""}: ${bodyLines(r.text).join(" / ")}`;
    case "owner_note":
      return `${at} note to owner${r.error ? ` (failed: ${r.error})` : ""}: ${safeLine(r.text, 1000)}`;
    case "refusal":
      return `${at} REFUSED ${r.kind} (${r.guard}: ${r.reason}): ${safeLine(r.message, 1000)}`;
    case "agent_refusal":
      return `${at} AGENT FAILED its turn (${r.driver}: ${r.reason}), then ${THEN[r.then]}: ${safeLine(r.message, 1000)}`;
    case "held":
      return `${at} held ${r.message_sha256.slice(0, 16)} (${r.why}): ${safeJson(r.submission)}`;
    case "gate_answer":
      return `${at} owner ${r.verdict}d ${r.message_sha256.slice(0, 16)}`;
    case "sent":
      return `${at} sent ${r.kind} as entry #${r.seq}${r.approval ? " (spending an approval)" : ""}`;
    case "send_failed":
      return `${at} send of ${r.kind} failed (${r.outcome}, ${r.code})`;
    case "bid":
      return `${at} sealed bid of ${money(r.bid, r.currency)} as the ${r.side} in auction ${r.auction.slice(0, 12)}… (commitment ${r.commitment.slice(0, 12)}…)`;
    case "market_bid":
      return `${at} sealed bid of ${money(r.bid, r.currency)} by ${r.bidder} on listing ${r.listing.slice(0, 12)}… (commitment ${r.commitment.slice(0, 12)}…)`;
  }
}

/** The private verbs, in help order. */
export const PRIVATE: readonly Command[] = [tellOwner, rationale, journal];
