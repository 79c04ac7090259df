/**
 * Chat-app settings the workers tests run with: test tokens and secrets, the Discord application
 * key (a fixture key, so tests can sign interactions as Discord does), and API bases pointing at
 * the loopback fake. Used by vitest.config.ts and by the tests that sign webhooks.
 */
import { toHex } from "../../src/protocol/encoding/bytes.js";
import { keyOf } from "./table-fixture.js";

/** Test values for every chat setting (what `wrangler secret put` would set in production). */
export const CHAT_TEST = {
  TELEGRAM_BOT_TOKEN: "123:test-telegram-token",
  TELEGRAM_WEBHOOK_SECRET: "test-telegram-webhook-secret",
  TELEGRAM_BOT_USERNAME: "trestle_test_bot",
  LINE_CHANNEL_ACCESS_TOKEN: "test-line-access-token",
  LINE_CHANNEL_SECRET: "test-line-channel-secret",
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  DISCORD_APPLICATION_ID: "4242424242",
  // Alarms never fire on their own during a test; tests run them with runDurableObjectAlarm.
  OUTBOX_DELAY_MS: "3600000",
} as const;

/** The fixture key that plays Discord's application key. */
export function discordAppKey() {
  return keyOf("discord:application");
}

/** Every chat binding for the pool, with API bases under the fake at `fakeUrl`. */
export async function chatBindings(fakeUrl: string): Promise<Record<string, string>> {
  return {
    ...CHAT_TEST,
    DISCORD_PUBLIC_KEY: toHex((await discordAppKey()).publicKey),
    TELEGRAM_API_BASE: `${fakeUrl}/telegram`,
    LINE_API_BASE: `${fakeUrl}/line`,
    DISCORD_API_BASE: `${fakeUrl}/discord`,
  };
}
