/**
 * POST /hooks/telegram: authenticated by the X-Telegram-Bot-Api-Secret-Token header (the secret
 * given to setWebhook), compared in constant time. The reply rides back in the webhook response
 * as a Bot API method (sendMessage, or answerCallbackQuery for a button tap), so no extra request.
 */
import type { Env } from "../../durable-objects/env.js";
import { timingSafeEqual } from "../../src/chat/config.js";
import { parseTelegramUpdate, telegramAnswer, telegramReply, TelegramUpdateSchema } from "../../src/chat/telegram.js";
import { fromUtf8 } from "../../src/protocol/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { handleInbound } from "../../durable-objects/chat/handle.js";

/** The webhook response for a raw update body and its secret-token header. */
export async function telegramHook(env: Env, secret: string | null, body: Uint8Array): Promise<Record<string, unknown>> {
  if (!env.TELEGRAM_WEBHOOK_SECRET || !secret || !timingSafeEqual(secret, env.TELEGRAM_WEBHOOK_SECRET)) {
    throw new TrestleError("E_AUTH", "the Telegram secret token is missing or wrong");
  }
  const parsed = TelegramUpdateSchema.safeParse(safeJson(body));
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a Telegram update");
  const inbound = parseTelegramUpdate(parsed.data, env.TELEGRAM_BOT_USERNAME);
  const reply = await handleInbound(env, inbound);
  if (inbound.kind === "tap") {
    const id = parsed.data.callback_query?.id ?? "";
    return reply === null ? { method: "answerCallbackQuery", callback_query_id: id } : telegramAnswer(id, reply);
  }
  return reply === null || inbound.kind === "ignored" ? {} : telegramReply(inbound.sender.chat, reply);
}

function safeJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(fromUtf8(body));
  } catch {
    return undefined;
  }
}
