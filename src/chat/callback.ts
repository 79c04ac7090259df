/**
 * Callback data for approve/reject buttons: `t1.<a|r>.<ref>`, 21 ASCII characters, inside every
 * platform's limit (Telegram callback_data 64 bytes, LINE postback data 300 chars, Discord
 * custom_id 100 chars). `ref` is 16 base64url characters of SHA-256 over the owner key and the
 * event id, so a button names one owner's one approval and nothing else. The data is attacker-
 * controlled on the way back: it is parsed strictly and only ever used to look up that ref.
 */
import { toBase64url, utf8 } from "../protocol/encoding/bytes.js";
import { sha256 } from "../protocol/encoding/hash.js";

/** The two things a button can say. */
export type TapVerb = "approve" | "reject";

/** A parsed button tap. */
export interface CallbackData {
  verb: TapVerb;
  ref: string;
}

/** The longest callback data this module makes, in bytes. */
export const CALLBACK_DATA_BYTES = 21;

const PATTERN = /^t1\.([ar])\.([A-Za-z0-9_-]{16})$/;

/** The approval reference for `eventId` addressed to `ownerKey`. */
export function approvalRef(ownerKey: string, eventId: string): string {
  return toBase64url(sha256(utf8(`${ownerKey}\n${eventId}`))).slice(0, 16);
}

/** The callback data for a tap. */
export function encodeCallback(data: CallbackData): string {
  return `t1.${data.verb === "approve" ? "a" : "r"}.${data.ref}`;
}

/** The tap a callback string names, or null for anything else. */
export function parseCallback(text: unknown): CallbackData | null {
  if (typeof text !== "string") return null;
  const match = PATTERN.exec(text);
  if (!match) return null;
  return { verb: match[1] === "a" ? "approve" : "reject", ref: match[2]! };
}
