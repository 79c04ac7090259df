/**
 * C2SP tlog-cosignature, Ed25519 flavour (signature type 0x04): a witness's timestamped statement
 * that a checkpoint is the largest consistent one it has seen for that origin. The signed message is
 * `cosignature/v1\ntime <t>\n` followed by the checkpoint's note text; the signature bytes after the
 * key ID are a big-endian u64 timestamp (POSIX seconds) and the 64-byte Ed25519 signature.
 */
import { concatBytes, utf8 } from "../encoding/bytes.js";
import { TrestleError } from "../errors.js";
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES, ed25519, type Signer } from "../signing/crypto.js";
import { noteKeyId, parseVerifierKey, readUint32, type NoteSigner, type NoteVerifier } from "./note.js";

/** Signature type 0x04: timestamped Ed25519 checkpoint cosignatures. */
export const SIG_TYPE_COSIGNATURE = 0x04;

/** A cosignature's bytes after the key ID: an 8-byte timestamp and a 64-byte signature. */
export const COSIGNATURE_BYTES = 8 + SIGNATURE_BYTES;

/** The exact bytes a v1 cosigner signs: header line, time line, then the checkpoint's note text. */
export function cosignedMessage(checkpointText: string, timestamp: number): Uint8Array {
  return messageBytes(utf8(checkpointText), timestamp);
}

/** A cosigner for `name` signing at `timestamp` (POSIX seconds, passed in); key ID over type 0x04. */
export function cosignatureSigner(name: string, signer: Signer, timestamp: number): NoteSigner {
  checkTimestamp(timestamp);
  return {
    name,
    keyId: noteKeyId(name, SIG_TYPE_COSIGNATURE, signer.publicKey),
    async sign(text) {
      const sig = await signer.sign(messageBytes(text, timestamp));
      return concatBytes(uint64(timestamp), sig);
    },
  };
}

/** A verifier of one cosigner's type 0x04 signatures on checkpoint note texts. */
export function cosignatureVerifier(name: string, publicKey: Uint8Array): NoteVerifier {
  if (publicKey.length !== PUBLIC_KEY_BYTES) throw new TrestleError("E_SCHEMA", "an Ed25519 public key is 32 bytes");
  return {
    name,
    keyId: noteKeyId(name, SIG_TYPE_COSIGNATURE, publicKey),
    async verify(text, signature) {
      const timestamp = cosignatureTimestamp(signature);
      if (timestamp === undefined) return false;
      return (await ed25519()).verify(publicKey, messageBytes(text, timestamp), signature.subarray(8));
    },
  };
}

/** The cosigner verifier a type 0x04 verifier key names; E_SCHEMA for any other type. */
export function cosignatureVerifierFromKey(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIG_TYPE_COSIGNATURE)
    throw new TrestleError("E_SCHEMA", `verifier key type ${key.type} is not a cosignature (4)`);
  return cosignatureVerifier(key.name, key.publicKey);
}

/** The timestamp of a cosignature's bytes (after the key ID), or undefined when they are not 72 bytes or the time is past 2^53 − 1. */
export function cosignatureTimestamp(signature: Uint8Array): number | undefined {
  if (signature.length !== COSIGNATURE_BYTES) return undefined;
  const high = readUint32(signature);
  if (high >= 2 ** 21) return undefined;
  return high * 2 ** 32 + readUint32(signature.subarray(4));
}

function messageBytes(text: Uint8Array, timestamp: number): Uint8Array {
  checkTimestamp(timestamp);
  return concatBytes(utf8(`cosignature/v1\ntime ${timestamp}\n`), text);
}

function uint64(value: number): Uint8Array {
  const high = Math.floor(value / 2 ** 32);
  const low = value % 2 ** 32;
  return Uint8Array.of(
    high >>> 24,
    (high >>> 16) & 0xff,
    (high >>> 8) & 0xff,
    high & 0xff,
    low >>> 24,
    (low >>> 16) & 0xff,
    (low >>> 8) & 0xff,
    low & 0xff,
  );
}

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new TrestleError("E_SCHEMA", "a cosignature time is whole POSIX seconds");
}
