/**
 * Standard padded base64 (RFC 4648 §4), the encoding every C2SP transparency-log format uses, built
 * on the canonical base64url codec of encoding/bytes.ts so both refuse the same non-canonical input.
 */
import { fromBase64url, toBase64url } from "../encoding/bytes.js";
import { TrestleError } from "../errors.js";

const STD_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Padded standard base64 of bytes; always a multiple of 4 characters. */
export function toBase64(bytes: Uint8Array): string {
  const url = toBase64url(bytes).replace(/-/g, "+").replace(/_/g, "/");
  return url + "=".repeat((4 - (url.length % 4)) % 4);
}

/** Bytes of canonical padded standard base64; throws E_SCHEMA on anything else (url alphabet, missing padding, non-zero tail bits). */
export function fromBase64(text: string): Uint8Array {
  if (!STD_PATTERN.test(text)) throw new TrestleError("E_SCHEMA", "not padded standard base64");
  try {
    return fromBase64url(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
  } catch {
    throw new TrestleError("E_SCHEMA", "non-canonical standard base64");
  }
}
