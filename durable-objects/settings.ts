/**
 * The one reader of the relay's optional settings: the vars and secrets wrangler.toml does not
 * declare, so the generated Env (worker-configuration.d.ts) has no field for them: each chat
 * platform's tokens and API bases (as the platform declares them, src/chat/platforms),
 * RELAY_SIGNING_KEY, OUTBOX_DELAY_MS, and the operator limits (`TRESTLE_LIMIT_*`,
 * `TRESTLE_PUBLIC_DEMO`, `TRESTLE_DEMO_*`, with their defaults in src/protocol/limits/operator-limits.ts).
 * Each is parsed per environment object, its default here or in its schema; a malformed setting
 * throws E_UNAVAILABLE. Nothing else reads `env.X` for an optional setting.
 */
import { z } from "zod";
import { eachPlatform } from "../src/chat/platforms/index.js";
import type { ConnectedPlatforms } from "../src/chat/send.js";
import { TrestleError } from "../src/protocol/errors.js";
import {
  flag,
  isPublicDemo,
  resolveOperatorLimits,
  type OperatorLimits,
} from "../src/protocol/limits/operator-limits.js";

/** `parse` kept per environment object, so each setting is parsed once; a throw is not kept, so a malformed setting throws on every call. */
function perEnv<T>(parse: (env: object) => T): (env: object) => T {
  const cache = new WeakMap<object, { value: T }>();
  return (env) => {
    let kept = cache.get(env);
    if (!kept) {
      kept = { value: parse(env) };
      cache.set(env, kept);
    }
    return kept.value;
  };
}

/** Every chat platform with `env`'s settings for it; a platform without its secrets is there but not configured. */
export const chatPlatforms: (env: object) => ConnectedPlatforms = perEnv((env) =>
  eachPlatform((platform, module) => read(module.settings, env, platform)),
);

const OutboxDelaySchema = z.object({ OUTBOX_DELAY_MS: z.union([z.string(), z.number()]).optional() });

/** OUTBOX_DELAY_MS: milliseconds the outbox waits before a fresh batch goes out, and the chat directory before deferred webhook events (lets bursts coalesce); 0 unless set to a positive integer. */
export function outboxDelay(env: object): number {
  const delay = Number(read(OutboxDelaySchema, env, "OUTBOX_DELAY_MS").OUTBOX_DELAY_MS ?? 0);
  return Number.isSafeInteger(delay) && delay > 0 ? delay : 0;
}

const RelaySigningKeySchema = z.object({ RELAY_SIGNING_KEY: z.string().optional() });

/** RELAY_SIGNING_KEY: the relay's signing key as a base64url 32-byte seed (a secret), or undefined to use the seed RelayDO generated; parsed once per env, as every head signature asks for it. */
export const relaySigningKey: (env: object) => string | undefined = perEnv(
  (env) => read(RelaySigningKeySchema, env, "RELAY_SIGNING_KEY").RELAY_SIGNING_KEY,
);

/** One setting of `env` as given, for the operator limits' own parser (src/protocol/limits/operator-limits.ts). */
function settingOf(env: object, name: string): unknown {
  return Reflect.get(env, name) as unknown;
}

/** The operator limits in effect for `env`; a malformed setting throws E_UNAVAILABLE on every call. */
export const limitsOf: (env: object) => OperatorLimits = perEnv((env) =>
  resolveOperatorLimits((name) => settingOf(env, name)),
);

/** Whether `env` runs a public demo (`TRESTLE_PUBLIC_DEMO = "true"`). */
export function publicDemo(env: object): boolean {
  return isPublicDemo((name) => settingOf(env, name));
}

/** Whether chat apps may be used: always on a normal relay; on a public demo only with `TRESTLE_DEMO_CHAT_APPS = "true"`. */
export function chatAppsAllowed(env: object): boolean {
  return !publicDemo(env) || flag((name) => settingOf(env, name), "TRESTLE_DEMO_CHAT_APPS");
}

/** Whether tables may be mirrored or moved here: always on a normal relay; on a public demo only with `TRESTLE_DEMO_MIRRORS = "true"`. */
export function mirrorsAllowed(env: object): boolean {
  return !publicDemo(env) || flag((name) => settingOf(env, name), "TRESTLE_DEMO_MIRRORS");
}

function read<T>(schema: z.ZodType<T>, env: object, what: string): T {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new TrestleError("E_UNAVAILABLE", `the relay's ${what} settings are malformed`);
  return parsed.data;
}
