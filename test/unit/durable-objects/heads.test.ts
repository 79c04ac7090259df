/**
 * Group signing of a table's heads (durable-objects/table/reading/heads.ts): writes that ask for a
 * head before the next turn of the event loop share one signature over the newest entry, a group
 * closes at GROUP_SIZE writes, and every head verifies and is at or after the entry its write asked after.
 */
import { describe, expect, it } from "vitest";
import { GROUP_SIZE, Heads } from "../../../durable-objects/table/reading/heads.js";
import * as noble from "@noble/ed25519";
import { toBase64url, verifyHeadSignature, type HeadRef, type SignedHead, type Signer } from "../../../src/protocol/index.js";

/** Heads over a tip the test moves, with a relay signer that counts its signatures and signs within the turn (as workerd's WebCrypto does). */
async function heads(): Promise<{ heads: Heads; tip: HeadRef; signatures: () => number }> {
  const seed = new Uint8Array(32).fill(7);
  const publicKey = noble.getPublicKey(seed);
  let count = 0;
  const counting: Signer = { publicKey, publicKeyText: toBase64url(publicKey), sign: async (message) => ((count += 1), noble.sign(message, seed)) };
  const tip: HeadRef = { seq: 0, link: "0".repeat(64) };
  return { heads: new Heads("t-heads", async () => counting, () => ({ ...tip })), tip, signatures: () => count };
}

/** Appends an entry: the tip moves to `seq`. */
function append(tip: HeadRef, seq: number): void {
  tip.seq = seq;
  tip.link = seq.toString(16).padStart(64, "0");
}

async function expectValid(head: SignedHead, after: number): Promise<void> {
  expect(head.seq).toBeGreaterThanOrEqual(after);
  expect(await verifyHeadSignature(head)).toBe(true);
}

describe("group signing of heads", () => {
  it("gives writes that ask within one turn one signature over the newest entry", async () => {
    const { heads: h, tip, signatures } = await heads();
    const asked: Promise<SignedHead>[] = [];
    for (let seq = 1; seq <= 3; seq += 1) {
      append(tip, seq);
      asked.push(h.current());
      // The previous write's promise chain runs meanwhile, as one message's work finishes before the next.
      for (let i = 0; i < 20; i += 1) await Promise.resolve();
    }
    const got = await Promise.all(asked);
    expect(signatures()).toBe(1);
    for (const [i, head] of got.entries()) await expectValid(head, i + 1);
    expect(got.map((head) => head.seq)).toEqual([3, 3, 3]);
  });

  it("signs a group as soon as GROUP_SIZE writes joined it, without waiting for the next turn", async () => {
    const { heads: h, tip, signatures } = await heads();
    let turned = false;
    setTimeout(() => (turned = true), 0);
    const asked: Promise<SignedHead>[] = [];
    for (let seq = 1; seq <= GROUP_SIZE; seq += 1) {
      append(tip, seq);
      asked.push(h.current());
    }
    const got = await Promise.all(asked);
    expect(turned).toBe(false);
    expect(signatures()).toBe(1);
    for (const [i, head] of got.entries()) await expectValid(head, i + 1);
    expect(got.every((head) => head.seq === GROUP_SIZE)).toBe(true);
  });

  it("answers a write whose entry is already signed with that head, signing nothing", async () => {
    const { heads: h, tip, signatures } = await heads();
    append(tip, 1);
    const first = await h.current();
    const again = await h.current();
    expect(again).toBe(first);
    expect(signatures()).toBe(1);
  });

  describe("when the tip goes back while a group waits (the table was deleted)", () => {
    it("still signs a head at or after every entry a write in the group asked after", async () => {
      const { heads: h, tip } = await heads();
      append(tip, 5);
      const asked = h.current();
      append(tip, 0);
      const head = await asked;
      expect(head.seq).toBe(5);
      expect(head.link).toBe((5).toString(16).padStart(64, "0"));
    });
  });
});
