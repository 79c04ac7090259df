/**
 * Drives the chat paths inside workerd: webhook requests signed exactly as each platform signs
 * them (Telegram secret-token header, LINE base64 HMAC-SHA256 of the raw body, Discord Ed25519
 * over timestamp + body), the loopback fake's control endpoints, and an owner's signed requests.
 */
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { OwnerClient } from "../../src/client/owner.js";
import { toHex, utf8 } from "../../src/protocol/encoding/bytes.js";
import type { ChatPlatform, Lang, Signer } from "../../src/protocol/index.js";
import type { OwnerDO } from "../../durable-objects/owner/owner.js";
import { unwrap } from "../../durable-objects/result.js";
import { CHAT_TEST, discordAppKey } from "./chat-env.js";
import { buttonData as buttons } from "./chat-limits.js";
import type { RecordedRequest, Script } from "./fake-chat-api.js";
import { nonceOf } from "./table-fixture.js";

const fakeBase = () => String(Reflect.get(env, "TELEGRAM_API_BASE")).replace(/\/telegram$/, "");

/** Makes the fake answer the next matching request(s) with `script`. */
export async function script(s: Script): Promise<void> {
  await fetch(`${fakeBase()}/__control/script`, { method: "POST", body: JSON.stringify(s) });
}

/** Requests the fake recorded whose "path body" contains `match`. */
export async function requests(match: string): Promise<RecordedRequest[]> {
  return (await (
    await fetch(`${fakeBase()}/__control/requests?match=${encodeURIComponent(match)}`)
  ).json()) as RecordedRequest[];
}

/** Resolves once the fake has seen `count` requests whose "path body" contains `match`. */
export async function arrived(match: string, count = 1): Promise<void> {
  await fetch(`${fakeBase()}/__control/wait?match=${encodeURIComponent(match)}&count=${count}`);
}

/**
 * Runs `key`'s OwnerDO alarm and kills the object while the platform holds the send matching
 * `match` unanswered, as a restart, an eviction or an isolate reset mid-send would: with
 * "after-delivery" the platform took the message first (killed after the ack, before the outcome
 * was recorded), with "before-delivery" it never did. Resolves once the object is gone.
 */
export async function killedMidSend(key: string, match: string, hang: NonNullable<Script["hang"]>): Promise<void> {
  const seen = (await requests(match)).length;
  await script({ match, hang });
  const alarm = runAlarm(key).then(
    (ran) => (ran ? "finished without that send" : "was not set"),
    () => "killed",
  );
  const first = await Promise.race([arrived(match, seen + 1).then(() => "sent"), alarm]);
  if (first !== "sent") throw new Error(`no send matching ${match} left: the alarm ${first}`);
  await runInDurableObject(ownerDO(key), (_o: OwnerDO, state) => state.abort("killed mid-send")).catch(() => undefined);
  if ((await alarm) !== "killed") throw new Error("the alarm finished: the object was not killed mid-send");
}

/** A response's status and parsed JSON body. */
export interface HookReply {
  status: number;
  body: any;
}

async function post(path: string, body: string, headers: Record<string, string>): Promise<HookReply> {
  const res = await SELF.fetch(`https://relay.test${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
  return { status: res.status, body: await res.json() };
}

let updateId = 1_000_000;

/** A Telegram text message from user `from` in their private chat (or `chat`). */
export function telegramText(
  from: number,
  text: string,
  opts: { chat?: { id: number; type: string }; lang?: string; updateId?: number } = {},
) {
  return {
    update_id: opts.updateId ?? updateId++,
    message: {
      message_id: 1,
      date: 1,
      from: { id: from, is_bot: false, first_name: "Tao", language_code: opts.lang ?? "en" },
      chat: opts.chat ?? { id: from, type: "private" },
      text,
    },
  };
}

/** A Telegram button tap by `from` carrying `data`. */
export function telegramTap(from: number, data: string, opts: { updateId?: number } = {}) {
  return {
    update_id: opts.updateId ?? updateId++,
    callback_query: {
      id: `cb-${from}-${updateId}`,
      from: { id: from, is_bot: false, first_name: "Tao", language_code: "en" },
      message: { message_id: 2, chat: { id: from, type: "private" } },
      data,
      chat_instance: "x",
    },
  };
}

/** POSTs an update to /hooks/telegram with the secret token (or `secret`, or none with null). */
export function postTelegram(
  update: unknown,
  secret: string | null = CHAT_TEST.TELEGRAM_WEBHOOK_SECRET,
): Promise<HookReply> {
  return post(
    "/hooks/telegram",
    JSON.stringify(update),
    secret === null ? {} : { "x-telegram-bot-api-secret-token": secret },
  );
}

/** base64(HMAC-SHA256(secret, body)), as LINE signs. */
export async function lineSignature(body: string, secret: string = CHAT_TEST.LINE_CHANNEL_SECRET): Promise<string> {
  const key = await crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(body)));
  return btoa(String.fromCharCode(...mac));
}

let lineEvent = 1;

/** A LINE text message event from user `userId`. */
export function lineText(userId: string, text: string, opts: { source?: Record<string, string>; id?: string } = {}) {
  return {
    type: "message",
    webhookEventId: opts.id ?? `01LINEEVENT${lineEvent++}`,
    deliveryContext: { isRedelivery: false },
    timestamp: 1,
    replyToken: `reply-${userId}-${lineEvent}`,
    source: opts.source ?? { type: "user", userId },
    mode: "active",
    message: { type: "text", id: "1", text },
  };
}

/** A LINE postback event from `userId`. */
export function linePostback(userId: string, data: string) {
  return {
    type: "postback",
    webhookEventId: `01LINEEVENT${lineEvent++}`,
    timestamp: 1,
    replyToken: `reply-${userId}-${lineEvent}`,
    source: { type: "user", userId },
    mode: "active",
    postback: { data },
  };
}

/** POSTs LINE events, signed (or with `signature`). */
export async function postLine(events: unknown[], signature?: string): Promise<HookReply> {
  const body = JSON.stringify({ destination: "U0000000000", events });
  return post("/hooks/line", body, { "x-line-signature": signature ?? (await lineSignature(body)) });
}

let interaction = 900_000_000;

/** A Discord slash command by `user` in channel `channel`. */
export function discordCommand(
  user: string,
  channel: string,
  name: string,
  value?: string,
  opts: { application?: string; locale?: string } = {},
) {
  return {
    id: String(interaction++),
    application_id: opts.application ?? CHAT_TEST.DISCORD_APPLICATION_ID,
    type: 2,
    token: "tok",
    version: 1,
    channel_id: channel,
    user: { id: user, username: `u${user}` },
    locale: opts.locale ?? "en-US",
    data: { id: "1", name, type: 1, ...(value === undefined ? {} : { options: [{ name: "x", type: 3, value }] }) },
  };
}

/** A Discord button press by `user`. */
export function discordButton(user: string, channel: string, customId: string) {
  return {
    id: String(interaction++),
    application_id: CHAT_TEST.DISCORD_APPLICATION_ID,
    type: 3,
    token: "tok",
    version: 1,
    channel_id: channel,
    user: { id: user },
    data: { custom_id: customId, component_type: 2 },
  };
}

/** POSTs an interaction signed by the application key over timestamp + body (or as `opts` says). */
export async function postDiscord(
  body: unknown,
  opts: { timestamp?: number; signer?: Signer; signature?: string } = {},
): Promise<HookReply> {
  const text = JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const signer = opts.signer ?? (await discordAppKey());
  const signature = opts.signature ?? toHex(await signer.sign(utf8(timestamp + text)));
  return post("/hooks/discord", text, { "x-signature-ed25519": signature, "x-signature-timestamp": timestamp });
}

/** An owner client on the test relay. */
export function ownerClient(signer: Signer, label = "owner"): OwnerClient {
  let n = 0;
  return new OwnerClient("https://relay.test", signer, {
    fetch: (url, init) => SELF.fetch(url, init),
    nonce: () => nonceOf(`${label}:${signer.publicKeyText}:${Math.random()}:${n++}`),
  });
}

/** The OwnerDO stub of a key. */
export function ownerDO(key: string): DurableObjectStub<OwnerDO> {
  return env.OWNERS.getByName(key);
}

/** Runs one outbox drain of `key`'s OwnerDO, as its alarm does (without rescheduling). */
export async function drain(key: string) {
  return unwrap(await runInDurableObject(ownerDO(key), (o: OwnerDO) => o.drain(key)));
}

/** Runs `key`'s OwnerDO alarm now if one is scheduled; false when none was. */
export function runAlarm(key: string): Promise<boolean> {
  return runDurableObjectAlarm(ownerDO(key));
}

/** Binds a chat account of `platform` to `owner` through the real code flow; returns the bot's reply. */
export async function bindVia(
  platform: ChatPlatform,
  owner: Signer,
  account: string,
  chat = account,
  lang: Lang = "en",
): Promise<string> {
  const { code } = await ownerClient(owner).bindCode(platform, lang);
  if (platform === "telegram") return (await postTelegram(telegramText(Number(account), `/start ${code}`))).body.text;
  if (platform === "discord") return (await postDiscord(discordCommand(account, chat, "bind", code))).body.data.content;
  await postLine([lineText(account, code)]);
  const replies = await requests(`reply-${account}-`);
  return JSON.stringify(replies[replies.length - 1]?.body);
}

/** The newest message body the fake saw for `chat` on `platform` that carries buttons. */
export async function lastWithButtons(platform: ChatPlatform, chat: string): Promise<Record<string, unknown>> {
  const match =
    platform === "telegram"
      ? `"chat_id":"${chat}"`
      : platform === "line"
        ? `"to":"${chat}"`
        : `/discord/channels/${chat}/messages`;
  const sent = (await requests(match)).filter((r) => buttons(platform, r.body as Record<string, unknown>).length > 0);
  return sent.at(-1)!.body as Record<string, unknown>;
}

/** The data of the `verb` button on the newest message with buttons the fake saw for `chat` on `platform`. */
export async function buttonData(platform: ChatPlatform, chat: string, verb: "approve" | "reject"): Promise<string> {
  const prefix = verb === "approve" ? "t1.a." : "t1.r.";
  return buttons(platform, await lastWithButtons(platform, chat)).find((d) => d.startsWith(prefix))!;
}

let tapId = 1;

/** Taps the button carrying `data` from `account` on `platform` (`chat` for Discord), signed as the platform signs; returns the reply text. */
export async function tapVia(
  platform: ChatPlatform,
  account: string,
  data: string,
  chat = account,
): Promise<{ status: number; text: string }> {
  if (platform === "telegram") {
    const reply = await postTelegram(telegramTap(Number(account), data));
    return { status: reply.status, text: String(reply.body.text ?? "") };
  }
  if (platform === "discord") {
    const reply = await postDiscord(discordButton(account, chat, data));
    return { status: reply.status, text: String(reply.body.data?.content ?? "") };
  }
  const event = { ...linePostback(account, data), webhookEventId: `01TAP${tapId++}${account}` };
  const reply = await postLine([event]);
  const answer = (await requests(event.replyToken)).at(-1)?.body as { messages: { text: string }[] } | undefined;
  return { status: reply.status, text: answer?.messages[0]?.text ?? "" };
}
