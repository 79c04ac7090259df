/**
 * Custody (docs/SPEC.md §8.4): a table moves to another relay only with more than half of its
 * owners' signatures over the exact chain it ends; verification accepts each relay's heads only
 * over the entries it held, and says which entries only the past key attests.
 */
import { describe, expect, it } from "vitest";
import {
  custodyDraft,
  custodyNeeded,
  custodyStatementFor,
  exportText,
  signHead,
  signStatement,
  verifyExport,
  verifyLedger,
  type Entry,
  type TableState,
} from "../../../src/protocol/index.js";
import { keyOf } from "../../support/table-fixture.js";
import { copy, headOver, refusal, rechain } from "./fixtures.js";
import { movedDebate, moveTo, ownerSignatures } from "./custody-fixtures.js";

const moved = await movedDebate();
const { k, a, b, entries, headA, headB, custody } = moved;
const exportAtB = (items: readonly Entry[] = entries, heads = [headB]) =>
  exportText({ table: "t-459", relay: b.publicKeyText }, items, heads);

describe("a table that changed custody", () => {
  it("verifies CLEAN against the new relay's key, naming the entries only the past key attests", async () => {
    const report = await verifyExport(exportAtB(), { relayKey: b.publicKeyText });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.past_keys).toEqual([
      { relay: a.publicKeyText, from: 1, to: custody - 1, head_seq: custody - 1 },
    ]);
    expect(report.coverage.heads).toBe(2);
  });

  it("verifies CLEAN against the past key too, with the past relay's own heads up to the custody entry", async () => {
    const report = await verifyExport(exportAtB(entries, [headA, headB]), { relayKey: a.publicKeyText });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.past_keys?.[0]).toMatchObject({ relay: a.publicKeyText, head_seq: custody - 1 });
  });

  it("folds the new relay into the state from the custody entry on", () => {
    const state = moved.after.state as TableState;
    expect(state.relay).toBe(b.publicKeyText);
    expect(state.custody).toBe(custody);
  });

  it("needs more than half of the owners: two of three here", () => {
    expect(custodyNeeded(moved.before.state!)).toBe(2);
  });

  it("passes on again: A to B to C verifies with two past keys", async () => {
    const c = await keyOf("relay-c");
    const third = await moveTo(moved.after, c, k, ["jenny", "ops"]);
    const report = await verifyLedger(
      { table: "t-459", items: third.entries, heads: [await third.head()] },
      { relayKey: c.publicKeyText },
    );
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.past_keys?.map((p) => [p.relay, p.from, p.to])).toEqual([
      [a.publicKeyText, 1, custody - 1],
      [b.publicKeyText, custody, third.entries.length - 1],
    ]);
  });
});

describe("when a custody change is not authorised", () => {
  it("refuses it at admit with one owner of three (E_FORBIDDEN, the owners needed in details)", async () => {
    const error = await refusal(() => moveTo(moved.before.handOver(a), b, k, ["tao"]));
    expect(error.code).toBe("E_FORBIDDEN");
    expect(error.details).toMatchObject({ needed: 2, signed: ["tao"] });
  });

  it("refuses a signature by a key the table does not list for that owner (E_BAD_SIGNATURE)", async () => {
    const statement = custodyStatementFor(headA, b.publicKeyText);
    const owners = await ownerSignatures(k, headA, b.publicKeyText, ["tao", "jenny"]);
    owners[1] = { ...owners[1]!, key: k.tao.publicKeyText };
    const draft = custodyDraft(statement, headA, owners, await signStatement(b, "custody", statement));
    expect((await refusal(() => moved.before.handOver(a).append(draft))).code).toBe("E_BAD_SIGNATURE");
  });

  it("refutes a ledger whose relay recorded it anyway: the replay refuses the custody entry", async () => {
    const statement = custodyStatementFor(headA, b.publicKeyText);
    const forged = custodyDraft(
      statement,
      headA,
      await ownerSignatures(k, headA, b.publicKeyText, ["tao"]),
      await signStatement(b, "custody", statement),
    );
    const items = rechain([
      ...entries.slice(0, custody - 1),
      { ...forged, seq: custody, ts: entries[custody - 1]!.ts } as Entry,
    ]);
    const report = await verifyLedger(
      { table: "t-459", items, heads: [await headOver(b, items)] },
      { relayKey: b.publicKeyText },
    );
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toMatchObject({ seq: custody, reason: expect.stringContaining("E_FORBIDDEN") });
  });

  it("refuses a relay taking custody on its own, with no owner's signature (E_FORBIDDEN)", async () => {
    const statement = custodyStatementFor(headA, b.publicKeyText);
    const draft = custodyDraft(statement, headA, [], await signStatement(b, "custody", statement));
    expect((await refusal(() => moved.before.handOver(a).append(draft))).code).toBe("E_FORBIDDEN");
  });
});

describe("when heads disagree with the custody spans", () => {
  it("refutes a head by the past key after custody passed: a second chain", async () => {
    const late = await signHead(a, { table: "t-459", seq: headB.seq, link: headB.link });
    const report = await verifyExport(exportAtB(entries, [headB, late]), { relayKey: b.publicKeyText });
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted).toEqual({
      seq: headB.seq,
      reason: expect.stringMatching(
        /^a second chain: relay .* handed the table over at entry \d+ but signed a head at \d+$/,
      ),
    });
  });

  it("refutes a head by the new key before it took custody", async () => {
    const early = await headOver(b, entries, custody - 1);
    const report = await verifyExport(exportAtB(entries, [early, headB]), { relayKey: b.publicKeyText });
    expect(report.refuted?.reason).toMatch(/before it took custody at entry \d+/);
  });

  it("refutes a custody entry whose past head is not over the entry before it", async () => {
    const items = copy(entries);
    const moved2 = items[custody - 1] as Extract<Entry, { subkind: "custody" }>;
    const older = await headOver(a, entries, custody - 2);
    moved2.data.head = older;
    const rechained = rechain(items);
    const report = await verifyLedger(
      { table: "t-459", items: rechained, heads: [await headOver(b, rechained)] },
      { relayKey: b.publicKeyText },
    );
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted?.seq).toBe(custody);
  });

  it("refutes a pinned key that never held the table", async () => {
    const stranger = await keyOf("relay-stranger");
    const report = await verifyExport(exportAtB(), { relayKey: stranger.publicKeyText });
    expect(report.refuted).toEqual({ seq: 1, reason: "the pinned relay key never held this table" });
  });

  it("refutes an export whose header names the past relay", async () => {
    const text = exportText({ table: "t-459", relay: a.publicKeyText }, entries, [headB]);
    expect((await verifyExport(text, { relayKey: b.publicKeyText })).refuted?.reason).toBe(
      "the export names a relay key the table does not record",
    );
  });
});
