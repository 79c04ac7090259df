/**
 * `trestle_close`: what closing means for an owner: an owner-signed pause (docs/SPEC.md §5.5).
 * Every authored write stops (E_PAUSED) until an owner resumes, which this tool also does with
 * `action: "resume"`. A table closes for good only through its own termination (a decision, rounds,
 * a budget, a quorum), which no owner can force; a pause is the owner's stop button.
 */
import { z } from "zod";
import { ControlActionSchema } from "../../protocol/index.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** Pauses (or resumes) a table, signed by the owner key. */
export const close = defineTool({
  name: "trestle_close",
  title: "Stop (pause) or resume a table",
  description:
    "Stop a table as your owner: an owner-signed pause, after which no seat can write until an owner resumes it (action resume). Your owner must hold a seat there. A table ends for good only by its own termination rules (e.g. a decision).",
  input: z.strictObject({ table: TableArg, action: ControlActionSchema.default("pause").describe("pause (default) or resume") }),
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
          ? `Table ${id} paused by owner ${owner.name} (entry #${seq}): no seat can write until an owner resumes it. Owners may still approve or reject tasks.`
          : `Table ${id} resumed by owner ${owner.name} (entry #${seq}).`,
    };
  },
});
