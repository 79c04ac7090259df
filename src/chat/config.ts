/**
 * Chat-app settings, all optional: a relay without a platform's secrets simply has no such
 * channel. Tokens and secrets are set with `wrangler secret put`; API bases are plain vars so
 * tests (and proxies) can point them elsewhere. See docs/CHAT-APPS.md.
 */

/** The chat-app part of the Worker environment. */
export interface ChatEnv {
  TELEGRAM_BOT_TOKEN?: string;
  TELEGRAM_WEBHOOK_SECRET?: string;
  TELEGRAM_BOT_USERNAME?: string;
  TELEGRAM_API_BASE?: string;
  LINE_CHANNEL_ACCESS_TOKEN?: string;
  LINE_CHANNEL_SECRET?: string;
  LINE_API_BASE?: string;
  DISCORD_BOT_TOKEN?: string;
  DISCORD_PUBLIC_KEY?: string;
  DISCORD_APPLICATION_ID?: string;
  DISCORD_API_BASE?: string;
  /** Milliseconds the outbox waits before a fresh batch goes out, and the LINE queue before a batch of events (default 0); lets bursts coalesce. */
  OUTBOX_DELAY_MS?: string;
}

/** OUTBOX_DELAY_MS as a number of milliseconds: 0 unless set to a positive integer. */
export function outboxDelay(env: ChatEnv): number {
  const delay = Number(env.OUTBOX_DELAY_MS ?? 0);
  return Number.isSafeInteger(delay) && delay > 0 ? delay : 0;
}

/** Default public API bases. */
export const API_BASES = {
  telegram: "https://api.telegram.org",
  line: "https://api.line.me",
  discord: "https://discord.com/api/v10",
} as const;

/** A configured base URL without a trailing slash. */
export function apiBase(configured: string | undefined, fallback: string): string {
  return (configured && configured.length > 0 ? configured : fallback).replace(/\/+$/, "");
}

/** Constant-time equality of two strings' UTF-8 bytes (length may leak; content does not). */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
