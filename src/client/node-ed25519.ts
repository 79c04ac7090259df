/**
 * Ed25519 through Node's node:crypto (OpenSSL, the library under Node's WebCrypto too), called
 * synchronously on the calling thread: what the verify worker threads (verify-worker.ts) pass the
 * protocol's checker, saving WebCrypto's per-call work and the hop to Node's thread pool. It refuses
 * small-order and non-canonical keys first (the protocol's isStrongPublicKey), as the other two do,
 * and must give their answer on every RFC 8032 and Wycheproof vector (test/unit/client/node-ed25519.test.ts).
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import {
  checkLength,
  concatBytes,
  isStrongPublicKey,
  PKCS8_PREFIX,
  PUBLIC_KEY_BYTES,
  SEED_BYTES,
  SIGNATURE_BYTES,
  toBase64url,
  type Ed25519,
} from "../protocol/index.js";

/** RFC 8410 §4 SubjectPublicKeyInfo of an Ed25519 key: these 12 bytes, then the raw 32-byte key. */
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
const VERIFY_KEY_CACHE_MAX = 512;
const verifyKeys = new Map<string, KeyObject | null>();

/** The KeyObject of a raw public key (null when OpenSSL refuses it), kept for the next signature under the same key. */
function verifyKey(publicKey: Uint8Array): KeyObject | null {
  const id = toBase64url(publicKey);
  let key = verifyKeys.get(id);
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.from(concatBytes(SPKI_PREFIX, publicKey)), format: "der", type: "spki" });
    } catch {
      key = null;
    }
    if (verifyKeys.size >= VERIFY_KEY_CACHE_MAX) verifyKeys.delete(verifyKeys.keys().next().value!);
    verifyKeys.set(id, key);
  }
  return key;
}

/** Ed25519 on node:crypto: the same answers as the protocol's WebCrypto and noble implementations, verifying synchronously. */
export const nodeEd25519: Ed25519 = {
  name: "node",
  async signer(seed) {
    checkLength(seed, SEED_BYTES, "seed");
    const pkcs8 = Buffer.from(concatBytes(PKCS8_PREFIX, seed));
    const key = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" });
    pkcs8.fill(0);
    const publicKey = new Uint8Array(
      createPublicKey(key).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length),
    );
    return {
      publicKey,
      publicKeyText: toBase64url(publicKey),
      sign: async (message) => new Uint8Array(sign(null, message, key)),
    };
  },
  async verify(publicKey, message, signature) {
    checkLength(publicKey, PUBLIC_KEY_BYTES, "public key");
    checkLength(signature, SIGNATURE_BYTES, "signature");
    if (!isStrongPublicKey(publicKey)) return false;
    const key = verifyKey(publicKey);
    if (!key) return false;
    try {
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  },
};
