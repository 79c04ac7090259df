/**
 * Helpers the platform modules share for their settings: an API base that tests (and proxies) can
 * point elsewhere, and a constant-time comparison for webhook secrets. Each platform declares its
 * own settings (src/chat/platforms/<name>.ts); see docs/CHAT-APPS.md.
 */

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
