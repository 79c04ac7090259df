/** Head tracking and chain following: pinned key, newest head kept, forks and truncations turned into evidence. */
import { describe, expect, it } from "vitest";
import { ChainFollower, evidenceOf, HeadTracker, MemoryHeadStore, type HeadStore } from "../../../src/client/index.js";
import {
  isForkProof,
  signHead,
  TrestleError,
  verifyHeadSignature,
  type Entry,
  type SignedHead,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, keyOf, MemoryLedger } from "../../support/table-fixture.js";

async function ledger(relayLabel = "relay", topic = "Should #459 ship before #461?"): Promise<MemoryLedger> {
  const k = await cast();
  const l = new MemoryLedger(await keyOf(relayLabel));
  await l.create(k.ops, "ops", debateConfig(k, { topic }));
  await l.join(k.tao, "tao", "bot-tao", k.botTao);
  await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny);
  await l.join(k.ops, "ops", "judge", k.judge);
  return l;
}

async function headAt(l: MemoryLedger, seq: number): Promise<SignedHead> {
  const entry = l.entries[seq - 1]!;
  return signHead(l.relay, { table: entry.table, seq, link: entry.link });
}

async function caught(fn: () => unknown): Promise<TrestleError> {
  const error = await Promise.resolve()
    .then(fn)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(TrestleError);
  return error as TrestleError;
}

describe("HeadTracker", () => {
  it("adopts the first head when nothing is held, and a newer one only once entries chain to it from the held head", async () => {
    const l = await ledger();
    const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
    await tracker.observe(await headAt(l, 2));
    await tracker.observe(await headAt(l, 4));
    expect(tracker.held?.seq).toBe(2);
    expect(tracker.ahead?.seq).toBe(4);
    expect(tracker.knownHead()).toEqual({ seq: 2, link: l.entries[1]!.link });
    new ChainFollower(tracker, { seq: 2, link: l.entries[1]!.link }).accept(l.entries.slice(2, 4));
    expect(tracker.held?.seq).toBe(4);
    expect(tracker.ahead).toBeNull();
    await tracker.observe(await headAt(l, 3));
    expect(tracker.knownHead()).toEqual({ seq: 4, link: l.entries[3]!.link });
  });

  it("adopts a newer head at once when the entries up to it were verified first", async () => {
    const l = await ledger();
    const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
    await tracker.observe(await headAt(l, 1));
    new ChainFollower(tracker).accept(l.entries.slice(0, 4));
    await tracker.observe(await headAt(l, 4));
    expect(tracker.held?.seq).toBe(4);
  });

  it("stores only adopted heads and loads them back verified", async () => {
    const l = await ledger();
    const store = new MemoryHeadStore();
    const first = new HeadTracker(l.relay.publicKeyText, "t-459", store);
    await first.observe(await headAt(l, 3));
    await first.observe(await headAt(l, 5));
    expect(store.load(l.relay.publicKeyText, "t-459")?.seq).toBe(3);
    const second = new HeadTracker(l.relay.publicKeyText, "t-459", store);
    await second.load();
    expect(second.held).toEqual(await headAt(l, 3));
    expect(second.trusts({ seq: 3, link: l.entries[2]!.link })).toBe(true);
  });

  it("refuses to follow a chain from a point it never verified", async () => {
    const l = await ledger();
    const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
    expect(() => new ChainFollower(tracker, { seq: 3, link: l.entries[2]!.link })).toThrow(TrestleError);
    expect(() => new ChainFollower(tracker, { seq: 0, link: l.entries[0]!.link })).toThrow(TrestleError);
  });

  describe("when the relay forks past the held head", () => {
    it("keeps the held head, and turns entries that do not chain from it into kept evidence naming both heads", async () => {
      const honest = await ledger();
      const other = await ledger("relay", "another topic");
      const store = new MemoryHeadStore();
      const tracker = new HeadTracker(honest.relay.publicKeyText, "t-459", store);
      await tracker.observe(await headAt(honest, 4));
      const relays = await headAt(other, 5);
      await tracker.observe(relays);
      expect(tracker.held?.seq).toBe(4);
      // The relay's welcome came first; its entries arrive after and start from the genesis.
      const error = await caught(() => new ChainFollower(tracker).accept(other.entries.slice(0, 5)));
      const evidence = evidenceOf(error)!;
      expect(evidence).toMatchObject({ kind: "fork", seq: 4 });
      expect(evidence.heads.map((h) => h.seq)).toEqual([4, 5]);
      expect(tracker.held).toEqual(await headAt(honest, 4));
      expect(store.load(honest.relay.publicKeyText, "t-459")).toEqual(await headAt(honest, 4));
      expect(store.evidence(honest.relay.publicKeyText, "t-459")).toEqual([evidence]);
    });

    it("keeps reporting the evidence in every later run, whatever the relay serves, until the store forgets it", async () => {
      const honest = await ledger();
      const other = await ledger("relay", "another topic");
      const store = new MemoryHeadStore();
      const first = new HeadTracker(honest.relay.publicKeyText, "t-459", store);
      await first.observe(await headAt(honest, 4));
      await caught(async () => first.observe(await headAt(other, 4)));
      const later = new HeadTracker(honest.relay.publicKeyText, "t-459", store);
      await later.load();
      expect(later.evidence).toHaveLength(1);
      expect(() => later.assertClean()).toThrow(expect.objectContaining({ code: "E_FORK" }));
      expect((await caught(async () => later.observe(await headAt(honest, 5)))).code).toBe("E_FORK");
      expect(later.held?.seq).toBe(4);
    });

    it("reports entries chained from the held head that reach a different link as a fork", async () => {
      const honest = await ledger();
      const other = await ledger("relay", "another topic");
      const tracker = new HeadTracker(honest.relay.publicKeyText, "t-459");
      await tracker.observe(await headAt(honest, 4));
      await tracker.observe(await headAt(other, 5));
      const follower = new ChainFollower(tracker, { seq: 4, link: honest.entries[3]!.link });
      const hidden = other.entries.slice(4, 5).map((e) => ({ seq: e.seq, leaf: e.leaf }));
      const error = await caught(() => follower.accept(hidden));
      expect(evidenceOf(error)).toMatchObject({ kind: "fork", seq: 5 });
      expect(tracker.held?.seq).toBe(4);
    });

    it("reports two followers that were sent different chains up to one seq", async () => {
      const honest = await ledger();
      const other = await ledger("relay", "another topic");
      const tracker = new HeadTracker(honest.relay.publicKeyText, "t-459");
      new ChainFollower(tracker).accept(honest.entries.slice(0, 3));
      await tracker.observe(await headAt(honest, 3));
      const error = await caught(() => new ChainFollower(tracker).accept(other.entries.slice(0, 3)));
      expect(error.code).toBe("E_FORK");
    });
  });

  describe("when a head is not the pinned relay's", () => {
    it("refuses a head signed by another relay key with E_RELAY_KEY", async () => {
      const l = await ledger();
      const other = await ledger("another relay");
      const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
      expect((await caught(async () => tracker.observe(await headAt(other, 2)))).code).toBe("E_RELAY_KEY");
      expect(tracker.held).toBeNull();
    });

    it("refuses a head whose signature does not verify with E_BAD_RESPONSE", async () => {
      const l = await ledger();
      const head = await headAt(l, 2);
      const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
      const forged = { ...head, link: l.entries[0]!.link };
      expect((await caught(() => tracker.observe(forged))).code).toBe("E_BAD_RESPONSE");
    });

    it("ignores a stored head that does not verify", async () => {
      const l = await ledger();
      const head = await headAt(l, 2);
      const store: HeadStore = {
        load: () => ({ ...head, seq: 3 }),
        save: () => undefined,
        evidence: () => [],
        keep: () => undefined,
      };
      const tracker = new HeadTracker(l.relay.publicKeyText, "t-459", store);
      await tracker.load();
      expect(tracker.held).toBeNull();
    });
  });

  describe("when the relay contradicts itself", () => {
    it("reports two signed heads with one seq and different links as a transferable fork", async () => {
      const a = await ledger();
      const b = new MemoryLedger(a.relay);
      const k = await cast();
      await b.create(k.ops, "ops", debateConfig(k, { topic: "a different history" }));
      const tracker = new HeadTracker(a.relay.publicKeyText, "t-459");
      await tracker.observe(await headAt(a, 1));
      const error = await caught(async () => tracker.observe(await headAt(b, 1)));
      expect(error.code).toBe("E_FORK");
      const evidence = evidenceOf(error)!;
      expect(evidence.kind).toBe("fork");
      expect(isForkProof(evidence.heads[0]!, evidence.heads[1]!)).toBe(true);
      for (const h of evidence.heads) expect(await verifyHeadSignature(h)).toBe(true);
    });

    it("reports a current head older than one already held as truncation", async () => {
      const l = await ledger();
      const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
      await tracker.observe(await headAt(l, 5));
      const held = tracker.held;
      const error = await caught(async () => tracker.observe(await headAt(l, 3), held));
      expect(evidenceOf(error)).toMatchObject({ kind: "truncation", seq: 3 });
      expect(evidenceOf(error)!.heads.map((h) => h.seq)).toEqual([5, 3]);
    });

    it("accepts an older head that is not claimed to be current", async () => {
      const l = await ledger();
      const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
      await tracker.observe(await headAt(l, 5));
      await tracker.observe(await headAt(l, 3));
      expect(tracker.held?.seq).toBe(5);
    });
  });
});

describe("ChainFollower", () => {
  it("verifies entries from the genesis and records every link", async () => {
    const l = await ledger();
    const tracker = new HeadTracker(l.relay.publicKeyText, "t-459");
    const follower = new ChainFollower(tracker);
    follower.accept(l.entries.slice(0, 2));
    follower.accept([{ seq: 3, leaf: l.entries[2]!.leaf }, ...l.entries.slice(3)]);
    await tracker.observe(await l.head());
    expect(follower.position).toEqual({ seq: l.entries.length, link: l.entries[l.entries.length - 1]!.link });
  });

  describe("when the relay sends a bad chain", () => {
    const mutations: [string, (entries: Entry[]) => Entry[]][] = [
      ["a gap", (e) => [e[0]!, e[2]!]],
      ["an entry of another table", (e) => [e[0]!, { ...e[1]!, table: "t-other" } as Entry]],
      ["altered content under the same leaf", (e) => [e[0]!, { ...e[1]!, ts: e[1]!.ts + 1 }]],
      ["a wrong link", (e) => [e[0]!, { ...e[1]!, link: e[0]!.link }]],
    ];
    it.each(mutations)("refuses %s with E_BAD_RESPONSE", async (_, mutate) => {
      const l = await ledger();
      const follower = new ChainFollower(new HeadTracker(l.relay.publicKeyText, "t-459"));
      expect((await caught(() => follower.accept(mutate(l.entries)))).code).toBe("E_BAD_RESPONSE");
    });

    it("reports a head that disagrees with the verified chain as a fork", async () => {
      const a = await ledger();
      const b = await ledger("relay", "another topic");
      const evil = await signHead(a.relay, { table: "t-459", seq: 2, link: b.entries[1]!.link });
      const tracker = new HeadTracker(a.relay.publicKeyText, "t-459");
      new ChainFollower(tracker).accept(a.entries.slice(0, 2));
      const error = await caught(() => tracker.observe(evil));
      expect(evidenceOf(error)).toMatchObject({ kind: "fork", seq: 2 });
    });

    it("reports entries that leave a chain a signed head committed to as a fork", async () => {
      const a = await ledger();
      const b = await ledger("relay", "another topic");
      const tracker = new HeadTracker(a.relay.publicKeyText, "t-459");
      new ChainFollower(tracker).accept(a.entries.slice(0, 2));
      await tracker.observe(await headAt(a, 2));
      const resumed = new ChainFollower(tracker, { seq: 2, link: a.entries[1]!.link });
      const error = await caught(() => resumed.accept([b.entries[2]!]));
      expect(evidenceOf(error)).toMatchObject({ kind: "fork", seq: 3 });
    });
  });
});
