/**
 * Nonces for relay-attested entries from chat apps (docs/SPEC.md §5.5, §5.6): derived from the
 * platform's event id, so a redelivered webhook makes the same nonce and returns the first entry.
 */
import { toBase64url, utf8 } from "../../../src/protocol/encoding/bytes.js";
import { sha256 } from "../../../src/protocol/encoding/hash.js";

/** The nonce chat event `eventId` stands for: 22 base64url chars of SHA-256(`<label>\n<eventId>`). */
export function chatEventNonce(label: "chat-approval" | "chat-control", eventId: string): string {
  return toBase64url(sha256(utf8(`${label}\n${eventId}`))).slice(0, 22);
}
