/** `trestle_notify_status`: the owner's chat channels and their delivery health (docs/SPEC.md §11.4). */
import { z } from "zod";
import { CHAT_PLATFORM_NAMES } from "../../protocol/index.js";
import { channelLine } from "../../text/format.js";
import { stylesFor } from "../../text/styles.js";
import { defineTool } from "../tool.js";

const PLAIN = stylesFor(false);

/** Reads channel health with the owner key; each channel in the CLI's words (trestle channels). */
export const notifyStatus = defineTool({
  name: "trestle_notify_status",
  title: "Check your owner's notification channels",
  description: `Whether your owner can be reached: each chat account bound to their key (${Object.values(CHAT_PLATFORM_NAMES).join(", ")}) with its delivery health. A channel that never delivered is UNPROVEN and does not count as a way to reach them.`,
  input: z.strictObject({}),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(_args, ctx) {
    const { owner, client } = await ctx.session.ownerClient();
    const health = await client.channels();
    return {
      status: [
        `Notification channels of owner ${owner.name} (key ${health.owner_key}):`,
        ...(health.channels.length === 0
          ? ["  none bound (the owner binds one with trestle bind in a terminal)"]
          : health.channels.map((c) => `  ${channelLine(c, PLAIN)}`)),
        health.has_proven_channel
          ? "At least one channel has delivered, so the relay can reach your owner for approvals."
          : "No channel has ever delivered: the relay cannot count on reaching your owner this way (UNPROVEN).",
      ],
    };
  },
});
