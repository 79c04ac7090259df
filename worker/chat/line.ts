/**
 * POST /hooks/line: authenticated by X-Line-Signature, base64 HMAC-SHA256 of the raw body with the
 * channel secret. LINE batches events; each is handled once (by webhookEventId) and answered with
 * its reply token, which costs no monthly quota. This invocation answers the first
 * LINE_EVENTS_PER_INVOCATION events and queues the rest for the chat directory's alarm, so no
 * delivery, however large, makes more LINE API calls in one invocation (line-events.ts).
 */
import { directory } from "../../durable-objects/chat/stubs.js";
import { answerLineEvent, LINE_EVENTS_PER_INVOCATION } from "../../durable-objects/chat/line-events.js";
import type { Env } from "../../durable-objects/env.js";
import { unwrap } from "../../durable-objects/result.js";
import { LineWebhookSchema, verifyLineSignature } from "../../src/chat/line.js";
import { fromUtf8 } from "../../src/protocol/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";

/** Handles a raw webhook body after checking its signature; resolves when this invocation's replies were sent and the rest queued. */
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
  const { events } = parsed.data;
  const later = events.slice(LINE_EVENTS_PER_INVOCATION);
  if (later.length > 0) unwrap(await directory(env).queueLine(later));
  for (const event of events.slice(0, LINE_EVENTS_PER_INVOCATION)) await answerLineEvent(env, event);
}
