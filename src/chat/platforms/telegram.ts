/**
 * Telegram (Bot API): HTML formatting within 4096 characters of parsed text, inline-keyboard
 * approve/reject buttons and a question's choices (callback_data within 64 bytes), the reply field
 * for a free-text question (a private reply to it is `/answer`), sending with sendMessage, and parsing
 * webhook updates. POST /hooks/telegram is authenticated by the X-Telegram-Bot-Api-Secret-Token
 * header (the secret given to setWebhook), compared in constant time; the reply rides back in the
 * webhook response as a Bot API method (sendMessage, or answerCallbackQuery for a button tap), so
 * no extra request.
 */
import { z } from "zod";
import { fromUtf8 } from "../../protocol/encoding/bytes.js";
import { TrestleError } from "../../protocol/errors.js";
import { apiBase, timingSafeEqual } from "../config.js";
import {
  bodyText,
  failureOf,
  goneFailure,
  networkFailure,
  notConfigured,
  safeJson,
  type DeliveryResult,
} from "../delivery.js";
import { negotiateLang } from "../i18n.js";
import { parseCommandText, parseTap, type GroupGone, type Inbound } from "../inbound.js";
import { refOfQuoted } from "../question.js";
import { codePoints, fitRendered, type ChatAction, type ChatMessage } from "../message.js";
import type { Connected, HookContext, HookRequest, Platform } from "./platform.js";

/** Telegram's settings: the bot token and webhook secret (secrets), the bot's username and the API base (vars). */
export const TelegramSettingsSchema = z.object({
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_WEBHOOK_SECRET: z.string().optional(),
  TELEGRAM_BOT_USERNAME: z.string().optional(),
  TELEGRAM_API_BASE: z.string().optional(),
});
export type TelegramSettings = z.infer<typeof TelegramSettingsSchema>;

/** The public Bot API base. */
export const TELEGRAM_API_BASE = "https://api.telegram.org";

/**
 * Telegram's limits (https://core.telegram.org/bots/api): sendMessage `text` "1-4096 characters
 * after entities parsing" (counted by telegramTextChars), and InlineKeyboardButton `callback_data`
 * "1-64 bytes".
 */
export const TELEGRAM_TEXT_CHARS = 4096;
export const TELEGRAM_CALLBACK_BYTES = 64;
/**
 * Posts to one group (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * "your bot will not be able to send more than 20 messages per minute to the same group" (and
 * about 30 a second overall, one a second in one chat).
 */
export const TELEGRAM_GROUP_PACE = { messages: 20, per_ms: 60_000 } as const;
/** answerCallbackQuery `text`: "0-200 characters". */
export const TELEGRAM_ALERT_CHARS = 200;

/** Escapes text for parse_mode HTML: the three characters the Bot API requires (& < >). */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The length Telegram checks against TELEGRAM_TEXT_CHARS for `html` sent with parse_mode HTML: the
 * text after entities parsing (tags removed; &lt; &gt; &amp; &quot; and numeric entities one
 * character each) in Unicode code points, which TDLib, behind the Bot API, counts with
 * `utf8_length` (an emoji is one, not two UTF-16 units). Telegram then trims surrounding
 * whitespace, so this is never less than its count.
 */
export function telegramTextChars(html: string): number {
  return codePoints(html.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);/g, "&"));
}

/** Whether `message` fits sendMessage's text limit, counted as Telegram counts, as formatTelegram renders it, uncut. */
export function fitsTelegram(message: ChatMessage): boolean {
  return telegramTextChars(renderer(message.title)(message.lines.join("\n"))) <= TELEGRAM_TEXT_CHARS;
}

/** The sendMessage fields for a message: bold title, escaped lines (cut only past the parsed-text limit), inline keyboard. */
export function formatTelegram(message: ChatMessage) {
  const text = fitRendered(message.lines.join("\n"), TELEGRAM_TEXT_CHARS, renderer(message.title), telegramTextChars);
  const fields: Record<string, unknown> = { text, parse_mode: "HTML", link_preview_options: { is_disabled: true } };
  if (message.actions.length > 0) {
    const button = (a: ChatAction) => ({ text: a.label, callback_data: a.data });
    // Approve and Reject share a row; a question's choices (question.ts) take a row each, so no label is squeezed.
    const rows = message.actions.some((a) => a.style === "choice")
      ? message.actions.map((a) => [button(a)])
      : [message.actions.map(button)];
    fields.reply_markup = { inline_keyboard: rows };
  } else if (message.reply) {
    fields.reply_markup = { force_reply: true };
  }
  return fields;
}

function renderer(title: string): (body: string) => string {
  return (body) => `<b>${escapeTelegramHtml(title)}</b>\n${escapeTelegramHtml(body)}`;
}

/** Plain text for a webhook reply (sendMessage returned as the webhook response). */
export function telegramReply(chatId: string, text: string): Record<string, unknown> {
  const body = fitRendered(text, TELEGRAM_TEXT_CHARS, escapeTelegramHtml, telegramTextChars);
  return {
    method: "sendMessage",
    chat_id: chatId,
    text: body,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  };
}

/** answerCallbackQuery as the webhook response, shown as an alert. */
export function telegramAnswer(callbackId: string, text: string): Record<string, unknown> {
  return {
    method: "answerCallbackQuery",
    callback_query_id: callbackId,
    text: fitRendered(text, TELEGRAM_ALERT_CHARS, (s) => s),
    show_alert: true,
  };
}

/** Sends `message` to chat `chatId`, giving up when `signal` aborts. Telegram has no idempotency key: a resend shows its resend mark instead (outbox.ts). */
export async function sendTelegram(
  env: TelegramSettings,
  chatId: string,
  message: ChatMessage,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  if (!env.TELEGRAM_BOT_TOKEN) return notConfigured("TELEGRAM_BOT_TOKEN");
  const url = `${apiBase(env.TELEGRAM_API_BASE, TELEGRAM_API_BASE)}/bot${env.TELEGRAM_BOT_TOKEN}/sendMessage`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: chatId, ...formatTelegram(message) }),
      signal,
    });
  } catch (error) {
    return networkFailure(error);
  }
  const text = await bodyText(res);
  if (res.ok) return { ok: true, status: res.status };
  const parsed = TelegramErrorSchema.safeParse(safeJson(text));
  const description = parsed.success ? (parsed.data.description ?? text) : text;
  // A group that became a supergroup answers with its new id (Bot API ResponseParameters.migrate_to_chat_id).
  const migrated = parsed.success ? parsed.data.parameters?.migrate_to_chat_id : undefined;
  if (migrated !== undefined)
    return goneFailure(res.status, "migrated", `the group became supergroup ${migrated}: ${description}`);
  if ((res.status === 403 || res.status === 400) && GONE.test(description))
    return goneFailure(res.status, "removed", description);
  const retryAfter = parsed.success ? parsed.data.parameters?.retry_after : undefined;
  return failureOf(res.status, description, retryAfter === undefined ? undefined : retryAfter * 1000);
}

/** Bot API descriptions saying the bot can no longer post to a group: kicked, no longer a member, the group deactivated or gone. */
const GONE = /kicked|not a member|deactivated|chat not found/i;

const TelegramErrorSchema = z.looseObject({
  description: z.string().optional(),
  parameters: z
    .looseObject({ retry_after: z.int().min(0).max(86_400).optional(), migrate_to_chat_id: z.int().optional() })
    .optional(),
});

const User = z.looseObject({
  id: z.int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
  language_code: z.string().max(35).optional(),
});
const Chat = z.looseObject({ id: z.int(), type: z.string().max(32) });

/** The parts of an Update this relay reads; everything else is ignored. */
export const TelegramUpdateSchema = z.looseObject({
  update_id: z.int(),
  message: z
    .looseObject({
      from: User.optional(),
      chat: Chat,
      text: z.string().max(4096).optional(),
      reply_to_message: z.looseObject({ text: z.string().max(4096).optional() }).optional(),
      /** A service message in a group that became a supergroup: the supergroup's id. */
      migrate_to_chat_id: z.int().optional(),
    })
    .optional(),
  /** The bot's own membership in a chat changed (ChatMemberUpdated); with `allowed_updates` naming it. */
  my_chat_member: z
    .looseObject({ chat: Chat, new_chat_member: z.looseObject({ status: z.string().max(32) }) })
    .optional(),
  callback_query: z
    .looseObject({
      id: z.string().max(128),
      from: User,
      message: z.looseObject({ chat: Chat }).optional(),
      data: z.string().max(256).optional(),
    })
    .optional(),
});
export type TelegramUpdate = z.infer<typeof TelegramUpdateSchema>;

/**
 * What an update asks for. `/cmd@otherbot` is ignored; in group chats only commands addressed to
 * this bot by name count, and the sender's private chat is the one replies go to. Whether a code
 * may bind where it was sent is the chat directory's to judge (an owner's code binds only from a
 * private chat, a market's group code only in a group).
 */
export function parseTelegramUpdate(update: TelegramUpdate, botUsername: string | undefined): Inbound {
  const eventId = `telegram:${update.update_id}`;
  const query = update.callback_query;
  if (query) {
    // A tap is one callback query whatever update carries it: its id keys the tap (and its approval nonce).
    const chat = query.message?.chat.id ?? query.from.id;
    const sender = {
      platform: "telegram" as const,
      account: String(query.from.id),
      chat: String(chat),
      group: null,
      label: label(query.from),
      lang: langOf(query.from),
      eventId: `telegram:cb:${query.id}`,
    };
    return { kind: "tap", sender, tap: parseTap(query.data) };
  }
  const gone = groupGoneOf(update, eventId);
  if (gone) return gone;
  const message = update.message;
  if (!message?.text || !message.from || message.from.is_bot)
    return { kind: "ignored", reason: "not a text message from a person" };
  const addressed = /^\/([A-Za-z_]+)@([A-Za-z0-9_]{1,64})\b/.exec(message.text);
  const mine =
    botUsername !== undefined && addressed !== null && addressed[2]!.toLowerCase() === botUsername.toLowerCase();
  if (addressed && !mine) return { kind: "ignored", reason: "addressed to another bot" };
  const isPrivate = message.chat.type === "private";
  if (!isPrivate && !mine) return { kind: "ignored", reason: "group message not addressed to this bot" };
  // In a group the sender's private chat (its id is the user's) is where replies and bindings go; the group is named apart.
  const group = GROUP_CHATS.has(message.chat.type) ? String(message.chat.id) : null;
  const sender = {
    platform: "telegram" as const,
    account: String(message.from.id),
    chat: String(isPrivate ? message.chat.id : message.from.id),
    group,
    label: label(message.from),
    lang: langOf(message.from),
    eventId,
  };
  // A private reply to a free-text question's message is `/answer <ref> <text>`, the ref read from the message's last line (question.ts).
  const quoted = isPrivate && !message.text.startsWith("/") ? refOfQuoted(message.reply_to_message?.text) : null;
  if (quoted) return { kind: "command", sender, command: { name: "answer", ref: quoted, text: message.text } };
  const command = parseCommandText(
    addressed ? message.text.replace(/^(\/[A-Za-z_]+)@[A-Za-z0-9_]+/, "$1") : message.text,
  );
  if (!command) return { kind: "ignored", reason: "not a command" };
  if (!isPrivate && group === null)
    return { kind: "ignored", reason: `a ${message.chat.type} chat is neither private nor a group` };
  return { kind: "command", sender, command };
}

/** A group the bot can no longer post to: it left or was removed (my_chat_member), or the group became a supergroup (migrate_to_chat_id); else null. */
function groupGoneOf(update: TelegramUpdate, eventId: string): GroupGone | null {
  const member = update.my_chat_member;
  const status = member?.new_chat_member.status;
  if (member && GROUP_CHATS.has(member.chat.type) && (status === "left" || status === "kicked")) {
    return {
      kind: "group_gone",
      platform: "telegram",
      group: String(member.chat.id),
      reason: "removed",
      detail: `the bot's membership is now "${status}"`,
      eventId,
    };
  }
  const to = update.message?.migrate_to_chat_id;
  if (to !== undefined && GROUP_CHATS.has(update.message!.chat.type)) {
    return {
      kind: "group_gone",
      platform: "telegram",
      group: String(update.message!.chat.id),
      reason: "migrated",
      detail: `the group became supergroup ${to}`,
      eventId,
    };
  }
  return null;
}

/** The chat types of a Telegram group: a basic group, or a supergroup (what a group becomes, with a new id, once it grows or an admin changes it). */
const GROUP_CHATS: ReadonlySet<string> = new Set(["group", "supergroup"]);

function label(user: z.infer<typeof User>): string {
  return user.username ? `@${user.username}` : (user.first_name ?? String(user.id));
}

function langOf(user: z.infer<typeof User>) {
  return user.language_code ? negotiateLang(user.language_code) : null;
}

/** The webhook response for a raw update body and its secret-token header. */
export async function telegramHook(
  env: TelegramSettings,
  request: HookRequest,
  context: HookContext,
): Promise<Record<string, unknown>> {
  const secret = request.header("x-telegram-bot-api-secret-token");
  if (!env.TELEGRAM_WEBHOOK_SECRET || !secret || !timingSafeEqual(secret, env.TELEGRAM_WEBHOOK_SECRET)) {
    throw new TrestleError("E_AUTH", "the Telegram secret token is missing or wrong");
  }
  const parsed = TelegramUpdateSchema.safeParse(jsonOf(request.body));
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a Telegram update");
  const inbound = parseTelegramUpdate(parsed.data, env.TELEGRAM_BOT_USERNAME);
  const reply = await context.handle(inbound);
  if (inbound.kind === "tap") {
    const id = parsed.data.callback_query?.id ?? "";
    return reply === null ? { method: "answerCallbackQuery", callback_query_id: id } : telegramAnswer(id, reply);
  }
  // A reply to something said in a group goes to the sender's private chat, never the group (a bot can write there once the person has started it).
  return reply === null || inbound.kind !== "command" ? {} : telegramReply(inbound.sender.chat, reply);
}

function jsonOf(body: Uint8Array): unknown {
  try {
    return JSON.parse(fromUtf8(body));
  } catch {
    return undefined;
  }
}

/** What the owner does with a new bind code: open the bot's start link, or send /start with it. */
export function telegramInstructions(env: TelegramSettings, code: string): string {
  return env.TELEGRAM_BOT_USERNAME
    ? `Open https://t.me/${env.TELEGRAM_BOT_USERNAME}?start=${code.replace("-", "")} or send "/start ${code}" to @${env.TELEGRAM_BOT_USERNAME} within 10 minutes.`
    : `Send "/start ${code}" to the relay's Telegram bot within 10 minutes.`;
}

/** What a market's creator does with a new group code: add the bot to the group and send it there, addressed to the bot by name (without the name the relay takes no command in a group). */
export function telegramGroupInstructions(env: TelegramSettings, code: string): string {
  const bot = env.TELEGRAM_BOT_USERNAME;
  return bot
    ? `Add @${bot} to the group, then send "/bind@${bot} ${code}" in the group within 10 minutes.`
    : "This relay has no TELEGRAM_BOT_USERNAME, so its bot takes no command in a group: the operator sets it first.";
}

/** Telegram in the registry (index.ts). */
export const telegram: Platform = {
  fits: fitsTelegram,
  groupPace: TELEGRAM_GROUP_PACE,
  settings: TelegramSettingsSchema.transform((env): Connected => ({
    configured: Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_WEBHOOK_SECRET),
    secrets: [env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_WEBHOOK_SECRET].filter((s) => s !== undefined),
    send: (chat, message, _key, signal) => sendTelegram(env, chat, message, signal),
    instructions: (code) => telegramInstructions(env, code),
    groupInstructions: (code) => telegramGroupInstructions(env, code),
    hook: (request, context) => telegramHook(env, request, context),
  })),
};
