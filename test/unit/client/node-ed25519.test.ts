/**
 * node:crypto's Ed25519 (the verify workers' implementation, src/client/node-ed25519.ts) against
 * RFC 8032 §7.1 and every Wycheproof vector, and answer for answer against @noble/ed25519 in strict
 * RFC 8032 mode, small-order and non-canonical keys included.
 */
import { describe, expect, it } from "vitest";
import {
  NON_CANONICAL_KEYS,
  outcome,
  RFC8032,
  signsAsNobleDoes,
  SMALL_ORDER_KEYS,
  WYCHEPROOF_TESTS,
} from "../../support/ed25519-vectors.js";
import { nodeEd25519 } from "../../../src/client/node-ed25519.js";
import { fromHex, nobleEd25519, toHex, utf8 } from "../../../src/protocol/index.js";

describe("node:crypto Ed25519", () => {
  it.each(RFC8032.map((v) => [v.name, v] as const))(
    "RFC 8032 %s: derives the key, reproduces the signature and verifies it",
    async (_n, v) => {
      const signer = await nodeEd25519.signer(fromHex(v.secret_key));
      expect(toHex(signer.publicKey)).toBe(v.public_key);
      expect(toHex(await signer.sign(fromHex(v.message)))).toBe(v.signature);
      expect(await nodeEd25519.verify(fromHex(v.public_key), fromHex(v.message), fromHex(v.signature))).toBe(true);
    },
  );

  it("gives the expected answer on every Wycheproof test, and noble's", async () => {
    for (const t of WYCHEPROOF_TESTS) {
      const [node, noble] = [
        await outcome(nodeEd25519, t.pk, t.msg, t.sig),
        await outcome(nobleEd25519, t.pk, t.msg, t.sig),
      ];
      expect(node === true, `tcId ${t.tcId} (${t.comment})`).toBe(t.result === "valid");
      expect(node, `tcId ${t.tcId}`).toBe(noble);
    }
  });

  it("signs what noble signs from the same seed, and each verifies the other's signature", async () => {
    await signsAsNobleDoes(nodeEd25519);
  });

  describe("when the public key is a small-order point or a non-canonical encoding", () => {
    // The small-order points and non-canonical encodings (test/support/ed25519-vectors.ts);
    // (R = identity, S = 0) is the universal forgery OpenSSL accepts under the identity on its own.
    const WEAK_KEYS = [...SMALL_ORDER_KEYS, ...NON_CANONICAL_KEYS];

    it.each(WEAK_KEYS)("verifies false under %s, whatever the signature, as noble does", async (pk) => {
      for (const sig of ["01" + "00".repeat(63), pk + "00".repeat(32)]) {
        for (const msg of ["", "74726573746c65", toHex(utf8("trestle 0"))]) {
          expect(await outcome(nodeEd25519, pk, msg, sig)).toBe(false);
          expect(await outcome(nobleEd25519, pk, msg, sig)).toBe(false);
        }
      }
    });
  });

  describe("when the input has the wrong type or length", () => {
    it("throws RangeError for a 31-byte key, a 63-byte signature or a 33-byte seed, as the others do", async () => {
      await expect(nodeEd25519.verify(new Uint8Array(31), new Uint8Array(0), new Uint8Array(64))).rejects.toThrow(
        RangeError,
      );
      await expect(nodeEd25519.verify(new Uint8Array(32), new Uint8Array(0), new Uint8Array(63))).rejects.toThrow(
        RangeError,
      );
      await expect(nodeEd25519.signer(new Uint8Array(33))).rejects.toThrow(RangeError);
    });
  });
});
