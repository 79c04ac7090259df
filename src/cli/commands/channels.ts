/**
 * `trestle channels`: every chat account bound to the owner key and its delivery health, read with
 * an owner-signed authorization. A channel that never delivered is UNPROVEN (it does not count as a
 * way to reach the owner); LINE's monthly quota is shown as such.
 */
import type { AttemptRecord, ChannelHealth } from "../../protocol/index.js";
import { OWNER_FLAGS } from "../args.js";
import { oneLine } from "../format.js";
import { ownerClientOf } from "../owner-client.js";
import type { Styles } from "../output.js";
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
    if (lines.length === 0) lines.push("no chat account is bound: trestle bind telegram|line|discord");
    else if (!health.has_proven_channel) {
      lines.push(c.yellow("no channel has delivered yet: proposals that need your approval get E_NO_APPROVER unless you are online"));
    }
    ctx.out.result([`owner ${owner} (${health.owner_key})`, ...lines], { owner, ...health });
  },
};

/** One channel as a line: platform, account, label and language, state, deliveries, newest attempt (the label and the platform's words reduced to one safe line). */
export function channelLine(channel: ChannelHealth, c: Styles): string {
  const who = `${channel.platform} ${channel.account} (${oneLine(channel.label)}, ${channel.lang})`;
  const delivered = channel.delivered > 0 ? `${channel.delivered} delivered, last ${iso(channel.last_delivered_at)}` : "never delivered";
  const last = channel.last_attempt ? `; last attempt ${attemptText(channel.last_attempt)}` : "";
  return `${who}  ${stateText(channel, c)}  ${delivered}${last}`;
}

function stateText(channel: ChannelHealth, c: Styles): string {
  switch (channel.state) {
    case "ok":
      return c.green("ok");
    case "unproven":
      return c.yellow("UNPROVEN");
    case "failing":
      return c.red("failed");
    case "quota_exhausted":
      return c.red(`${channel.platform === "line" ? "LINE" : channel.platform} monthly quota exhausted`);
  }
}

function attemptText(attempt: AttemptRecord): string {
  const status = attempt.http_status === null ? "" : ` HTTP ${attempt.http_status}`;
  const reason = attempt.reason === null ? "" : ` ${attempt.reason}`;
  const detail = attempt.detail === null ? "" : `: ${oneLine(attempt.detail)}`;
  return `${attempt.status}${status}${reason}${detail} at ${iso(attempt.at)}`;
}

function iso(ms: number | null): string {
  return ms === null ? "-" : new Date(ms).toISOString();
}
