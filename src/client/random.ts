/**
 * Randomness and the clock for the client. src/protocol takes both as inputs and never reaches
 * for them itself; this is where they come from. Uses only web-standard globals
 * (`crypto.getRandomValues`, `Date.now`), so it runs in Node, browsers and workerd alike.
 */
import { SEED_BYTES, toBase64url } from "../protocol/index.js";

/** A source of the current time in milliseconds since the Unix epoch. */
export type Clock = () => number;

/** The system clock. */
export const systemClock: Clock = () => Date.now();

/** A uniform number in [0, 1), for backoff jitter. */
export type Random = () => number;

/** Non-cryptographic uniform randomness; only ever used for jitter, never for keys or nonces. */
export const systemRandom: Random = () => Math.random();

/** `n` bytes from the platform's cryptographically secure generator. */
export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/**
 * A fresh nonce: 18 random bytes as 24 base64url chars, inside NonceSchema's 16-64, never starting
 * with "-" (drawn again, 1 in 64): question and invite ids are nonces a user types back, and an
 * argument starting with "-" reads as a flag. 143.98 bits.
 */
export function randomNonce(): string {
  for (;;) {
    const nonce = toBase64url(randomBytes(18));
    if (!nonce.startsWith("-")) return nonce;
  }
}

/** A fresh boundary for one inert data block (src/text/framing.ts): 24 random letters and digits (144 bits). */
export function randomBoundary(): string {
  return toBase64url(randomBytes(18)).replace(/[-_]/g, "x");
}

/** A fresh Ed25519 seed (32 bytes, RFC 8032 §5.1.5). */
export function randomSeed(): Uint8Array {
  return randomBytes(SEED_BYTES);
}
