/**
 * The wire form of text in an end-to-end encrypted room (docs/SPEC.md §5.12, decision 0281):
 * `e2e1:` followed by unpadded base64url of a 96-bit IV and the AES-256-GCM ciphertext with its
 * 128-bit tag, sealed under the room key with the table, seat and field as associated data. The
 * relay never encrypts or decrypts; it only tells this form from anything else, which is how it
 * refuses plaintext. Which fields are sealed is listed here once, for the relay and the owner's
 * machine alike.
 */
import { concatBytes, fromBase64url, utf8 } from "../encoding/bytes.js";
import { canonicalBytes } from "../encoding/canonical.js";
import { PROTOCOL_LABEL } from "./crypto.js";

/** What every sealed text starts with; the version of this format. */
export const SEALED_PREFIX = "e2e1:";
/** AES-GCM IV (NIST SP 800-38D §8.2: 96 bits, random, never reused under one key) and tag sizes, in bytes. */
export const SEALED_IV_BYTES = 12;
export const SEALED_TAG_BYTES = 16;

/** The longest sealed text that a plaintext of `chars` UTF-16 units becomes (each is at most 3 UTF-8 bytes). */
export function sealedChars(chars: number): number {
  return SEALED_PREFIX.length + Math.ceil(((SEALED_IV_BYTES + 3 * chars + SEALED_TAG_BYTES) * 4) / 3);
}

/** A field that holds sealed text in an e2e room: an entry's body, an offer's terms text, a seat's note to its owner, its question (text and choices), the owner's answer and instruction. */
export type SealedField = "body" | "terms.text" | "note" | "question" | "answer" | "instruction";

/** Where a sealed text belongs: its associated data, so a ciphertext moved to another table, seat or field does not open. */
export interface SealedPlace {
  table: string;
  seat: string;
  field: SealedField;
}

/** The AES-GCM associated data for `place`: utf8("trestle/0.1 e2e\n") || JCS({ field, seat, table }). */
export function sealedAad(place: SealedPlace): Uint8Array {
  const { table, seat, field } = place;
  return concatBytes(utf8(`${PROTOCOL_LABEL} e2e\n`), canonicalBytes({ table, seat, field }));
}

/** The IV and ciphertext (tag included) of a sealed text, or null when `text` is not one. */
export function sealedParts(text: string): { iv: Uint8Array; ciphertext: Uint8Array } | null {
  if (!text.startsWith(SEALED_PREFIX)) return null;
  let bytes: Uint8Array;
  try {
    bytes = fromBase64url(text.slice(SEALED_PREFIX.length));
  } catch {
    return null;
  }
  if (bytes.length < SEALED_IV_BYTES + SEALED_TAG_BYTES) return null;
  return { iv: bytes.slice(0, SEALED_IV_BYTES), ciphertext: bytes.slice(SEALED_IV_BYTES) };
}

/** Whether `text` has the sealed form (the relay cannot tell whether it decrypts; only a room key can). */
export function isSealedText(text: string): boolean {
  return sealedParts(text) !== null;
}

/** The free-text fields of a submission, with their text: what an e2e room carries sealed (an empty body carries nothing and stays ""). */
export function sealedFieldsOf(s: { body: string; terms?: { text?: string } }): [SealedField, string][] {
  const fields: [SealedField, string][] = s.body === "" ? [] : [["body", s.body]];
  if (s.terms?.text !== undefined) fields.push(["terms.text", s.terms.text]);
  return fields;
}
