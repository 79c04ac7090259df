/**
 * `trestle channels`: every chat account bound to the owner key and its delivery health, read with
 * an owner-signed authorization. A channel that never delivered is UNPROVEN (it does not count as a
 * way to reach the owner); LINE's monthly quota is shown as such.
 */
import { ChatPlatformSchema } from "../../protocol/index.js";
import { OWNER_FLAGS } from "../args.js";
import { channelLine } from "../../text/format.js";
import { ownerClientOf } from "../owner-client.js";
import type { Command } from "./command.js";

/** `channels`: one line per channel, its state first, then the newest attempt. */
export const channels: Command = {
  name: "channels",
  summary: "list your bound chat accounts and whether notifications reach them",
  flags: { ...OWNER_FLAGS },
  async run(ctx) {
    const { owner, client } = await ownerClientOf(ctx);
    const health = await client.channels();
    const c = ctx.out.c;
    const lines = health.channels.map((channel) => channelLine(channel, c));
    if (lines.length === 0)
      lines.push(`no chat account is bound: trestle bind ${ChatPlatformSchema.options.join("|")}`);
    else if (!health.has_proven_channel) {
      lines.push(
        c.yellow(
          "no channel has delivered yet: proposals that need your approval get E_NO_APPROVER unless you are online",
        ),
      );
    }
    ctx.out.result([`owner ${owner} (${health.owner_key})`, ...lines], { owner, ...health });
  },
};
