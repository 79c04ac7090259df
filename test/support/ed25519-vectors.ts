/** The Ed25519 test vectors (test/vectors: RFC 8032 §7.1 and Wycheproof), one verify's outcome and the property against noble, for every Ed25519 implementation's tests. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { expect } from "vitest";
import { fromHex, nobleEd25519, type Ed25519 } from "../../src/protocol/index.js";

/** One RFC 8032 §7.1 test, in lowercase hex; `secret_key` is the 32-byte seed. */
export interface RfcVector {
  name: string;
  secret_key: string;
  public_key: string;
  message: string;
  signature: string;
}
interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; comment: string; msg: string; sig: string; result: string }[];
  }[];
}

const readVector = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), "utf8")) as T;
/** RFC 8032 §7.1's tests. */
export const RFC8032 = readVector<RfcVector[]>("ed25519-rfc8032.json");
/** Wycheproof's ed25519_test.json as it is. */
export const WYCHEPROOF = readVector<WycheproofFile>("ed25519-wycheproof.json");
/** Every Wycheproof test with its group's public key. */
export const WYCHEPROOF_TESTS = WYCHEPROOF.testGroups.flatMap((g) =>
  g.tests.map((t) => ({ ...t, pk: g.publicKey.pk })),
);

/** The eight small-order points of edwards25519 (their canonical encodings): no key may be one (hex). */
export const SMALL_ORDER_KEYS = [
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
];

/** Non-canonical key encodings (y >= p, or x = 0 with the sign bit set; RFC 8032 §5.1.3): refused as keys (hex). */
export const NON_CANONICAL_KEYS = [
  "0100000000000000000000000000000000000000000000000000000000000080",
  "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
];

/** verify's answer on hex inputs, with a throw (malformed input) counted as "throws". */
export async function outcome(impl: Ed25519, pk: string, msg: string, sig: string): Promise<boolean | "throws"> {
  try {
    return await impl.verify(fromHex(pk), fromHex(msg), fromHex(sig));
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return "throws";
    throw error;
  }
}

/**
 * The property every other implementation holds against @noble/ed25519 (strict RFC 8032): from the
 * same seed the same public key and the same signature of any message, each verifies the other's
 * signature, and `impl` refuses noble's signature with one bit flipped. 40 runs, a fixed seed.
 */
export async function signsAsNobleDoes(impl: Ed25519): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ maxLength: 300 }),
      async (seed, message) => {
        const [noble, other] = [await nobleEd25519.signer(seed), await impl.signer(seed)];
        expect(other.publicKey).toEqual(noble.publicKey);
        const [sigNoble, sigOther] = [await noble.sign(message), await other.sign(message)];
        expect(sigOther).toEqual(sigNoble);
        expect(await impl.verify(noble.publicKey, message, sigNoble)).toBe(true);
        expect(await nobleEd25519.verify(other.publicKey, message, sigOther)).toBe(true);
        sigNoble[0] = sigNoble[0]! ^ 1;
        expect(await impl.verify(noble.publicKey, message, sigNoble)).toBe(false);
      },
    ),
    { seed: 8032, numRuns: 40 },
  );
}
