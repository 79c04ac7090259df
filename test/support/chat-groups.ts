/**
 * Chat groups for the workers tests (docs/SPEC.md §5.15 "Groups"): a market's group code asked for
 * as its creator signs it, and messages in a Telegram supergroup, a LINE group and a Discord server
 * channel, each signed exactly as the platform signs its webhook (chat-driver.ts), with where the
 * relay's private reply to the sender lands and what the fake saw posted to the group itself.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { groupAudience, signGroupCode, type ChatPlatform, type Lang, type Signer } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import type { DrainReport } from "../../durable-objects/owner/outbox.js";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import {
  discordCommand,
  drain,
  postDiscord,
  postLine,
  postTelegram,
  lineText,
  requests,
  telegramText,
} from "./chat-driver.js";
import { CHAT_TEST } from "./chat-env.js";
import type { RelayHttp, Reply } from "./relay-http.js";
import { nonceOf } from "./table-fixture.js";

let n = 0;

/** POST /tables/:market/group-codes, signed by `creator` (its answer, a code or a refusal). */
export async function askGroupCode(
  relay: RelayHttp,
  market: string,
  creator: Signer,
  platform: ChatPlatform,
  lang: Lang = "en",
): Promise<Reply> {
  const request = await signGroupCode(creator, {
    table: market,
    platform,
    lang,
    nonce: nonceOf(`group-code:${market}:${n++}:${Math.random()}`),
    ts: Date.now(),
  });
  return relay.request("POST", `/tables/${market}/group-codes`, request);
}

/** A group on one platform: its id there, and how a member's account there is named. */
export interface TestGroup {
  platform: ChatPlatform;
  /** Telegram: a negative supergroup id; LINE: a groupId; Discord: the channel id (its server is `guild`). */
  id: string;
}

/** The bot's username, as a Telegram group must address it. */
const BOT = CHAT_TEST.TELEGRAM_BOT_USERNAME;

/**
 * Sends `text` (a command, its leading `/` included) from `account` in `group`, as the platform
 * delivers it: Telegram addressed `@bot` in a supergroup, LINE as a group message event, Discord
 * as a slash command in a server channel (`name` and its one `value`). Returns the private reply
 * text the sender got, or null when the relay answered nothing.
 */
export async function sayInGroup(group: TestGroup, account: string, text: string): Promise<string | null> {
  const [command, ...rest] = text.split(" ");
  const arg = rest.join(" ");
  if (group.platform === "telegram") {
    const reply = await postTelegram(
      telegramText(Number(account), `${command}@${BOT}${arg === "" ? "" : ` ${arg}`}`, {
        chat: { id: Number(group.id), type: "supergroup" },
      }),
    );
    if (reply.status !== 200) throw new Error(`telegram hook answered ${reply.status}`);
    return reply.body.method === "sendMessage"
      ? (expectPrivate(reply.body.chat_id, account), String(reply.body.text))
      : null;
  }
  if (group.platform === "discord") {
    const base = discordCommand(account, group.id, command!.slice(1));
    const interaction = {
      ...base,
      guild_id: "777000111",
      data: { ...base.data, ...(arg === "" ? {} : { options: discordOptions(command!, arg) }) },
    };
    const reply = await postDiscord(interaction);
    if (reply.status !== 200) throw new Error(`discord hook answered ${reply.status}`);
    // Every interaction reply is ephemeral (flags 64): the sender alone sees it; "…" is the hook's answer when the relay said nothing.
    if (reply.body.data?.flags !== 64) throw new Error("a Discord reply in a server channel was not ephemeral");
    const content = String(reply.body.data.content);
    // Discord's markdown escapes (escapeDiscord) are taken off, so a test reads the words.
    return content === "…" ? null : content.replace(/\\(.)/g, "$1");
  }
  const pushes = (await requests(`"to":"${account}"`)).length;
  const reply = await postLine([
    lineText(account, text, { source: { type: "group", groupId: group.id, userId: account } }),
  ]);
  if (reply.status !== 200) throw new Error(`line hook answered ${reply.status}`);
  const pushed = (await requests(`"to":"${account}"`)).slice(pushes);
  return pushed.length === 0 ? null : bodyText(pushed.at(-1)!.body as Record<string, unknown>);
}

/**
 * A command's words as the options of its Discord slash command, named as DISCORD_COMMANDS names
 * them: a listing's `#category` as `category` and the rest as `item` (a price typed last stays in
 * the item, which the relay reads as typed), a withdrawal's number as `listing`, a bind's `code`.
 */
function discordOptions(command: string, arg: string): { name: string; type: number; value: string }[] {
  const option = (name: string, value: string) => ({ name, type: 3, value });
  if (command === "/sell" || command === "/want") {
    const words = arg.split(" ");
    const category = words.filter((w) => w.startsWith("#")).map((w) => w.slice(1));
    return [
      option("item", words.filter((w) => !w.startsWith("#")).join(" ")),
      ...category.map((c) => option("category", c)),
    ];
  }
  return [option(command === "/bind" ? "code" : "listing", arg)];
}

function expectPrivate(to: unknown, account: string): void {
  if (String(to) !== account) throw new Error(`the reply went to ${String(to)}, not to the sender ${account} alone`);
}

/** What the fake saw posted to `group` itself (never a reply to one member), as each platform's body. */
export async function postedToGroup(group: TestGroup): Promise<Record<string, unknown>[]> {
  const match =
    group.platform === "telegram"
      ? `"chat_id":"${group.id}"`
      : group.platform === "line"
        ? `"to":"${group.id}"`
        : `/discord/channels/${group.id}/messages`;
  return (await requests(match)).map((r) => r.body as Record<string, unknown>);
}

/** The text of a message body the fake saw, whatever the platform: Telegram `text`, Discord `content`, LINE's first text message. */
export function bodyText(body: Record<string, unknown>): string {
  if (typeof body.text === "string") return body.text;
  if (typeof body.content === "string") return body.content;
  const messages = body.messages as { text?: string }[] | undefined;
  return messages?.map((m) => m.text ?? "").join("\n") ?? "";
}

/** Waits until market `market`'s object has offered every notification recorded so far to its audiences (the hand-off after a write runs on its own), then runs one drain of its group audience's outbox. */
export async function drainGroups(market: string): Promise<DrainReport> {
  await settledNotices(market);
  return drain(groupAudience(market));
}

/** Resolves once market `market`'s object has offered every notification recorded so far to its owners' and groups' objects. */
export function settledNotices(market: string): Promise<void> {
  return runInDurableObject(env.TABLES.getByName(market), (t: TableDO) => t.table.noticesSettled());
}

/** Lets every group of `market` be posted to now, as the clock would once the platform's pace allows (news-batches.ts). */
export async function paceElapsed(market: string): Promise<void> {
  const audience = groupAudience(market);
  await runInDurableObject(env.OWNERS.getByName(audience), (_o: OwnerDO, state) => {
    state.storage.sql.exec("UPDATE channels SET next_send_at = 0");
    state.storage.sql.exec("UPDATE outbox SET next_at = 0 WHERE state = 'queued'");
  });
}
