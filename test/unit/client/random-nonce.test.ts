/** Nonces the client draws (src/client/random.ts): question and invite ids are nonces a user types back, so none starts with "-". */
import { afterEach, describe, expect, it, vi } from "vitest";
import { randomNonce } from "../../../src/client/random.js";
import { NonceSchema } from "../../../src/protocol/index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a fresh nonce", () => {
  it("is drawn again when its first character would be a dash", () => {
    // 0xf8-0xfb lead with the six bits 111110: base64url's "-".
    const draws = [0xf8, 0xfb, 0x41];
    const spy = vi
      .spyOn(crypto, "getRandomValues")
      .mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
        (array as unknown as Uint8Array).fill(draws.shift()!);
        return array;
      });
    const nonce = randomNonce();
    expect(spy).toHaveBeenCalledTimes(3);
    expect(nonce).toMatch(/^[A-Za-z0-9_]/);
    expect(NonceSchema.safeParse(nonce).success).toBe(true);
  });

  it("never starts with a dash in ten thousand draws", () => {
    const nonces = Array.from({ length: 10_000 }, randomNonce);
    expect(nonces.filter((n) => n.startsWith("-"))).toEqual([]);
    expect(new Set(nonces.map((n) => n[0])).size).toBe(63);
  });
});
