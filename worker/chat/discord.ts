/**
 * POST /hooks/discord: authenticated by Ed25519 over X-Signature-Timestamp + raw body with the
 * application's public key. PING is answered with PONG before anything else is touched (Discord
 * wants an answer within 3 seconds); a timestamp more than 5 minutes off is refused, and each
 * interaction id is handled once, so a captured request cannot be replayed.
 */
import type { Env } from "../../durable-objects/env.js";
import { DiscordInteractionSchema, discordReply, INTERACTION, parseDiscordInteraction, verifyDiscordSignature } from "../../src/chat/discord.js";
import { fromUtf8 } from "../../src/protocol/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { LIMITS } from "../../src/protocol/limits.js";
import { handleInbound } from "../../durable-objects/chat/handle.js";

/** The interaction response for a raw body and its signature headers. */
export async function discordHook(env: Env, headers: { signature: string | null; timestamp: string | null }, body: Uint8Array, now: number): Promise<Record<string, unknown>> {
  const key = env.DISCORD_PUBLIC_KEY;
  if (!key || !(await verifyDiscordSignature(key, headers.timestamp, body, headers.signature))) {
    throw new TrestleError("E_AUTH", "the Discord signature is missing or wrong");
  }
  if (!/^[0-9]{1,12}$/.test(headers.timestamp ?? "") || Math.abs(now - Number(headers.timestamp) * 1000) > LIMITS.auth_window_ms) {
    throw new TrestleError("E_AUTH", "the Discord timestamp is outside the window");
  }
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8(body));
  } catch {
    throw new TrestleError("E_SCHEMA", "not a Discord interaction");
  }
  const parsed = DiscordInteractionSchema.safeParse(json);
  if (!parsed.success) throw new TrestleError("E_SCHEMA", "not a Discord interaction");
  if (parsed.data.type === INTERACTION.PING) return { type: 1 };
  const reply = await handleInbound(env, parseDiscordInteraction(parsed.data, env.DISCORD_APPLICATION_ID));
  return discordReply(reply ?? "…");
}
