/**
 * One delivery to one bound chat, whatever the platform: the message rendered to fit that
 * platform's limits, with the resend mark when it may repeat an earlier send, and the outbox's
 * idempotency key turned into the platform's own duplicate guard where it has one (LINE
 * X-Line-Retry-Key, Discord enforced nonce). Telegram has none: there the mark is what tells the
 * owner a message is a repeat (docs/SPEC.md §11.4).
 */
import { toBase64url, utf8 } from "../protocol/encoding/bytes.js";
import { sha256 } from "../protocol/encoding/hash.js";
import type { ChatPlatform } from "../protocol/schemas/control.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { SEND_TIMEOUT_MS, withoutSecrets, type DeliveryResult } from "./delivery.js";
import { t } from "./i18n.js";
import type { ChatMessage } from "./message.js";
import { PLATFORMS } from "./platforms/index.js";
import type { Connected } from "./platforms/platform.js";
import { renderNotification, type Outgoing } from "./render.js";
import { groupNewsMessage } from "./render-group.js";
import type { GroupNews } from "../protocol/schemas/notify.js";

/** The idempotency key of one message to one chat: 22 base64url chars of SHA-256(owner, event, platform, account). */
export function idempotencyKey(ownerKey: string, eventId: string, platform: ChatPlatform, account: string): string {
  return toBase64url(sha256(utf8(`${ownerKey}\n${eventId}\n${platform}\n${account}`))).slice(0, 22);
}

/** Every platform with this relay's settings for it (read by durable-objects/settings.ts). */
export type ConnectedPlatforms = Readonly<Record<ChatPlatform, Connected>>;

/**
 * The message for `event` to `ownerKey`'s channel on `platform` in `lang`, fitted to that platform;
 * a `resend` carries the resend mark in its title. It is fitted as if marked either way, so whether
 * it offers Approve never depends on the mark.
 */
export function messageFor(
  platform: ChatPlatform,
  event: Outgoing,
  ownerKey: string,
  lang: Lang,
  resend = false,
): ChatMessage {
  const marked = (message: ChatMessage) => resendMarked(message, lang);
  const message = renderNotification(event, ownerKey, lang, (m) => PLATFORMS[platform].fits(marked(m)));
  return resend ? marked(message) : message;
}

/**
 * One message to a group on `platform` in `lang` for a batch of a market's news (resend-marked when
 * `resend`), and how many of `events` it carries: the longest prefix, at least one, that fits the
 * platform's limits as if marked, so a resend of the same batch is the same message.
 */
export function newsBatchFor(
  platform: ChatPlatform,
  events: readonly GroupNews[],
  lang: Lang,
  resend = false,
): { message: ChatMessage; count: number } {
  const marked = (message: ChatMessage) => resendMarked(message, lang);
  let count = 1;
  while (count < events.length && PLATFORMS[platform].fits(marked(groupNewsMessage(events.slice(0, count + 1), lang))))
    count += 1;
  const message = groupNewsMessage(events.slice(0, count), lang);
  return { message: resend ? marked(message) : message, count };
}

/** `message` with the resend mark in its title, in `lang`. */
function resendMarked(message: ChatMessage, lang: Lang): ChatMessage {
  return { ...message, title: t(lang, "mark.resend", { title: message.title }) };
}

/** Whether a message offers the Approve button (a message that could not show every effect does not). */
export function offersApprove(message: ChatMessage): boolean {
  return message.actions.some((a) => a.style === "approve");
}

/**
 * Sends `message` to `chat` on `platform`, carrying `key` where the platform can use it, waiting at
 * most `timeoutMs` for the answer; no credential of the relay's, for any platform, is ever in the result.
 */
export async function sendTo(
  platforms: ConnectedPlatforms,
  platform: ChatPlatform,
  chat: string,
  message: ChatMessage,
  key: string,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<DeliveryResult> {
  const result = await platforms[platform].send(chat, message, key, AbortSignal.timeout(timeoutMs));
  return withoutSecrets(
    result,
    Object.values(platforms).flatMap((p) => p.secrets),
  );
}
