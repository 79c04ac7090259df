/**
 * `trestle_close`: what closing means for an owner: an owner-signed pause (docs/SPEC.md §5.5).
 * Every authored write stops (E_PAUSED) while any owner's pause holds; `action: "resume"` lifts
 * this owner's own pause only (other owners' pauses stay). A table closes for good only through its
 * own termination (a decision, rounds, a budget, a quorum), which no owner can force; a pause is
 * the owner's stop button.
 */
import { z } from "zod";
import { ControlActionSchema } from "../../protocol/index.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** Pauses a table, or lifts the owner's own pause, signed by the owner key. */
export const close = defineTool({
  name: "trestle_close",
  title: "Stop (pause) or resume a table",
  description:
    "Stop a table as your owner: your owner's signed pause, after which no seat can write while it (or any other owner's pause) holds. Pausing needs a seat of your owner there. action resume lifts your owner's own pause only, seat or not; other owners' pauses stay until each of them lifts theirs. A table ends for good only by its own termination rules (e.g. a decision).",
  input: z.strictObject({
    table: TableArg,
    action: ControlActionSchema.default("pause").describe("pause (default) or resume (lift your owner's own pause)"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, action }, ctx) {
    const { session } = ctx;
    const id = session.tableId(table);
    const { owner, client } = await session.ownerClient();
    const { seq } = await client.control(id, owner.name, action);
    await (await session.client(id)).head();
    return {
      status:
        action === "pause"
          ? `Table ${id} paused by owner ${owner.name} (entry #${seq}): no seat can write until ${owner.name} lifts this pause (action resume) and every other owner's pause is lifted too. Owners may still approve or reject tasks.`
          : `Owner ${owner.name}'s pause on table ${id} lifted (entry #${seq}). Other owners' pauses, if any, still hold (trestle_memory names them).`,
    };
  },
});
