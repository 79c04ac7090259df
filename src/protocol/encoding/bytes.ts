/**
 * Byte encodings used on the wire: lowercase hex for hashes, unpadded base64url for keys and
 * signatures, UTF-8 for text. Uint8Array only, so the same code runs in workerd, Node and browsers.
 */
import { TrestleError } from "../errors.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 bytes of a string (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes strict UTF-8; throws E_SCHEMA on invalid sequences. */
export function fromUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new TrestleError("E_SCHEMA", "bytes are not valid UTF-8");
  }
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX_PAIRS[b]!;
  return out;
}

/** The value of one hex digit's char code (0-9, a-f, A-F), or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Bytes of an even-length hex string; throws E_SCHEMA on anything else. */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new TrestleError("E_SCHEMA", "not a hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = nibble(hex.charCodeAt(2 * i));
    const low = nibble(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw new TrestleError("E_SCHEMA", "not a hex string");
    out[i] = (high << 4) | low;
  }
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64URL_INDEX = new Map([...B64URL].map((c, i) => [c, i]));

/** Unpadded base64url (RFC 4648 §5) of bytes. */
export function toBase64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 1 >= bytes.length ? 2 : i + 2 >= bytes.length ? 3 : 4;
    for (let j = 0; j < chars; j++) out += B64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/** Bytes of unpadded base64url; throws E_SCHEMA on padding, bad characters or non-zero tail bits. */
export function fromBase64url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new TrestleError("E_SCHEMA", "not base64url");
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const c of text) {
    const v = B64URL_INDEX.get(c);
    if (v === undefined) throw new TrestleError("E_SCHEMA", "not base64url");
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) throw new TrestleError("E_SCHEMA", "non-canonical base64url");
  return out;
}

/** Concatenation of byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Constant-time-in-length equality of two byte arrays. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
