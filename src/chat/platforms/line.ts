/**
 * LINE (Messaging API): plain-text messages within 5000 characters, a confirm template with
 * postback approve/reject actions (or a buttons template with Reject alone), a question's choices
 * as quick-reply postbacks, push with an
 * X-Line-Retry-Key so a retried push is never delivered twice, replies by reply token, the
 * monthly-quota 429 recognised, and webhook signatures (base64 HMAC-SHA256 of the raw body).
 * POST /hooks/line is authenticated by X-Line-Signature over the raw body with the channel secret.
 * LINE batches events; each is handled once (by webhookEventId) and answered with its reply token,
 * which costs no monthly quota. The webhook answers the first EVENTS_PER_INVOCATION events and
 * defers the rest to the chat directory's alarm, so no delivery, however large, makes more LINE
 * API calls in one invocation (docs/SPEC.md §11.5).
 */
import { z } from "zod";
import { fromUtf8, toHex, utf8 } from "../../protocol/encoding/bytes.js";
import { TrestleError } from "../../protocol/errors.js";
import { sha256 } from "../../protocol/encoding/hash.js";
import { apiBase, timingSafeEqual } from "../config.js";
import {
  bodyText,
  failureOf,
  networkFailure,
  notConfigured,
  safeJson,
  SEND_TIMEOUT_MS,
  type DeliveryResult,
} from "../delivery.js";
import { parseCommandText, parseTap, type Inbound } from "../inbound.js";
import { ellipsize, type ChatAction, type ChatMessage } from "../message.js";
import {
  EVENTS_PER_INVOCATION,
  type Connected,
  type HookContext,
  type HookRequest,
  type Platform,
} from "./platform.js";

/** LINE's settings: the channel access token and channel secret (secrets) and the API base (a var). */
export const LineSettingsSchema = z.object({
  LINE_CHANNEL_ACCESS_TOKEN: z.string().optional(),
  LINE_CHANNEL_SECRET: z.string().optional(),
  LINE_API_BASE: z.string().optional(),
});
export type LineSettings = z.infer<typeof LineSettingsSchema>;

/** The public Messaging API base. */
export const LINE_API_BASE = "https://api.line.me";

/**
 * LINE's limits (https://developers.line.biz/en/reference/messaging-api/): a text message's `text`
 * max 5000 characters; a template message's `altText` max 400; the confirm template's `text` max
 * 240 with exactly 2 actions; the buttons template's `text` max 160 (without image or title) with
 * 1-4 actions; an action's `label` max 20; postback `data` max 300; at most 5 messages per push or
 * reply. LINE counts text in UTF-16 code units (lineTextChars) and template and action fields in
 * grapheme clusters (https://developers.line.biz/en/docs/messaging-api/text-character-count/); the
 * template and action fields are cut in UTF-16 code units, never fewer than grapheme clusters.
 */
export const LINE_TEXT_CHARS = 5000;
export const LINE_CONFIRM_TEXT_CHARS = 240;
export const LINE_BUTTONS_TEXT_CHARS = 160;
export const LINE_ALT_TEXT_CHARS = 400;
export const LINE_LABEL_CHARS = 20;
export const LINE_POSTBACK_DATA_CHARS = 300;
/** A postback action's `displayText`: max 300 characters; a quick reply holds at most 13 items. */
export const LINE_DISPLAY_TEXT_CHARS = 300;
export const LINE_QUICK_REPLY_ITEMS = 13;

/**
 * Posts to one group. The push endpoint's rate limit is per channel, not per group: 2,000 requests
 * a second ("Other API endpoints", https://developers.line.biz/en/reference/messaging-api/#rate-limits).
 * What binds a group is the monthly message quota (https://developers.line.biz/en/docs/messaging-api/pricing/):
 * a push to a group counts once for each of its members. So the relay posts to a LINE group at most
 * once a minute, each post carrying every item that fits.
 */
export const LINE_GROUP_PACE = { messages: 1, per_ms: 60_000 } as const;

/** The text LINE sends with a 429 when the monthly message quota is used up. */
const MONTHLY_QUOTA = /monthly limit/i;

/** The length LINE checks against LINE_TEXT_CHARS: a text message's `text` in UTF-16 code units (an emoji is two), a JS string's length. */
export function lineTextChars(text: string): number {
  return text.length;
}

/** Whether `message` fits the text message's limit, counted as LINE counts, as formatLine renders it, uncut. */
export function fitsLine(message: ChatMessage): boolean {
  return lineTextChars(lineText(message)) <= LINE_TEXT_CHARS;
}

/** The messages for one push: the full text, then the buttons in a template (confirm for two, buttons for one). */
export function formatLine(message: ChatMessage): unknown[] {
  const text = ellipsize(lineText(message), LINE_TEXT_CHARS);
  // A question's choices (question.ts) ride as quick-reply postbacks on the text: up to 8 of LINE's 13, where a template holds at most 4.
  if (message.actions.some((a) => a.style === "choice"))
    return [
      {
        type: "text",
        text,
        quickReply: { items: message.actions.map((a) => ({ type: "action", action: choice(a) })) },
      },
    ];
  const messages: unknown[] = [{ type: "text", text }];
  if (message.actions.length > 0) {
    const actions = message.actions.map(postback);
    const template =
      actions.length === 2
        ? { type: "confirm", text: ellipsize(message.title, LINE_CONFIRM_TEXT_CHARS), actions }
        : { type: "buttons", text: ellipsize(message.title, LINE_BUTTONS_TEXT_CHARS), actions: actions.slice(0, 4) };
    messages.push({
      type: "template",
      altText: ellipsize(`${message.title}: ${message.lines[0] ?? ""}`, LINE_ALT_TEXT_CHARS),
      template,
    });
  }
  return messages;
}

function lineText(message: ChatMessage): string {
  return [message.title, ...message.lines].join("\n");
}

function postback(action: ChatAction) {
  return {
    type: "postback",
    label: ellipsize(action.label, LINE_LABEL_CHARS),
    data: action.data.slice(0, LINE_POSTBACK_DATA_CHARS),
  };
}

/** A choice as a postback that also posts the whole choice as the owner's message (displayText), since its label may be cut. */
function choice(action: ChatAction) {
  return { ...postback(action), displayText: ellipsize(action.label, LINE_DISPLAY_TEXT_CHARS) };
}

/** A UUID (the format X-Line-Retry-Key requires) derived from an idempotency key's hash bytes. */
export function retryKeyOf(hash: Uint8Array): string {
  const hex = toHex(hash.slice(0, 16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Pushes `message` to user `to`, giving up when `signal` aborts; a 409 for a retry key LINE already accepted counts as delivered. */
export async function sendLine(
  env: LineSettings,
  to: string,
  message: ChatMessage,
  retryKey: string,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  if (!env.LINE_CHANNEL_ACCESS_TOKEN) return notConfigured("LINE_CHANNEL_ACCESS_TOKEN");
  const url = `${apiBase(env.LINE_API_BASE, LINE_API_BASE)}/v2/bot/message/push`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}`,
        "x-line-retry-key": retryKey,
      },
      body: JSON.stringify({ to, messages: formatLine(message) }),
      signal,
    });
  } catch (error) {
    return networkFailure(error);
  }
  const text = await bodyText(res);
  if (res.ok) return { ok: true, status: res.status };
  if (res.status === 409 && res.headers.has("x-line-accepted-request-id")) return { ok: true, status: res.status };
  const description = LineErrorSchema.safeParse(safeJson(text));
  const detail = description.success ? description.data.message : text;
  if (res.status === 429 && MONTHLY_QUOTA.test(detail)) {
    return {
      ok: false,
      status: 429,
      reason: "quota_exhausted",
      detail: detail.slice(0, 200),
      retry: false,
      maybeDelivered: false,
    };
  }
  return failureOf(res.status, detail);
}

/** Replies with plain text to a webhook event's reply token (free of the monthly quota), waiting at most `timeoutMs` for LINE's answer. */
export async function replyLine(
  env: LineSettings,
  replyToken: string,
  text: string,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<DeliveryResult> {
  if (!env.LINE_CHANNEL_ACCESS_TOKEN) return notConfigured("LINE_CHANNEL_ACCESS_TOKEN");
  const url = `${apiBase(env.LINE_API_BASE, LINE_API_BASE)}/v2/bot/message/reply`;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${env.LINE_CHANNEL_ACCESS_TOKEN}` },
      body: JSON.stringify({ replyToken, messages: [{ type: "text", text: ellipsize(text, LINE_TEXT_CHARS) }] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok ? { ok: true, status: res.status } : failureOf(res.status, await bodyText(res));
  } catch (error) {
    return networkFailure(error);
  }
}

const LineErrorSchema = z.looseObject({ message: z.string() });

/** True iff `signature` is base64(HMAC-SHA256(secret, body)), compared in constant time. */
export async function verifyLineSignature(
  secret: string,
  body: Uint8Array,
  signature: string | null,
): Promise<boolean> {
  if (!signature) return false;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
  return timingSafeEqual(btoa(String.fromCharCode(...mac)), signature);
}

const LineId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const Source = z.looseObject({ type: z.string().max(16), userId: LineId.optional(), groupId: LineId.optional() });
/** One webhook event, as far as this relay reads it. */
export const LineEventSchema = z.looseObject({
  type: z.string().max(32),
  webhookEventId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  replyToken: z.string().max(256).optional(),
  source: Source.optional(),
  message: z.looseObject({ type: z.string().max(16), text: z.string().max(5000).optional() }).optional(),
  postback: z.looseObject({ data: z.string().max(300) }).optional(),
});
export type LineEvent = z.infer<typeof LineEventSchema>;

/** The webhook body: up to 100 events (LINE batches them). */
export const LineWebhookSchema = z.looseObject({
  destination: z.string().max(64).optional(),
  events: z.array(LineEventSchema).max(100),
});

/**
 * What one event asks for: from a one-to-one chat with a user, or from a group (`source.groupId`,
 * with the sender's `userId`, which LINE leaves out for a member who has not agreed to share it:
 * such an event is ignored). Multi-person chats ("room") are ignored.
 */
export function parseLineEvent(event: LineEvent): Inbound {
  const source = event.source;
  // The official account left a group, or was removed from it: nothing more can be pushed there.
  if (event.type === "leave" && source?.type === "group" && source.groupId) {
    return {
      kind: "group_gone",
      platform: "line",
      group: source.groupId,
      reason: "removed",
      detail: "the official account left the group (leave event)",
      eventId: `line:${event.webhookEventId}`,
    };
  }
  const userId = source?.type === "user" || source?.type === "group" ? source.userId : undefined;
  if (!userId) return { kind: "ignored", reason: "not from a user in a one-to-one chat or a group" };
  const group = source?.type === "group" ? (source.groupId ?? null) : null;
  if (source?.type === "group" && group === null)
    return { kind: "ignored", reason: "a group event without its groupId" };
  const sender = {
    platform: "line" as const,
    account: userId,
    chat: userId,
    group,
    label: userId,
    lang: null,
    eventId: `line:${event.webhookEventId}`,
  };
  if (event.type === "postback" && event.postback) return { kind: "tap", sender, tap: parseTap(event.postback.data) };
  if (event.type !== "message" || event.message?.type !== "text" || event.message.text === undefined) {
    return { kind: "ignored", reason: `LINE ${event.type} event` };
  }
  // A group's members talk to each other: there only a command (a leading "/") is for the bot, never a bare code.
  if (group !== null && !event.message.text.trimStart().startsWith("/"))
    return { kind: "ignored", reason: "group chatter, not a command" };
  const command = parseCommandText(event.message.text);
  return command ? { kind: "command", sender, command } : { kind: "ignored", reason: "not a command" };
}

/** Handles a raw webhook body after checking its signature: answers the first EVENTS_PER_INVOCATION events and defers the rest. */
export async function lineHook(
  env: LineSettings,
  request: HookRequest,
  context: HookContext,
): Promise<Record<string, unknown>> {
  if (
    !env.LINE_CHANNEL_SECRET ||
    !(await verifyLineSignature(env.LINE_CHANNEL_SECRET, request.body, request.header("x-line-signature")))
  ) {
    throw new TrestleError("E_AUTH", "the LINE signature is missing or wrong");
  }
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8(request.body));
  } catch {
    throw new TrestleError("E_SCHEMA", "not a LINE webhook body");
  }
  const parsed = LineWebhookSchema.safeParse(json);
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a LINE webhook body");
  const { events } = parsed.data;
  const later = events.slice(EVENTS_PER_INVOCATION);
  if (later.length > 0) await context.defer(later.map((event) => ({ id: event.webhookEventId, event })));
  for (const event of events.slice(0, EVENTS_PER_INVOCATION)) await answerLineEvent(env, event, context);
  return {};
}

/**
 * Does what one LINE event asks and replies: with its reply token in a one-to-one chat, by a push
 * to the sender alone for an event from a group (a reply token would answer in the group), keyed
 * by the event so a redelivery never pushes twice. At most one LINE API call.
 */
export async function answerLineEvent(env: LineSettings, event: LineEvent, context: HookContext): Promise<void> {
  const inbound = parseLineEvent(event);
  const reply = await context.handle(inbound);
  if (reply === null) return;
  const inGroup = (inbound.kind === "command" || inbound.kind === "tap") && inbound.sender.group !== null;
  const sent = inGroup
    ? await sendLine(
        env,
        inbound.sender.account,
        { title: reply, lines: [], actions: [] },
        retryKeyOf(sha256(utf8(inbound.sender.eventId))),
        AbortSignal.timeout(SEND_TIMEOUT_MS),
      )
    : event.replyToken
      ? await replyLine(env, event.replyToken, reply)
      : null;
  if (sent && !sent.ok) console.error("LINE reply failed", sent.status, sent.reason);
}

/** LINE in the registry (index.ts); the outbox's key becomes the push's X-Line-Retry-Key. */
export const line: Platform = {
  fits: fitsLine,
  groupPace: LINE_GROUP_PACE,
  settings: LineSettingsSchema.transform((env): Connected => ({
    configured: Boolean(env.LINE_CHANNEL_ACCESS_TOKEN && env.LINE_CHANNEL_SECRET),
    secrets: [env.LINE_CHANNEL_ACCESS_TOKEN, env.LINE_CHANNEL_SECRET].filter((s) => s !== undefined),
    send: (chat, message, key, signal) => sendLine(env, chat, message, retryKeyOf(sha256(utf8(key))), signal),
    instructions: (code) => `Send "${code}" to the relay's LINE official account within 10 minutes.`,
    groupInstructions: (code) =>
      `Invite the relay's LINE official account to the group, then send "/bind ${code}" in the group within 10 minutes.`,
    hook: (request, context) => lineHook(env, request, context),
    replay: (event, context) => answerLineEvent(env, LineEventSchema.parse(event), context),
  })),
};
