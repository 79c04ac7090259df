/**
 * POST /hooks/line: authenticated by X-Line-Signature, base64 HMAC-SHA256 of the raw body with the
 * channel secret. LINE batches events; each is handled once (by webhookEventId) and answered with
 * its reply token, which costs no monthly quota.
 */
import type { Env } from "../../durable-objects/env.js";
import { LineWebhookSchema, parseLineEvent, replyLine, verifyLineSignature } from "../../src/chat/line.js";
import { fromUtf8 } from "../../src/protocol/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { handleInbound } from "../../durable-objects/chat/handle.js";

/** Handles a raw webhook body after checking its signature; resolves when every reply was sent. */
export async function lineHook(env: Env, signature: string | null, body: Uint8Array): Promise<void> {
  if (!env.LINE_CHANNEL_SECRET || !(await verifyLineSignature(env.LINE_CHANNEL_SECRET, body, signature))) {
    throw new TrestleError("E_AUTH", "the LINE signature is missing or wrong");
  }
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8(body));
  } catch {
    throw new TrestleError("E_SCHEMA", "not a LINE webhook body");
  }
  const parsed = LineWebhookSchema.safeParse(json);
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a LINE webhook body");
  for (const event of parsed.data.events) {
    const reply = await handleInbound(env, parseLineEvent(event));
    if (reply !== null && event.replyToken) {
      const sent = await replyLine(env, event.replyToken, reply);
      if (!sent.ok) console.error("LINE reply failed", sent.status, sent.reason);
    }
  }
}
