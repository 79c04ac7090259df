/**
 * `trestle seat`: any agent takes a seat (docs/AGENTS.md). With --exec a command runs at each of
 * the seat's turns (the turn on stdin, its stdout the entry); with --a2a an A2A agent gets each turn
 * as a message and its reply is the entry. Both write through the owner-side guards, as every
 * other write does (src/owner/seat-driver.ts). Runs until the table closes (exit 0), or Ctrl-C or
 * SIGTERM (at once, even while an A2A agent's question waits for the owner); a failed turn is shown
 * on stderr and kept in the seat's journal (trestle journal), and the seat passes when it held the
 * floor. The A2A client is imported only when --a2a is given, so every
 * other command starts without it.
 */
import { randomBoundary } from "../../client/random.js";
import type { Signer } from "../../protocol/index.js";
import { driveSeat, execAgent, OwnerWords, type DriverEvent, type SeatAgent } from "../../owner/index.js";
import { integer, optional, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

/** What the seat's stderr says it did after a refused turn. */
const SEAT_THEN = {
  retry: "the agent is told so and answers again",
  pass: "the seat passed",
  wait: "the seat waits",
} as const;

/** `seat --exec CMD | --a2a URL`: drives the seat of --seat at --table with that agent until the table closes. */
export const seat: Command = {
  name: "seat",
  summary: "let any agent hold a seat: a command (--exec) or an A2A agent (--a2a), turn by turn",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    exec: {
      type: "string",
      value: "CMD",
      help: "run CMD with /bin/sh -c at each turn: the turn on stdin (framed text; JSON with --json), its stdout the entry",
    },
    a2a: {
      type: "string",
      value: "URL",
      help: "send each turn to the A2A agent at URL (its card at URL/.well-known/agent-card.json); its reply is the entry",
    },
    timeout: {
      type: "string",
      value: "SECONDS",
      help: "how long one turn may take before it is refused (default 120; the command's whole process group is killed)",
    },
  },
  async run(ctx) {
    const command = optional(ctx.args, "exec");
    const url = optional(ctx.args, "a2a");
    if ((command === undefined) === (url === undefined))
      throw new UsageError("give exactly one of --exec CMD or --a2a URL");
    const timeoutMs = (integer(ctx.args, "timeout", 120) ?? 120) * 1000;
    if (timeoutMs <= 0) throw new UsageError("--timeout must be at least 1 second");
    const table = ctx.tableId();
    const { seat: name, key } = await ctx.seat();
    const client = await ctx.table(table);
    const agent =
      command !== undefined
        ? execAgent({
            command,
            json: ctx.args.values.json === true,
            timeoutMs,
            env: ctx.io.env,
            boundary: randomBoundary,
          })
        : await a2aAgent(ctx, url!, timeoutMs, table, name, key.signer);
    const stop = new AbortController();
    const interrupt = (signal: NodeJS.Signals) => {
      ctx.out.notice(`${signal}: stopping the seat`);
      stop.abort();
    };
    process.once("SIGINT", interrupt);
    process.once("SIGTERM", interrupt);
    ctx.out.notice(
      `seat ${name} at ${table} is driven by ${command !== undefined ? `the command: ${command}` : `the A2A agent at ${url}`}; Ctrl-C to stop`,
    );
    let run;
    try {
      run = await driveSeat(agent, {
        client,
        seat: name,
        signer: key.signer,
        home: ctx.home,
        clock: ctx.io.clock,
        signal: stop.signal,
        onEvent: (event) => show(ctx, event),
      });
    } finally {
      process.off("SIGINT", interrupt);
      process.off("SIGTERM", interrupt);
    }
    const end = run.reason === "closed" ? `the table closed (${run.closed})` : "stopped";
    ctx.out.result(`seat ${name} at ${table}: ${end} at entry #${run.cursor}`, run);
  },
};

/** The A2A agent at `url`, its client loaded now (docs/AGENTS.md): owner questions go through this seat's ask-the-owner path. */
async function a2aAgent(
  ctx: Context,
  url: string,
  timeoutMs: number,
  table: string,
  seat: string,
  signer: Signer,
): Promise<SeatAgent> {
  const { a2aAgent: connect } = await import("../../owner/a2a-agent.js");
  const words = await OwnerWords.at(ctx.home, table);
  return connect({
    url,
    timeoutMs,
    http: ctx.http(),
    table,
    seat,
    signer,
    words,
    clock: ctx.io.clock,
    boundary: randomBoundary,
    onAsk: (question) => ctx.out.notice(`the agent asked the owner: question ${question}`),
    onAskCancelled: (question) =>
      ctx.out.notice(
        `stopped waiting for the owner's answer to question ${question}: the seat is stopping, and an answer given now reaches no agent`,
      ),
  });
}

function show(ctx: Context, event: DriverEvent): void {
  if (event.type === "written") ctx.out.line(`wrote ${event.kind} as entry #${event.seq}`, event);
  else if (event.type === "refused")
    ctx.out.warn(`turn refused: ${event.code} (${event.reason}): ${event.message}; ${SEAT_THEN[event.then]}`);
  else if (event.type === "race")
    ctx.out.notice(`lost a race for the floor (${event.code}); waiting for the next turn`);
  else if (event.type === "turn") ctx.out.notice(`turn at entry #${event.cursor} (${event.reason})`);
}
