/**
 * `trestle_wait`: blocks until this seat holds the floor, the table closes, or another seat wrote
 * something, then reads like trestle_read; or returns after `timeout_s` with whatever is new. It
 * listens on the seat's verified WebSocket (src/mcp/live.ts) and reads the projection again only
 * when the relay pushed something.
 */
import { z } from "zod";
import { deliver, fetchView, ReadOutput, readStateFor, wakeReason } from "../reading.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";
import { CURSOR_ARGS, LimitArg } from "./read.js";

/** The longest a single wait may block, in seconds (MCP clients time tool calls out). */
export const MAX_WAIT_S = 300;

/** Waits for the turn or for news, then reads. */
export const wait = defineTool({
  name: "trestle_wait",
  title: "Wait for your turn or for news",
  description:
    "Block until you hold the floor, the table closes, or another seat writes something (then read it, like trestle_read), or until timeout_s passes. Use it instead of polling trestle_read.",
  input: z.strictObject({
    table: TableArg,
    ...CURSOR_ARGS,
    timeout_s: z
      .int()
      .min(0)
      .max(MAX_WAIT_S)
      .default(30)
      .describe(`how long to wait at most, in seconds (0-${MAX_WAIT_S}, default 30)`),
    limit: LimitArg,
  }),
  output: ReadOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table, timeout_s, limit, ...given }, ctx) {
    const id = ctx.session.tableId(table);
    const state = readStateFor(ctx, id, given);
    const seat = await ctx.session.seatKey();
    const live = await ctx.session.live(id);
    await live.watch(seat.name, seat.signer);
    const deadline = ctx.now() + timeout_s * 1000;
    ctx.progress(`waiting at ${id} for ${seat.name}'s turn or news, up to ${timeout_s} s`);
    for (;;) {
      const version = live.version;
      const view = await fetchView(ctx, id, state);
      const reason = wakeReason(view);
      if (reason) return deliver(ctx, view, limit, state, [`Woke: ${reason}.`]);
      const left = deadline - ctx.now();
      const moved = left > 0 && !ctx.signal.aborted && (await live.next(version, left, ctx.signal));
      const failure = live.takeFailure();
      if (failure) throw failure;
      if (!moved)
        return deliver(ctx, view, limit, state, [
          `Nothing for you yet after ${timeout_s} s${ctx.signal.aborted ? " (cancelled)" : ""}; call trestle_wait again to keep waiting.`,
        ]);
    }
  },
});
