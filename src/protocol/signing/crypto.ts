/**
 * Ed25519 (RFC 8032) behind one interface with two implementations that must agree: WebCrypto
 * (workerd, Node >= 20, browsers; fast) and @noble/ed25519 (portable reference, strict RFC 8032
 * mode, not ZIP-215). Also domain-separated signing of canonical JSON statements (docs/SPEC.md §4).
 * WebCrypto is reached through `globalThis.crypto.subtle`, a web standard, never a Node API.
 */
import * as noble from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { concatBytes, fromBase64url, toBase64url, utf8 } from "../encoding/bytes.js";
import { canonicalBytes } from "../encoding/canonical.js";

noble.hashes.sha512 = (message: Uint8Array) => sha512(message);

/** Seeds and public keys are 32 bytes, signatures 64 bytes (RFC 8032 §5.1.5, §5.1.6). */
export const SEED_BYTES = 32;
export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

/** A key able to sign; it never exposes its seed. */
export interface Signer {
  /** Raw 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** Unpadded base64url of the public key, as it appears on the wire. */
  readonly publicKeyText: string;
  /** Deterministic Ed25519 signature (64 bytes) over `message`. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

/** One Ed25519 implementation; `verify` is false for a bad signature and throws only on wrong lengths. */
export interface Ed25519 {
  readonly name: "webcrypto" | "noble" | "node";
  signer(seed: Uint8Array): Promise<Signer>;
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
}

/** Throws TypeError unless `bytes` is a Uint8Array, RangeError unless it is `length` bytes long (every implementation's argument check). */
export function checkLength(bytes: Uint8Array, length: number, what: string): void {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
  if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}

const KEY_CHECK_CACHE_MAX = 1024;
const keyChecks = new Map<string, boolean>();

/**
 * True iff `publicKey` is the canonical RFC 8032 §5.1.3 encoding of a point that is not of small
 * order. Small-order keys (the identity among them) admit universal forgeries: (R = identity,
 * S = 0) satisfies the verification equation for every message under the identity key, and some
 * WebCrypto builds (OpenSSL 3.0 in Node 20) accept it. Both implementations refuse such keys first.
 */
export function isStrongPublicKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return false;
  const id = toBase64url(publicKey);
  let ok = keyChecks.get(id);
  if (ok === undefined) {
    try {
      const point = noble.Point.fromBytes(publicKey, false);
      ok = !point.isSmallOrder() && toBase64url(point.toBytes()) === id;
    } catch {
      ok = false;
    }
    if (keyChecks.size >= KEY_CHECK_CACHE_MAX) keyChecks.delete(keyChecks.keys().next().value!);
    keyChecks.set(id, ok);
  }
  return ok;
}

/** The portable reference implementation, strict RFC 8032 verification. */
export const nobleEd25519: Ed25519 = {
  name: "noble",
  async signer(seed) {
    checkLength(seed, SEED_BYTES, "seed");
    const secret = seed.slice();
    const publicKey = await noble.getPublicKeyAsync(secret);
    return {
      publicKey,
      publicKeyText: toBase64url(publicKey),
      sign: (message) => noble.signAsync(message, secret),
    };
  },
  async verify(publicKey, message, signature) {
    checkLength(publicKey, PUBLIC_KEY_BYTES, "public key");
    checkLength(signature, SIGNATURE_BYTES, "signature");
    if (!isStrongPublicKey(publicKey)) return false;
    try {
      return await noble.verifyAsync(signature, message, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
};

/** RFC 8410 §7 PKCS#8 wrapping of a raw Ed25519 seed: these 16 bytes, then the seed. */
export const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const ALGORITHM = { name: "Ed25519" } as const;
const VERIFY_KEY_CACHE_MAX = 512;

function subtle(): SubtleCrypto | undefined {
  const c = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto;
  return c?.subtle;
}

function createWebCryptoEd25519(api: SubtleCrypto): Ed25519 {
  const verifyKeys = new Map<string, Promise<CryptoKey | null>>();
  const importVerifyKey = (publicKey: Uint8Array): Promise<CryptoKey | null> => {
    const id = toBase64url(publicKey);
    let key = verifyKeys.get(id);
    if (!key) {
      key = api.importKey("raw", publicKey, ALGORITHM, false, ["verify"]).catch(() => null);
      if (verifyKeys.size >= VERIFY_KEY_CACHE_MAX) verifyKeys.delete(verifyKeys.keys().next().value!);
      verifyKeys.set(id, key);
    }
    return key;
  };
  return {
    name: "webcrypto",
    async signer(seed) {
      checkLength(seed, SEED_BYTES, "seed");
      const pkcs8 = concatBytes(PKCS8_PREFIX, seed);
      const exportable = await api.importKey("pkcs8", pkcs8, ALGORITHM, true, ["sign"]);
      const jwk = (await api.exportKey("jwk", exportable)) as JsonWebKey;
      const publicKey = fromBase64url(jwk.x ?? "");
      const key = await api.importKey("pkcs8", pkcs8, ALGORITHM, false, ["sign"]);
      pkcs8.fill(0);
      return {
        publicKey,
        publicKeyText: toBase64url(publicKey),
        sign: async (message) => new Uint8Array(await api.sign(ALGORITHM, key, message)),
      };
    },
    async verify(publicKey, message, signature) {
      checkLength(publicKey, PUBLIC_KEY_BYTES, "public key");
      checkLength(signature, SIGNATURE_BYTES, "signature");
      if (!isStrongPublicKey(publicKey)) return false;
      const key = await importVerifyKey(publicKey);
      if (!key) return false;
      try {
        return await api.verify(ALGORITHM, key, signature, message);
      } catch {
        return false;
      }
    },
  };
}

/** WebCrypto Ed25519 if this runtime has it, else undefined. */
export async function webCryptoEd25519(): Promise<Ed25519 | undefined> {
  const api = subtle();
  if (!api) return undefined;
  try {
    const impl = createWebCryptoEd25519(api);
    // RFC 8032 §7.1 TEST 1: the runtime must reproduce it exactly before we trust it.
    const signer = await impl.signer(new Uint8Array(SELF_TEST_SEED));
    const sig = await signer.sign(new Uint8Array(0));
    if (toBase64url(signer.publicKey) !== SELF_TEST_PUBLIC || toBase64url(sig) !== SELF_TEST_SIG) return undefined;
    return (await impl.verify(signer.publicKey, new Uint8Array(0), sig)) ? impl : undefined;
  } catch {
    return undefined;
  }
}

const SELF_TEST_SEED = [
  0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec, 0x2c, 0xc4, 0x44, 0x49, 0xc5,
  0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03, 0x1c, 0xae, 0x7f, 0x60,
];
const SELF_TEST_PUBLIC = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const SELF_TEST_SIG = "5VZDAMNgrHKQhuLMgG6CioSHfx645dl02HPgZSJJAVVfuIIVkKM7rMYeOXAc-bRr0lv18FlbviRlUUFDjnoQCw";

let chosen: Promise<Ed25519> | undefined;

/** The implementation to use here: WebCrypto when it passes the RFC 8032 self-test, else noble. */
export function ed25519(): Promise<Ed25519> {
  chosen ??= webCryptoEd25519().then((impl) => impl ?? nobleEd25519);
  return chosen;
}

/** The closed list of signing purposes; each is a distinct domain (docs/SPEC.md §4.1). */
export const SIGNING_PURPOSES = [
  "create",
  "join",
  "entry",
  "approval",
  "head",
  "auth",
  "bind",
  "owner",
  "subtable",
  "result",
  // Rooms (§5.10): the creator's invites and ejections, a seat's note to its owner; and, never sent
  // to a relay, an owner's mandate and commitment-gate answers (docs/ROOMS.md).
  "room",
  "note",
  "mandate",
  "commit",
  // Custody (§8.4): a table's owners and the relay taking it over authorise a move to that relay.
  "custody",
  // Deals (§5.10): an owner signs the final terms of a room's deal; a deal_sign entry carries it.
  "deal",
  // Shown prices (§5.15): an owner allows a market to show a match's deal terms (decision 0529).
  "price",
  // A seat and its own owner (§5.14): the seat's question, the owner's answer and instruction.
  "question",
  "answer",
  "instruction",
] as const;
export type SigningPurpose = (typeof SIGNING_PURPOSES)[number];

/** A statement, its purpose, and the key and signature recorded for it. */
export interface RecordedStatement {
  purpose: SigningPurpose;
  statement: unknown;
  key: string;
  sig: string;
}

/** Protocol label inside every signed message; a new major version changes every signature. */
export const PROTOCOL_LABEL = "trestle/0.1";

/** The exact bytes signed for a statement: `trestle/0.1 <purpose>\n` followed by its JCS bytes. */
export function signingBytes(purpose: SigningPurpose, statement: unknown): Uint8Array {
  return concatBytes(utf8(`${PROTOCOL_LABEL} ${purpose}\n`), canonicalBytes(statement));
}

/** Signs a statement under a purpose; returns the signature as base64url. */
export async function signStatement(signer: Signer, purpose: SigningPurpose, statement: unknown): Promise<string> {
  return toBase64url(await signer.sign(signingBytes(purpose, statement)));
}

/** True iff `signature` (base64url) by `publicKey` (base64url) covers `statement` under `purpose`. */
export async function verifyStatement(
  publicKey: string,
  purpose: SigningPurpose,
  statement: unknown,
  signature: string,
  impl?: Ed25519,
): Promise<boolean> {
  let key: Uint8Array;
  let sig: Uint8Array;
  try {
    key = fromBase64url(publicKey);
    sig = fromBase64url(signature);
  } catch {
    return false;
  }
  if (key.length !== PUBLIC_KEY_BYTES || sig.length !== SIGNATURE_BYTES) return false;
  return (impl ?? (await ed25519())).verify(key, signingBytes(purpose, statement), sig);
}
