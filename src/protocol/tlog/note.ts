/**
 * C2SP signed-note: text ending in a newline, a blank line, then one `— <name> base64(keyID||sig)`
 * line per signature. Key IDs, Ed25519 signing and verification, verifier keys
 * (`<name>+<hex key ID>+base64(type||key)`, as Go's note.NewVerifier reads them), and opening a
 * note: unknown signatures are kept aside, a known one that fails refuses the whole note.
 */
import * as z from "zod";
import { concatBytes, toHex, utf8 } from "../encoding/bytes.js";
import { sha256 } from "../encoding/hash.js";
import { TrestleError, schemaError } from "../errors.js";
import { PROTOCOL_LABEL, PUBLIC_KEY_BYTES, SIGNATURE_BYTES, ed25519, type Signer } from "../signing/crypto.js";
import { fromBase64, toBase64 } from "./base64.js";

/** A note is at most 64 KiB of UTF-16 code units (sixteen 5 kB post-quantum signatures fit, as signed-note asks). */
export const NOTE_MAX_CHARS = 65536;

/** At most this many signature lines; signed-note requires accepting at least 16. */
export const NOTE_MAX_SIGNATURES = 32;

/** Signature type 0x01: Ed25519 over the note text (signed-note §Signature types). */
export const SIG_TYPE_ED25519 = 0x01;

const SIG_PREFIX = "— ";

/** A key name: non-empty, at most 256 chars, no Unicode white space, no `+`, no control character. */
export const KeyNameSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\p{White_Space}+\u0000-\u001f]+$/u, "a key name has no spaces, plus signs or control characters");

/** The uint32 key ID: SHA-256(name || 0x0A || type || public key)[:4], big-endian. */
export function noteKeyId(name: string, type: number, publicKey: Uint8Array): number {
  return readUint32(sha256(concatBytes(utf8(`${name}\n`), Uint8Array.of(type), publicKey)));
}

/** The big-endian uint32 in the first four bytes. */
export function readUint32(bytes: Uint8Array): number {
  return bytes[0]! * 2 ** 24 + bytes[1]! * 2 ** 16 + bytes[2]! * 2 ** 8 + bytes[3]!;
}

/** Makes one signature over a note text; `sign` returns the bytes that follow the key ID. */
export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  sign(text: Uint8Array): Promise<Uint8Array>;
}

/** Checks one signature of a known key; `verify` gets the note text and the bytes after the key ID. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  verify(text: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

/** One signature line of a note: its key name, key ID and the signature bytes after the key ID. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  readonly signature: Uint8Array;
  /** The line as it appeared, without its newline. */
  readonly line: string;
}

/** A parsed note: its text (final newline included) and every signature line, in order. */
export interface ParsedNote {
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

/** A note whose known signatures all verified: `verified` is never empty. */
export interface OpenedNote {
  readonly text: string;
  readonly verified: readonly NoteSignature[];
  readonly unverified: readonly NoteSignature[];
}

// Signed bytes that could also be read as another trestle signature: every domain-separated
// statement (SPEC §4.1) and every Ed25519 cosignature (tlog-cosignature) starts with these.
const RESERVED_PREFIXES = [`${PROTOCOL_LABEL} `, "cosignature/v1\n"];

/** An Ed25519 note signer (type 0x01) for `name`; refuses texts that would read as a trestle statement or a cosignature. */
export function ed25519NoteSigner(name: string, signer: Signer): NoteSigner {
  const keyName = keyNameOf(name);
  return {
    name: keyName,
    keyId: noteKeyId(keyName, SIG_TYPE_ED25519, signer.publicKey),
    async sign(text) {
      const decoded = new TextDecoder().decode(text.subarray(0, 64));
      if (RESERVED_PREFIXES.some((prefix) => decoded.startsWith(prefix))) {
        throw new TrestleError("E_SCHEMA", "this note text would read as another signed message");
      }
      return signer.sign(text);
    },
  };
}

/** An Ed25519 note verifier (type 0x01) for `name` and a 32-byte public key. */
export function ed25519NoteVerifier(name: string, publicKey: Uint8Array): NoteVerifier {
  const keyName = keyNameOf(name);
  if (publicKey.length !== PUBLIC_KEY_BYTES) throw new TrestleError("E_SCHEMA", "an Ed25519 public key is 32 bytes");
  return {
    name: keyName,
    keyId: noteKeyId(keyName, SIG_TYPE_ED25519, publicKey),
    async verify(text, signature) {
      return signature.length === SIGNATURE_BYTES && (await ed25519()).verify(publicKey, text, signature);
    },
  };
}

/** The verifier key text `<name>+<8 hex key ID>+base64(type || public key)`. */
export function formatVerifierKey(name: string, type: number, publicKey: Uint8Array): string {
  const keyName = keyNameOf(name);
  const id = noteKeyId(keyName, type, publicKey);
  return `${keyName}+${keyIdHex(id)}+${toBase64(concatBytes(Uint8Array.of(type), publicKey))}`;
}

/** The parts of a verifier key; E_SCHEMA when malformed or when its key ID does not match its name and key. */
export function parseVerifierKey(vkey: string): { name: string; keyId: number; type: number; publicKey: Uint8Array } {
  // Split at the first two `+` only: the name has none, but standard base64 may (Go's note.NewVerifier does the same).
  const first = vkey.indexOf("+");
  const second = vkey.indexOf("+", first + 1);
  const parts = [vkey.slice(0, first), vkey.slice(first + 1, second), vkey.slice(second + 1)];
  if (first < 0 || second < 0 || !/^[0-9a-f]{8}$/.test(parts[1]!))
    throw new TrestleError("E_SCHEMA", "a verifier key is <name>+<8 lowercase hex>+<base64>");
  const name = keyNameOf(parts[0]!);
  const material = fromBase64(parts[2]!);
  if (material.length < 2) throw new TrestleError("E_SCHEMA", "a verifier key holds a type byte and a key");
  const type = material[0]!;
  const publicKey = material.subarray(1);
  const keyId = parseInt(parts[1]!, 16);
  if (keyId !== noteKeyId(name, type, publicKey))
    throw new TrestleError("E_SCHEMA", "the verifier key's ID does not match its name and key");
  return { name, keyId, type, publicKey };
}

/** The Ed25519 (type 0x01) verifier a verifier key names; E_SCHEMA for any other type. */
export function ed25519VerifierFromKey(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIG_TYPE_ED25519)
    throw new TrestleError("E_SCHEMA", `verifier key type ${key.type} is not Ed25519 (1)`);
  return ed25519NoteVerifier(key.name, key.publicKey);
}

/** One signature line (no newline) for a key name, key ID and the signature bytes after the ID. */
export function signatureLine(name: string, keyId: number, signature: Uint8Array): string {
  const id = Uint8Array.of(keyId >>> 24, (keyId >>> 16) & 0xff, (keyId >>> 8) & 0xff, keyId & 0xff);
  return `${SIG_PREFIX}${keyNameOf(name)} ${toBase64(concatBytes(id, signature))}`;
}

/** The signed note: `text`, a blank line, then one line per signer in order (text must end in a newline). */
export async function signNoteText(text: string, signers: readonly NoteSigner[]): Promise<string> {
  checkText(text);
  if (signers.length === 0) throw new TrestleError("E_SCHEMA", "a signed note needs at least one signer");
  const bytes = utf8(text);
  const lines: string[] = [];
  for (const s of signers) lines.push(signatureLine(s.name, s.keyId, await s.sign(bytes)));
  return `${text}\n${lines.map((line) => `${line}\n`).join("")}`;
}

/** Splits a note into text and signature lines without verifying any; E_SCHEMA if malformed, E_TOO_LARGE past the limits. */
export function parseNote(note: string): ParsedNote {
  if (note.length > NOTE_MAX_CHARS)
    throw new TrestleError("E_TOO_LARGE", `a note is at most ${NOTE_MAX_CHARS} characters`);
  if (/[\u0000-\u0009\u000b-\u001f]|\p{Surrogate}/u.test(note))
    throw new TrestleError("E_SCHEMA", "a note has no control characters but newlines, and is valid UTF-8");
  const split = note.lastIndexOf("\n\n");
  if (split < 0) throw new TrestleError("E_SCHEMA", "a note needs a blank line before its signatures");
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === "" || !block.endsWith("\n"))
    throw new TrestleError("E_SCHEMA", "a note ends with signature lines, each ending in a newline");
  const lines = block.slice(0, -1).split("\n");
  if (lines.length > NOTE_MAX_SIGNATURES)
    throw new TrestleError("E_TOO_LARGE", `a note has at most ${NOTE_MAX_SIGNATURES} signatures`);
  return { text, signatures: lines.map(parseSignatureLine) };
}

/**
 * Opens a note with the keys a reader trusts: every signature whose name and key ID match a known
 * verifier must verify (else E_BAD_SIGNATURE), at least one must (else E_BAD_SIGNATURE), and the
 * rest are returned unverified. Repeated lines are kept once.
 */
export async function openNote(note: string, verifiers: readonly NoteVerifier[]): Promise<OpenedNote> {
  const parsed = parseNote(note);
  const text = utf8(parsed.text);
  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  for (const sig of parsed.signatures) {
    const known = verifiers.find((v) => v.name === sig.name && v.keyId === sig.keyId);
    if (!known) {
      if (!unverified.some((u) => u.line === sig.line)) unverified.push(sig);
      continue;
    }
    if (verified.some((v) => v.name === sig.name && v.keyId === sig.keyId)) continue;
    if (!(await known.verify(text, sig.signature))) {
      throw new TrestleError("E_BAD_SIGNATURE", `the note signature by ${sig.name} does not verify`, {
        name: sig.name,
        key_id: keyIdHex(sig.keyId),
      });
    }
    verified.push(sig);
  }
  if (verified.length === 0)
    throw new TrestleError("E_BAD_SIGNATURE", "no signature on the note is by a trusted key", {
      names: parsed.signatures.map((s) => s.name),
    });
  return { text: parsed.text, verified, unverified };
}

/** Lowercase 8-digit hex of a key ID, as verifier keys write it. */
export function keyIdHex(keyId: number): string {
  return keyId.toString(16).padStart(8, "0");
}

function parseSignatureLine(line: string): NoteSignature {
  if (!line.startsWith(SIG_PREFIX))
    throw new TrestleError("E_SCHEMA", "a signature line starts with an em dash and a space");
  const rest = line.slice(SIG_PREFIX.length);
  const space = rest.indexOf(" ");
  if (space < 0) throw new TrestleError("E_SCHEMA", "a signature line is `— <name> <base64>`");
  const name = keyNameOf(rest.slice(0, space));
  const bytes = fromBase64(rest.slice(space + 1));
  if (bytes.length < 5) throw new TrestleError("E_SCHEMA", "a signature holds a key ID and at least one byte");
  return { name, keyId: readUint32(bytes), signature: bytes.slice(4), line };
}

function checkText(text: string): void {
  if (!text.endsWith("\n")) throw new TrestleError("E_SCHEMA", "note text ends with a newline");
  if (/[\u0000-\u0009\u000b-\u001f]|\p{Surrogate}/u.test(text))
    throw new TrestleError("E_SCHEMA", "note text has no control characters but newlines");
}

function keyNameOf(name: string): string {
  const result = KeyNameSchema.safeParse(name);
  if (!result.success) throw schemaError(result.error.issues, "key name");
  return result.data;
}
