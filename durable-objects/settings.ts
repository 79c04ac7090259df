/**
 * The one reader of the relay's optional settings: the vars and secrets wrangler.toml does not
 * declare (so they are not in the generated Env): each chat platform's tokens and API bases (as
 * the platform declares them, src/chat/platforms), OUTBOX_DELAY_MS. Each is parsed once per
 * environment object, with its default here or in the platform's schema; a malformed setting
 * throws E_UNAVAILABLE. Nothing else reads `env.X` for an optional setting.
 */
import { z } from "zod";
import { eachPlatform } from "../src/chat/platforms/index.js";
import type { ConnectedPlatforms } from "../src/chat/send.js";
import { TrestleError } from "../src/protocol/errors.js";

const platformsCache = new WeakMap<object, ConnectedPlatforms>();

/** Every chat platform with `env`'s settings for it; a platform without its secrets is there but not configured. */
export function chatPlatforms(env: object): ConnectedPlatforms {
  let connected = platformsCache.get(env);
  if (!connected) {
    connected = eachPlatform((platform, module) => read(module.settings, env, platform));
    platformsCache.set(env, connected);
  }
  return connected;
}

const OutboxDelaySchema = z.object({ OUTBOX_DELAY_MS: z.union([z.string(), z.number()]).optional() });

/** OUTBOX_DELAY_MS: milliseconds the outbox waits before a fresh batch goes out, and the chat directory before deferred webhook events (lets bursts coalesce); 0 unless set to a positive integer. */
export function outboxDelay(env: object): number {
  const delay = Number(read(OutboxDelaySchema, env, "OUTBOX_DELAY_MS").OUTBOX_DELAY_MS ?? 0);
  return Number.isSafeInteger(delay) && delay > 0 ? delay : 0;
}

function read<T>(schema: z.ZodType<T>, env: object, what: string): T {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new TrestleError("E_UNAVAILABLE", `the relay's ${what} settings are malformed`);
  return parsed.data;
}
