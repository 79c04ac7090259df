/**
 * Replicas (docs/SPEC.md §8.4): an extension of a verified ledger is verified from the replica's
 * folded state and link, page by page, as strictly as verifyLedger checks a whole ledger; and a
 * page that contradicts the held chain is evidence against its relay only when that relay's own
 * signature proves it.
 */
import { describe, expect, it } from "vitest";
import {
  EMPTY_TIP,
  extendLedger,
  forkEvidence,
  fold,
  GENESIS_LINK,
  heldDifference,
  leafOf,
  Refuted,
  signHead,
  verifyExtension,
  type Entry,
  type HeldChain,
  type SignedHead,
  type Signer,
} from "../../../src/protocol/index.js";
import { keyOf } from "../../support/table-fixture.js";
import { copy, debateToDecision, headOver, rechain } from "./fixtures.js";
import { movedDebate } from "./custody-fixtures.js";

const { k, entries } = await debateToDecision();
const none = new Map<number, string>();

/** The tip of a replica holding `held` (verified already). */
function tipOf(held: readonly Entry[]) {
  const nonces = new Set(held.flatMap((e) => ("nonce" in e ? [`${e.seat}:${e.nonce}`] : [])));
  return {
    state: fold(held),
    link: held[held.length - 1]!.link,
    nonceUsed: (key: string) => nonces.has(key.replace(/^entry:/, "")),
  };
}

async function refutedBy(run: () => Promise<unknown>): Promise<Refuted> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Refuted) return error;
    throw error;
  }
  throw new Error("expected a refutation");
}

describe("verifyExtension", () => {
  it("accepts a ledger page by page, each page ending at a head, reaching the same state as folding it whole", async () => {
    const first = await verifyExtension(
      EMPTY_TIP,
      { items: entries.slice(0, 7), originals: none, head: await headOver(k.relay, entries, 7) },
      20_000,
    );
    const second = await verifyExtension(
      { state: first.state, link: first.links[6]!, nonceUsed: () => false },
      { items: entries.slice(7), originals: none, head: await headOver(k.relay, entries) },
      20_000,
    );
    expect(second.state).toEqual(fold(entries));
    expect(second.links[second.links.length - 1]).toBe(entries[entries.length - 1]!.link);
  });

  it("follows a custody change inside a page: the head after it is the new relay's", async () => {
    const moved = await movedDebate();
    const upTo = moved.custody - 1;
    const tip = tipOf(moved.entries.slice(0, upTo));
    const verified = await verifyExtension(
      tip,
      { items: moved.entries.slice(upTo), originals: none, head: moved.headB },
      20_000,
    );
    expect(verified.state.relay).toBe(moved.b.publicKeyText);
  });

  describe("when the page does not verify", () => {
    it("refutes an altered entry at its seq", async () => {
      const items = copy(entries.slice(0, 6));
      (items[4] as Extract<Entry, { kind: "system" }>).ts += 1;
      const error = await refutedBy(async () =>
        verifyExtension(EMPTY_TIP, { items, originals: none, head: await headOver(k.relay, entries, 6) }, 20_000),
      );
      expect(error.seq).toBe(5);
    });

    it("refutes a page that does not continue the held chain", async () => {
      const tip = tipOf(entries.slice(0, 7));
      const error = await refutedBy(async () =>
        verifyExtension(
          { ...tip, link: GENESIS_LINK },
          { items: entries.slice(7), originals: none, head: await headOver(k.relay, entries) },
          20_000,
        ),
      );
      expect(error.seq).toBe(8);
    });

    it("refutes an entry the policy would refuse, even rechained and signed over", async () => {
      const items = copy(entries);
      const say = items.findIndex((e) => e.kind === "say" && e.seat === "bot-jenny");
      items.splice(say, 1);
      const forged = rechain(items.map((e, i) => ({ ...e, seq: i + 1 })) as Entry[]);
      const error = await refutedBy(async () =>
        verifyExtension(EMPTY_TIP, { items: forged, originals: none, head: await headOver(k.relay, forged) }, 20_000),
      );
      expect(error.reason).toMatch(/policy/);
    });

    it("refutes a head signed by a relay that does not hold the table there", async () => {
      const other = await keyOf("relay-other");
      const error = await refutedBy(async () =>
        verifyExtension(EMPTY_TIP, { items: entries, originals: none, head: await headOver(other, entries) }, 20_000),
      );
      expect(error.reason).toMatch(/not signed by relay/);
    });

    it("refutes a page whose head is not over its last entry", async () => {
      const error = await refutedBy(async () =>
        verifyExtension(
          EMPTY_TIP,
          { items: entries, originals: none, head: await headOver(k.relay, entries, 6) },
          20_000,
        ),
      );
      expect(error.reason).toMatch(/ends at a head over its last entry/);
    });

    it("refutes a nonce the replica used before", async () => {
      const tip = tipOf(entries.slice(0, 7));
      const error = await refutedBy(async () =>
        verifyExtension(
          { ...tip, nonceUsed: () => true },
          { items: entries.slice(7), originals: none, head: await headOver(k.relay, entries) },
          20_000,
        ),
      );
      expect(error.reason).toMatch(/nonce/);
    });
  });
});

describe("extendLedger (a live reader's extension, whose heads its socket judges)", () => {
  const o = { originals: none, requireOriginals: false, maxEntries: 20_000 };

  it("checks entries from the tip without a head to end at, reaching the state a fold of the whole ledger reaches", async () => {
    const first = await extendLedger(EMPTY_TIP, entries.slice(0, 7), o);
    const second = await extendLedger(
      { state: first.state, link: first.links[6]!, nonceUsed: () => false },
      entries.slice(7),
      o,
    );
    expect(second.state).toEqual(fold(entries));
    expect(second.coverage).toMatchObject({
      entries: entries.length - 7,
      policy_replay: "full",
      truncated_unchecked: 0,
    });
  });

  describe("when the entries do not verify", () => {
    it("refutes an altered entry at its seq", async () => {
      const items = copy(entries.slice(0, 6));
      (items[4] as Extract<Entry, { kind: "system" }>).ts += 1;
      expect((await refutedBy(() => extendLedger(EMPTY_TIP, items, o))).seq).toBe(5);
    });

    it("refutes an entry the policy would refuse, even rechained", async () => {
      const items = copy(entries);
      items.splice(
        items.findIndex((e) => e.kind === "say" && e.seat === "bot-jenny"),
        1,
      );
      const forged = rechain(items.map((e, i) => ({ ...e, seq: i + 1 })) as Entry[]);
      expect((await refutedBy(() => extendLedger(EMPTY_TIP, forged, o))).reason).toMatch(/policy/);
    });

    it("refutes an empty extension", async () => {
      expect((await refutedBy(() => extendLedger(EMPTY_TIP, [], o))).seq).toBe(1);
    });
  });
});

describe("heldDifference", () => {
  const held = entries.slice(0, 6);
  const originals = { held: new Map([[4, "the held original"]]), sent: none };
  /** `held` from seq 3 on, with entry `seq` changed by `change`. */
  const sentWith = (seq: number, change: (e: Entry) => void) => {
    const sent = copy(held.slice(2));
    change(sent[seq - 3]!);
    return sent;
  };

  it("finds held entries sent again the same", () => {
    expect(heldDifference(held.slice(2), copy(held.slice(2)), originals)).toBeNull();
    expect(
      heldDifference(held.slice(2), copy(held.slice(2)), { ...originals, sent: new Map([[4, "the held original"]]) }),
    ).toBeNull();
  });

  describe("when a held entry comes back otherwise", () => {
    it("recomputes its leaf from its content: another content under the held leaf differs", () => {
      expect(
        heldDifference(
          held.slice(2),
          sentWith(5, (e) => (e.ts += 1)),
          originals,
        ),
      ).toMatchObject({ seq: 5, reason: expect.stringMatching(/changes held entry 5/) });
    });

    it("finds its leaf recomputed but its link kept, or its link field changed alone", () => {
      const releafed = sentWith(4, (e) => {
        e.ts += 1;
        e.leaf = leafOf(e);
      });
      expect(heldDifference(held.slice(2), releafed, originals)).toMatchObject({ seq: 4 });
      expect(
        heldDifference(
          held.slice(2),
          sentWith(3, (e) => (e.link = GENESIS_LINK)),
          originals,
        ),
      ).toMatchObject({ seq: 3, reason: expect.stringMatching(/another leaf or link/) });
    });

    it("finds another original for a held entry, and entries out of order", () => {
      expect(
        heldDifference(held.slice(2), copy(held.slice(2)), { ...originals, sent: new Map([[4, "another original"]]) }),
      ).toMatchObject({ seq: 4 });
      expect(heldDifference(held.slice(2), copy(held.slice(2)).reverse(), originals)).toMatchObject({ seq: 6 });
    });
  });
});

describe("forkEvidence", () => {
  const held = (upTo: number, relay: Signer = k.relay): Promise<HeldChain> =>
    headOver(relay, entries, upTo).then((head) => ({
      head,
      leafAt: (seq) => (seq <= upTo ? entries[seq - 1]?.leaf : undefined),
      linkAt: (seq) => (seq === 0 ? GENESIS_LINK : seq <= upTo ? entries[seq - 1]?.link : undefined),
    }));

  /** The debate's ledger with entry `at` changed (its ts), rechained: another chain from there, as a relay that forked would sign. */
  const forked = (at: number): Entry[] => {
    const items = copy(entries);
    items[at - 1] = { ...items[at - 1]!, ts: items[at - 1]!.ts + 7 } as Entry;
    return rechain(items);
  };

  it("proves a fork when the same relay signed a head on a chain that leaves the held one, naming where and keeping the other branch's leaves", async () => {
    const chain = await held(10);
    const other = forked(9);
    const found = await forkEvidence(chain, { items: other.slice(8, 12), head: await headOver(k.relay, other, 12) }, 5);
    expect(found?.evidence).toMatchObject({ kind: "fork", seq: 9, heads: [chain.head, { seq: 12 }] });
    expect(found?.branch.map((l) => l.seq)).toEqual([9, 10, 11, 12]);
    expect(found?.recorded_at).toBe(5);
  });

  it("proves a fork from a bare head at a seq the mirror holds, with another link", async () => {
    const chain = await held(10);
    const other = forked(9);
    const found = await forkEvidence(chain, { items: [], head: await headOver(k.relay, other, 10) }, 5);
    expect(found?.evidence.heads.map((h: SignedHead) => h.seq)).toEqual([10, 10]);
  });

  describe("when the page proves nothing against the relay", () => {
    it("finds none for a page that agrees with the held chain", async () => {
      expect(
        await forkEvidence(
          await held(10),
          { items: entries.slice(8, 12), head: await headOver(k.relay, entries, 12) },
          5,
        ),
      ).toBeNull();
    });

    it("finds none when the page's entries do not reach its head (whoever sent it may have altered them)", async () => {
      const other = forked(9);
      const altered = copy(other.slice(8, 12));
      (altered[1] as Extract<Entry, { kind: "system" }>).ts += 1;
      expect(
        await forkEvidence(
          await held(10),
          { items: rechain([...other.slice(0, 8), ...altered]).slice(8), head: await headOver(k.relay, other, 12) },
          5,
        ),
      ).toBeNull();
    });

    it("finds none when the head is another relay's", async () => {
      const other = forked(9);
      const stranger = await keyOf("relay-stranger");
      expect(
        await forkEvidence(await held(10), { items: other.slice(8, 12), head: await headOver(stranger, other, 12) }, 5),
      ).toBeNull();
    });

    it("finds none when the head's signature does not verify", async () => {
      const other = forked(9);
      const head = await headOver(k.relay, other, 12);
      const bad = await signHead(k.relay, { table: "t-459", seq: 12, link: entries[11]!.link });
      expect(
        await forkEvidence(await held(10), { items: other.slice(8, 12), head: { ...head, sig: bad.sig } }, 5),
      ).toBeNull();
    });
  });
});
