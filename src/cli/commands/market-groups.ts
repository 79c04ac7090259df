/**
 * A market's chat groups from the command line (docs/CHAT-APPS.md "Groups", docs/CLI.md "Markets"):
 * the creator's one-time code that binds a Telegram group, LINE group or Discord channel (typed in
 * the group), the creator's signed unbinding, and the bound groups with their delivery health, read
 * by any member or the creator.
 */
import { GroupIdSchema, LangSchema } from "../../protocol/index.js";
import { groupCode, marketGroups, unbindGroup } from "../../owner/market-groups.js";
import { OWNER_FLAGS, optional, required, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { platformArg } from "../owner-client.js";
import { channelHealthText, headRef } from "../../text/format.js";
import type { Command } from "./command.js";

const PLATFORM_FLAG = {
  platform: { type: "string", value: "APP", help: "the group's chat app: telegram, line or discord" },
} as const;

/** `market group-code`: the creator's code that binds one group of --platform to the market, typed in the group. */
export const marketGroupCode: Command = {
  name: "market group-code",
  summary:
    "get a one-time code that makes a chat group your market's front door (you are its creator); send it in the group",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ...PLATFORM_FLAG,
    lang: {
      type: "string",
      value: "LANG",
      help: "the language the group is told things in: en (default), zh-Hans, zh-Hant or ja",
    },
  },
  async run(ctx) {
    const platform = platformArg(required(ctx.args, "platform"));
    const lang = LangSchema.safeParse(optional(ctx.args, "lang") ?? "en");
    if (!lang.success) throw new UsageError("--lang must be en, zh-Hans, zh-Hant or ja");
    const client = await ctx.table(ctx.tableId());
    const { key } = await ctx.owner();
    const code = await groupCode(client, key.signer, platform, lang.data, ctx.io.clock);
    const c = ctx.out.c;
    ctx.out.result(
      [
        `group code for ${platform}: ${c.bold(code.code)} (market ${client.table}; single use, valid until ${new Date(code.expires).toISOString()})`,
        code.send,
        c.dim(
          "The group it is typed in becomes the market's front door; trestle market groups shows it, UNPROVEN until its greeting is delivered.",
        ),
      ],
      { table: client.table, ...code, lang: lang.data },
    );
  },
};

/** `market group-unbind`: the creator's signed unbinding of one group. */
export const marketGroupUnbind: Command = {
  name: "market group-unbind",
  summary: "stop a chat group being your market's front door (you are its creator)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ...PLATFORM_FLAG,
    group: { type: "string", value: "ID", help: "the group's id on its chat app (trestle market groups lists it)" },
  },
  async run(ctx) {
    const platform = platformArg(required(ctx.args, "platform"));
    const group = GroupIdSchema.safeParse(required(ctx.args, "group"));
    if (!group.success) throw new UsageError("--group must be a group id as trestle market groups lists it");
    const client = await ctx.table(ctx.tableId());
    const { key } = await ctx.owner();
    const done = await unbindGroup(client, key.signer, platform, group.data, ctx.io.clock);
    ctx.out.result(
      [
        `unbound ${platform} group ${group.data} from market ${client.table} (entry #${done.seq}, head ${headRef(done.head)})`,
      ],
      { table: client.table, platform, group: group.data, ...done },
    );
  },
};

/** `market groups`: the groups bound now, each with its delivery health, read as --owner or --seat. */
export const marketGroupList: Command = {
  name: "market groups",
  summary: "list the chat groups that are a market's front door, and whether what it tells them reaches them",
  flags: { ...TABLE_FLAG, ...OWNER_FLAGS, ...SEAT_FLAGS },
  async run(ctx) {
    const client = await ctx.table(ctx.tableId());
    const answer = await marketGroups(client, await ctx.reader());
    const c = ctx.out.c;
    const lines = answer.groups.map(
      (g) =>
        `#${g.seq} ${g.platform} ${g.group} (${g.lang})  ${g.health ? channelHealthText(g.health, c) : c.yellow("not yet taken by its outbox")}`,
    );
    if (lines.length === 0)
      lines.push(
        `no chat group is bound: the creator runs trestle market group-code --table ${client.table} --platform <app>`,
      );
    ctx.out.result(
      [`market ${client.table}: ${answer.groups.length} group${answer.groups.length === 1 ? "" : "s"}`, ...lines],
      { table: client.table, ...answer },
    );
  },
};

/** The market's group verbs, in help order. */
export const MARKET_GROUPS: readonly Command[] = [marketGroupCode, marketGroupUnbind, marketGroupList];
