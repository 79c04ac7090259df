/**
 * Both Ed25519 implementations (WebCrypto and @noble/ed25519 in strict RFC 8032 mode) against
 * RFC 8032 §7.1 and every Wycheproof vector, and against each other.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  NON_CANONICAL_KEYS,
  outcome,
  RFC8032,
  signsAsNobleDoes,
  SMALL_ORDER_KEYS,
  WYCHEPROOF,
  WYCHEPROOF_TESTS,
} from "../../support/ed25519-vectors.js";
import {
  ed25519,
  fromHex,
  isStrongPublicKey,
  nobleEd25519,
  toHex,
  utf8,
  webCryptoEd25519,
  type Ed25519,
} from "../../../src/protocol/index.js";

let webcrypto: Ed25519;
beforeAll(async () => {
  const impl = await webCryptoEd25519();
  if (!impl) throw new Error("Node >= 20 has WebCrypto Ed25519; the self-test must pass here");
  webcrypto = impl;
});
const impls = (): Ed25519[] => [nobleEd25519, webcrypto];

describe("Ed25519 implementations", () => {
  it("prefers WebCrypto where the runtime has it", async () => {
    expect((await ed25519()).name).toBe("webcrypto");
  });

  describe.each(["noble", "webcrypto"] as const)("%s on RFC 8032 §7.1", (name) => {
    const impl = () => impls().find((i) => i.name === name)!;

    it.each(RFC8032.map((v) => [v.name, v] as const))("%s: derives the public key from the seed", async (_n, v) => {
      const signer = await impl().signer(fromHex(v.secret_key));
      expect(toHex(signer.publicKey)).toBe(v.public_key);
    });

    it.each(RFC8032.map((v) => [v.name, v] as const))("%s: reproduces the signature exactly", async (_n, v) => {
      const signer = await impl().signer(fromHex(v.secret_key));
      expect(toHex(await signer.sign(fromHex(v.message)))).toBe(v.signature);
    });

    it.each(RFC8032.map((v) => [v.name, v] as const))("%s: verifies the signature", async (_n, v) => {
      expect(await impl().verify(fromHex(v.public_key), fromHex(v.message), fromHex(v.signature))).toBe(true);
    });
  });

  describe("Wycheproof (C2SP/wycheproof ed25519_test.json)", () => {
    it("holds every test the file declares", () => {
      expect(WYCHEPROOF_TESTS).toHaveLength(WYCHEPROOF.numberOfTests);
      expect(new Set(WYCHEPROOF_TESTS.map((t) => t.result))).toEqual(new Set(["valid", "invalid"]));
    });

    it.each(WYCHEPROOF_TESTS.map((t) => [t.tcId, t.result, t.comment || "-", t] as const))(
      "tcId %i (%s, %s): both implementations give the expected answer and agree",
      async (_id, result, _comment, t) => {
        const [noble, web] = [
          await outcome(nobleEd25519, t.pk, t.msg, t.sig),
          await outcome(webcrypto, t.pk, t.msg, t.sig),
        ];
        if (result === "valid") {
          expect(noble).toBe(true);
          expect(web).toBe(true);
        } else {
          expect(noble).not.toBe(true);
          expect(web).not.toBe(true);
        }
        expect(noble).toBe(web);
      },
    );
  });

  it("webcrypto signs what noble signs from the same seed, and each verifies the other's signature", async () => {
    await signsAsNobleDoes(webcrypto);
  });

  describe("when the public key is a small-order point or a non-canonical encoding", () => {
    // The (R = identity, S = 0) signature satisfies the cofactorless equation [S]B = R + [k]A for
    // every message when A is the identity: a universal forgery under such a key. RFC 8032 §5.1.3
    // also fails decoding of y >= p, and of x = 0 with the sign bit set.
    const WEAK_KEYS: [string, string][] = [
      ["the identity (y = 1)", "0100000000000000000000000000000000000000000000000000000000000000"],
      ["the identity with the x sign bit set", "0100000000000000000000000000000000000000000000000000000000000080"],
      [
        "the identity encoded as y = p + 1 (non-canonical)",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
      ],
      ["y = p + 1 with the sign bit set", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"],
    ];
    const FORGERY = "01" + "00".repeat(63);
    const MESSAGES = ["", "74726573746c65", "00ff00ff"];

    it.each(WEAK_KEYS)("noble refuses the identity forgery under %s", async (_what, pk) => {
      for (const msg of MESSAGES) expect(await outcome(nobleEd25519, pk, msg, FORGERY)).toBe(false);
    });

    // OpenSSL 3.0 (Node 20 WebCrypto) accepts this forgery on its own; both implementations
    // must refuse such keys before verifying (isStrongPublicKey).
    it.each(WEAK_KEYS)("webcrypto agrees with noble and refuses the identity forgery under %s", async (_what, pk) => {
      for (const msg of MESSAGES) {
        expect(await outcome(webcrypto, pk, msg, FORGERY)).toBe(false);
        expect(await outcome(webcrypto, pk, msg, FORGERY)).toBe(await outcome(nobleEd25519, pk, msg, FORGERY));
      }
    });

    it("both refuse a forgery under a small-order key when the equation does not hold", async () => {
      // Order-8 point; with R = identity and S = 0 the equation needs [k]A = identity, i.e. 8 | k.
      const pk = "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a";
      const msg = toHex(utf8("trestle 0"));
      expect(await outcome(nobleEd25519, pk, msg, FORGERY)).toBe(false);
      expect(await outcome(webcrypto, pk, msg, FORGERY)).toBe(false);
    });
  });

  describe("isStrongPublicKey", () => {
    it("accepts the RFC 8032 and Wycheproof public keys", () => {
      for (const pk of new Set([
        ...RFC8032.map((v) => v.public_key),
        ...WYCHEPROOF.testGroups.map((g) => g.publicKey.pk),
      ])) {
        expect(isStrongPublicKey(fromHex(pk)), pk).toBe(true);
      }
    });

    it.each(SMALL_ORDER_KEYS)("refuses the small-order point %s", (pk) => {
      expect(isStrongPublicKey(fromHex(pk))).toBe(false);
    });

    it.each(NON_CANONICAL_KEYS)("refuses the non-canonical encoding %s", (pk) => {
      expect(isStrongPublicKey(fromHex(pk))).toBe(false);
    });

    it("refuses a key of the wrong length or no curve point", () => {
      expect(isStrongPublicKey(new Uint8Array(31))).toBe(false);
      expect(isStrongPublicKey(fromHex("02" + "00".repeat(31)))).toBe(false);
    });

    it.each(["noble", "webcrypto"] as const)(
      "%s verifies false under every small-order key, whatever the signature",
      async (name) => {
        const impl = impls().find((i) => i.name === name)!;
        for (const pk of [...SMALL_ORDER_KEYS, ...NON_CANONICAL_KEYS]) {
          for (const sig of ["01" + "00".repeat(63), pk + "00".repeat(32)]) {
            for (let m = 0; m < 8; m++) expect(await outcome(impl, pk, toHex(utf8(`trestle ${m}`)), sig)).toBe(false);
          }
        }
      },
    );
  });

  describe("when the input has the wrong type or length", () => {
    const key = new Uint8Array(32);
    const sig = new Uint8Array(64);
    it.each(["noble", "webcrypto"] as const)(
      "%s throws RangeError for a 31-byte key, a 63-byte signature or a 33-byte seed",
      async (name) => {
        const impl = impls().find((i) => i.name === name)!;
        await expect(impl.verify(new Uint8Array(31), new Uint8Array(0), sig)).rejects.toThrow(RangeError);
        await expect(impl.verify(key, new Uint8Array(0), new Uint8Array(63))).rejects.toThrow(RangeError);
        await expect(impl.signer(new Uint8Array(33))).rejects.toThrow(RangeError);
      },
    );

    it.each(["noble", "webcrypto"] as const)(
      "%s throws TypeError for a seed that is not a Uint8Array",
      async (name) => {
        const impl = impls().find((i) => i.name === name)!;
        await expect(impl.signer([...new Uint8Array(32)] as unknown as Uint8Array)).rejects.toThrow(TypeError);
      },
    );

    it.each(["noble", "webcrypto"] as const)(
      "%s returns false, not a throw, for a key that is no curve point",
      async (name) => {
        const impl = impls().find((i) => i.name === name)!;
        // y = 2 has no x on edwards25519 (RFC 8032 §5.1.3 decoding fails).
        const notOnCurve = new Uint8Array(32);
        notOnCurve[0] = 2;
        expect(await impl.verify(notOnCurve, new Uint8Array(0), sig)).toBe(false);
      },
    );
  });
});
