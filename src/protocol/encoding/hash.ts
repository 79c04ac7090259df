/**
 * SHA-256 (FIPS 180-4) as a synchronous pure function, and the hex digest of canonical JSON,
 * which is how trestle names every hashed object (configs, cards, effects, prefixes).
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { toHex } from "./bytes.js";
import { canonicalBytes } from "./canonical.js";

/** A SHA-256 implementation (the name Sha256 is the hex digest's schema type): 32 bytes out for any bytes in (a caller may pass a native one where its runtime has it). */
export type HashFunction = (bytes: Uint8Array) => Uint8Array;

/** SHA-256 of bytes: 32 bytes out. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** Lowercase hex SHA-256 of the RFC 8785 canonical form of `value` (throws E_NOT_CANONICAL). */
export function canonicalSha256(value: unknown): string {
  return toHex(sha256(canonicalBytes(value)));
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes, hashed with `hash` (a native SHA-256 where the caller has one). */
export function textSha256(text: string, hash: HashFunction = sha256): string {
  return toHex(hash(new TextEncoder().encode(text)));
}
