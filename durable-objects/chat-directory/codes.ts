/**
 * Bind codes: 8 characters from a 32-letter alphabet without look-alikes (no I, O, 0, 1), so
 * 40 bits, shown as XXXX-XXXX. They prove receipt, not identity: whoever holds the code when it
 * is sent to the bot gets the binding. Limits keep guessing hopeless (docs/SECURITY.md).
 */
import { LIMIT_TABLE } from "../../src/protocol/limits/registry.js";

/** The code alphabet: 32 symbols, so one random byte mod 32 is unbiased. */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Lifetimes and guess limits (the limits are rows of src/protocol/limits/registry.ts). */
export const CODE_LIMITS = {
  /** A code is valid this long after it is made. */
  ttl_ms: 10 * 60 * 1000,
  /** Rate-limit window for code creation and per-account misses (`bind_codes_per_owner`, `bind_misses_per_account`). */
  window_ms: LIMIT_TABLE.bind_codes_per_owner.window_ms,
  /** Codes one owner key may create per window. */
  per_owner: LIMIT_TABLE.bind_codes_per_owner.count,
  /** Wrong codes one chat account may send per window before it is refused outright. */
  misses_per_account: LIMIT_TABLE.bind_misses_per_account.count,
  /** Wrong codes the whole relay accepts per global window before all redemption pauses (`bind_misses_relay`). */
  misses_global: LIMIT_TABLE.bind_misses_relay.count,
  global_window_ms: LIMIT_TABLE.bind_misses_relay.window_ms,
  /** Spent codes, nonces and seen event ids are kept this long. */
  keep_ms: 24 * 60 * 60 * 1000,
} as const;

/** A code from 8 random bytes, formatted XXXX-XXXX. */
export function newCode(random: Uint8Array): string {
  if (random.length !== 8) throw new RangeError("a bind code needs 8 random bytes");
  const chars = [...random].map((b) => CODE_ALPHABET[b % 32]!).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** The start (ms) of the fixed window `now` falls in. */
export function windowOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}
