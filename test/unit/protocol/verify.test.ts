/**
 * Offline verification of an exported ledger (verify.ts): a real debate verifies CLEAN with the
 * pinned relay key, and each way a relay can lie is REFUTED at the right seq with the right reason.
 */
import { describe, expect, it } from "vitest";
import { canonicalize, parseExport, signHead, verifyExport, VerifyReportSchema } from "../../../src/protocol/index.js";
import { keyOf, MemoryLedger, debateConfig, nonceOf } from "../../support/table-fixture.js";
import {
  copy,
  debateToDecision,
  exportLines as lines,
  exportOf,
  handSigned,
  headOver,
  kindOf,
  pinnedDebate,
  rechain,
  seatedDebate,
} from "./fixtures.js";

const { k, entries, head, verify, refutation } = await pinnedDebate();

describe("verifyExport on a clean ledger", () => {
  it("has the shape the fixture promises", () => {
    expect(entries.map(kindOf)).toEqual([
      "table_opened",
      "seat_joined",
      "seat_joined",
      "seat_joined",
      "floor",
      "say",
      "floor",
      "say",
      "floor",
      "say",
      "floor",
      "say",
      "floor",
      "decision",
      "table_closed",
    ]);
    expect(head.seq).toBe(15);
  });

  it("is CLEAN with the pinned relay key, full coverage and a full policy replay", async () => {
    const report = await verify(exportOf(k.relay, entries, [head]));
    expect(VerifyReportSchema.parse(report)).toEqual({
      verdict: "CLEAN",
      table: "t-459",
      last_seq: 15,
      unchecked: [],
      coverage: {
        entries: 15,
        by_content: 15,
        by_hash: 0,
        signatures: 9,
        heads: 1,
        truncated_checked: 0,
        truncated_unchecked: 0,
        head_seq: 15,
        relay_key_pinned: true,
        policy_replay: "full",
      },
    });
  });

  it("writes one canonical JSON object per line: header, entries, heads", () => {
    const ls = lines(exportOf(k.relay, entries, [head]));
    expect(ls).toHaveLength(17);
    for (const line of ls) expect(canonicalize(JSON.parse(line))).toBe(line);
    expect(JSON.parse(ls[0]!)).toEqual({
      type: "trestle-export",
      version: 1,
      table: "t-459",
      relay: k.relay.publicKeyText,
    });
    expect(JSON.parse(ls[16]!)).toEqual({ type: "head", head });
  });

  it("parses back to exactly the entries and heads written", () => {
    const parsed = parseExport(exportOf(k.relay, entries, [head]));
    expect(parsed.ok && parsed.view.items).toEqual(entries);
    expect(parsed.ok && parsed.view.heads).toEqual([head]);
  });

  it("is CLEAN with several heads along the way", async () => {
    const heads = [await headOver(k.relay, entries, 5), await headOver(k.relay, entries, 10), head];
    const report = await verify(exportOf(k.relay, entries, heads));
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { heads: 3, head_seq: 15 } });
  });

  it("is CLEAN for a table still open, verified up to its latest head", async () => {
    const open = entries.slice(0, 11);
    const report = await verify(exportOf(k.relay, open, [await headOver(k.relay, open)]));
    expect(report).toMatchObject({ verdict: "CLEAN", last_seq: 11 });
  });
});

describe("verifyExport refutes", () => {
  describe("when an entry's content was altered", () => {
    it("refutes a tampered body at its seq (leaf no longer matches)", async () => {
      const tampered = copy(entries);
      Object.assign(tampered[5]!, { body: "con, round 1" });
      expect(await refutation(exportOf(k.relay, tampered, [head]))).toMatchObject({
        seq: 6,
        reason: expect.stringMatching(/altered/),
      });
    });

    it("refutes a tampered body with leaf and link recomputed at its seq (the seat's signature)", async () => {
      const tampered = copy(entries);
      Object.assign(tampered[5]!, { body: "con, round 1" });
      const text = exportOf(k.relay, rechain(tampered), [head]);
      expect(await refutation(text)).toMatchObject({
        seq: 6,
        reason: expect.stringMatching(/entry signature does not verify/),
      });
    });

    it("refutes an unsigned field changed with leaf and link recomputed at the head (fork)", async () => {
      const tampered = copy(entries);
      Object.assign(tampered[5]!, { ts: tampered[5]!.ts + 1 });
      const text = exportOf(k.relay, rechain(tampered), [head]);
      expect(await refutation(text)).toMatchObject({ seq: 15, reason: expect.stringMatching(/^fork/) });
    });

    it("refutes a relay-made floor entry rewritten, re-chained and re-signed (policy replay)", async () => {
      const tampered = copy(entries);
      const floor = tampered[6]!;
      if (floor.kind !== "system" || floor.subkind !== "floor") throw new Error("entry 7 is a floor move");
      floor.data.holder = "judge";
      const chain = rechain(tampered);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({
        seq: 7,
        reason: expect.stringMatching(/policy replay expected system floor/),
      });
    });

    it("names the heads' refutation, not the replay's, when both refute (the replay runs beside the earlier checks, judged after them)", async () => {
      const tampered = copy(entries);
      const floor = tampered[6]!;
      if (floor.kind !== "system" || floor.subkind !== "floor") throw new Error("entry 7 is a floor move");
      floor.data.holder = "judge";
      expect(await refutation(exportOf(k.relay, rechain(tampered), [head]))).toMatchObject({
        seq: 15,
        reason: expect.stringMatching(/^fork/),
      });
    });

    it("refutes a bad seat signature at its seq", async () => {
      const tampered = copy(entries);
      const other = await handSigned(
        k.botTao,
        { seat: "bot-tao", kind: "say", body: "something else" },
        { seq: 6, ts: 0 },
      );
      if (other.kind === "system") throw new Error("authored");
      Object.assign(tampered[5]!, { author: other.author });
      const text = exportOf(k.relay, rechain(tampered), [head]);
      expect(await refutation(text)).toMatchObject({ seq: 6, reason: "the entry signature does not verify" });
    });

    it("refutes a say signed by a key other than the seat's at its seq", async () => {
      const say = tamperedSay(
        await handSigned(
          k.botJenny,
          { seat: "bot-tao", kind: "say", body: "pro, round 1" },
          { seq: 6, ts: entries[5]!.ts },
        ),
      );
      const chain = rechain(say);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({
        seq: 6,
        reason: 'signed by a key that does not hold seat "bot-tao"',
      });
    });

    it("refutes a join whose signature was swapped for another owner's", async () => {
      const tampered = copy(entries);
      const join = tampered[1]!;
      if (join.kind !== "system" || join.subkind !== "seat_joined") throw new Error("entry 2 is a join");
      join.author = { ...join.author, key: k.jenny.publicKeyText };
      const text = exportOf(k.relay, rechain(tampered), [head]);
      expect(await refutation(text)).toMatchObject({ seq: 2, reason: "the join signature does not verify" });
    });
  });

  /** Entries 1-5 of the fixture, then `say` as entry 6. */
  function tamperedSay(say: Parameters<typeof rechain>[0][number]): Parameters<typeof rechain>[0] {
    return [...entries.slice(0, 5), say];
  }

  describe("when entries are out of place", () => {
    it("refutes reordered entries at the first seq out of place", async () => {
      const swapped = [...entries];
      [swapped[5], swapped[6]] = [swapped[6]!, swapped[5]!];
      expect(await refutation(exportOf(k.relay, swapped, [head]))).toMatchObject({
        seq: 6,
        reason: "expected entry 6, found 7 (reordered, missing or duplicated)",
      });
    });

    it("refutes reordered entries renumbered and re-chained at the head", async () => {
      const swapped = copy(entries);
      [swapped[5], swapped[6]] = [swapped[6]!, swapped[5]!];
      swapped[5]!.seq = 6;
      swapped[6]!.seq = 7;
      expect(await refutation(exportOf(k.relay, rechain(swapped), [head]))).toMatchObject({
        seq: 15,
        reason: expect.stringMatching(/^fork/),
      });
    });

    it("refutes a dropped middle entry at its seq", async () => {
      const dropped = entries.filter((e) => e.seq !== 8);
      expect(await refutation(exportOf(k.relay, dropped, [head]))).toMatchObject({
        seq: 8,
        reason: "expected entry 8, found 9 (reordered, missing or duplicated)",
      });
    });

    it("refutes a duplicated entry at its second copy", async () => {
      const doubled = [...entries.slice(0, 7), entries[6]!, ...entries.slice(7)];
      expect(await refutation(exportOf(k.relay, doubled, [head]))).toMatchObject({ seq: 8 });
    });

    it("refutes a truncated ledger whose head was kept (truncated)", async () => {
      const short = entries.slice(0, 13);
      expect(await refutation(exportOf(k.relay, short, [head]))).toMatchObject({
        seq: 15,
        reason: "truncated: the relay signed a head at 15 but the ledger ends at 13",
      });
    });

    it("refutes a ledger that lacks an entry the policy causes (decision without table_closed)", async () => {
      const short = entries.slice(0, 14);
      const text = exportOf(k.relay, short, [await headOver(k.relay, short)]);
      expect(await refutation(text)).toMatchObject({
        seq: 15,
        reason: expect.stringMatching(/lacks the system table_closed/),
      });
    });
  });

  describe("when heads disagree or belong elsewhere", () => {
    it("refutes forked heads: two validly signed heads at one seq with different links", async () => {
      const fork = await signHead(k.relay, { table: "t-459", seq: 15, link: "ab".repeat(32) });
      expect(await refutation(exportOf(k.relay, entries, [head, fork]))).toMatchObject({
        seq: 15,
        reason: "fork: a signed head disagrees with this ledger's chain",
      });
    });

    it("refutes a head at an earlier seq that disagrees with the chain", async () => {
      const fork = await signHead(k.relay, { table: "t-459", seq: 9, link: entries[9]!.link });
      expect(await refutation(exportOf(k.relay, entries, [fork, head]))).toMatchObject({
        seq: 9,
        reason: expect.stringMatching(/^fork/),
      });
    });

    it("refutes a head for another table", async () => {
      const other = await headOver(k.relay, entries, 15, "t-461");
      expect(await refutation(exportOf(k.relay, entries, [other]))).toMatchObject({
        seq: 15,
        reason: 'a head is for table "t-461"',
      });
    });

    it("refutes a head signed by a key other than the pinned one", async () => {
      const evil = await headOver(await keyOf("evil relay"), entries);
      expect(await refutation(exportOf(k.relay, entries, [evil]))).toMatchObject({
        seq: 15,
        reason: "a head is signed by a key other than the pinned relay key",
      });
    });

    it("refutes a head signed by another key even with no key pinned (it is not the table's relay)", async () => {
      const evil = await headOver(await keyOf("evil relay"), entries);
      const report = await verifyExport(exportOf(k.relay, entries, [evil]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 15, reason: "a head is signed by a key the export does not name" },
      });
    });

    it("refutes a head whose signature does not verify", async () => {
      const bad = { ...head, link: entries[13]!.link };
      expect(await refutation(exportOf(k.relay, entries, [bad]))).toMatchObject({
        seq: 15,
        reason: "a head's signature does not verify",
      });
    });

    it("refutes a whole ledger under another relay key than the pinned one at seq 1", async () => {
      const evilRelay = await keyOf("evil relay");
      const evil = await debateToDecision({ ...k, relay: evilRelay });
      const text = exportOf(evilRelay, evil.entries, [evil.head]);
      expect(await refutation(text)).toMatchObject({
        seq: 1,
        reason: "the table records a relay key other than the pinned one",
      });
      expect(await verifyExport(text, { relayKey: evilRelay.publicKeyText })).toMatchObject({ verdict: "CLEAN" });
    });

    it("refutes an export header naming another relay key than the table records", async () => {
      const text = exportOf(await keyOf("evil relay"), entries, [head]);
      expect(await refutation(text)).toMatchObject({
        seq: 1,
        reason: "the export names a relay key the table does not record",
      });
    });
  });

  describe("when an entry belongs to another table", () => {
    it("refutes an entry for another table at its seq", async () => {
      const tampered = copy(entries);
      tampered[5]!.table = "t-461";
      expect(await refutation(exportOf(k.relay, rechain(tampered), [head]))).toMatchObject({
        seq: 6,
        reason: 'entry belongs to table "t-461", not "t-459"',
      });
    });

    it("refutes a whole ledger exported under another table id at seq 1", async () => {
      expect(await refutation(exportOf(k.relay, entries, [head], "t-461"))).toMatchObject({
        seq: 1,
        reason: expect.stringMatching(/belongs to table "t-459"/),
      });
    });
  });

  describe("when a nonce is used twice", () => {
    it("refutes a say whose nonce repeats the seat's earlier one at its seq", async () => {
      const l = await seatedDebate(k);
      await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: "pro", nonce: nonceOf("once") });
      await l.submit(k.botJenny, { seat: "bot-jenny", kind: "say", body: "con" });
      const replayed = await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: "pro", nonce: nonceOf("once") });
      const text = exportOf(k.relay, l.entries, [await l.head()]);
      expect(await refutation(text)).toMatchObject({
        seq: replayed[0]!.seq,
        reason: "a nonce is used twice (replayed statement)",
      });
    });

    it("refutes a join whose nonce repeats an earlier join's", async () => {
      const l = new MemoryLedger(k.relay);
      await l.create(k.ops, "ops", debateConfig(k));
      await l.join(k.tao, "tao", "bot-tao", k.botTao, { nonce: nonceOf("join once") });
      await l.join(k.jenny, "jenny", "bot-jenny", k.botJenny, { nonce: nonceOf("join once") });
      const text = exportOf(k.relay, l.entries, [await l.head()]);
      expect(await refutation(text)).toMatchObject({ seq: 3, reason: "a nonce is used twice (replayed statement)" });
    });
  });

  describe("when the relay accepted what the policy forbids", () => {
    it("refutes a say from a seat without the floor, validly chained and signed", async () => {
      const forged = tamperedSay(
        await handSigned(
          k.botJenny,
          { seat: "bot-jenny", kind: "say", body: "out of turn" },
          { seq: 6, ts: entries[5]!.ts },
        ),
      );
      const chain = rechain(forged);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      const report = await verify(text);
      expect(report.coverage.signatures).toBe(5);
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 6, reason: expect.stringMatching(/^policy would refuse this entry: E_NOT_FLOOR/) },
      });
    });

    it("refutes a decision by a seat that may not decide, validly chained and signed", async () => {
      const forged = tamperedSay(
        await handSigned(
          k.botTao,
          { seat: "bot-tao", kind: "decision", body: "pro wins" },
          { seq: 6, ts: entries[5]!.ts },
        ),
      );
      const chain = rechain([
        ...forged,
        {
          table: "t-459",
          seat: null,
          kind: "system",
          subkind: "table_closed",
          data: { reason: "decision" },
          author: null,
          seq: 7,
          ts: entries[5]!.ts,
        },
      ]);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({ seq: 6, reason: expect.stringMatching(/E_FORBIDDEN/) });
    });

    it("refutes a say appended after the table closed, validly chained and signed", async () => {
      const late = await handSigned(
        k.botTao,
        { seat: "bot-tao", kind: "say", body: "one more thing" },
        { seq: 16, ts: entries[14]!.ts + 1 },
      );
      const chain = rechain([...entries, late]);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({
        seq: 16,
        reason: expect.stringMatching(/^policy would refuse this entry: E_CLOSED/),
      });
    });

    it("refutes a join the policy would refuse (an expired join), validly chained and signed", async () => {
      const l = new MemoryLedger(k.relay);
      await l.create(k.ops, "ops", debateConfig(k));
      await l.join(k.tao, "tao", "bot-tao", k.botTao);
      const tampered = copy(l.entries);
      Object.assign(tampered[1]!, { ts: tampered[1]!.ts + 3_600_000 });
      const chain = rechain(tampered);
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({ seq: 2, reason: expect.stringMatching(/E_EXPIRED/) });
    });

    it("refutes a ledger whose first entry is not table_opened", async () => {
      const chain = rechain(entries.slice(1).map((e, i) => ({ ...e, seq: i + 1 })));
      const text = exportOf(k.relay, chain, [await headOver(k.relay, chain)]);
      expect(await refutation(text)).toMatchObject({ seq: 1, reason: expect.stringMatching(/E_TABLE_NOT_FOUND/) });
    });
  });
});
