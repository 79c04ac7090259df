/**
 * The ledger limit is exact (docs/SPEC.md §5.4, §10, decision 0191): no submission, with the system
 * entries it causes, takes a ledger past the relay's published entry limit. An open table closes as
 * `ledger_full` while a turn still fits; a batch that would not fit is refused with E_TOO_LARGE and
 * changes nothing. The limit is a parameter of admit, so these tests use a small one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  cloneState,
  LIMITS,
  stalledDraft,
  verifyExport,
  watchdogDeadline,
  type Effect,
} from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, refusal, TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, gatewayTable, propose } from "./gateway-fixtures.js";
import { snapshot } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** Effects on two owners' resources: the proposal opens two tasks. */
const TWO_OWNERS: Effect[] = [
  CARD_EFFECT,
  { owner: "tao", resource: "calendar", action: "book", args: { day: "friday" } },
];

/** An endless broadcast over a, b, c (the floor has started) whose ledger may hold `room` more entries. */
async function endless(room: number): Promise<TestTable> {
  const config = broadcastConfig(k, {
    topology: { kind: "broadcast", order: ["a", "b", "c"] },
    termination: { any: [{ max_entries: 1000 }] },
  });
  const t = await TestTable.open(config, ["a", "b", "c"], k);
  t.l.maxEntries = t.state.seq + room;
  return t;
}

describe("the ledger limit", () => {
  it("closes a table with ledger_full exactly at the limit, never past it", async () => {
    const t = await endless(7);
    const limit = t.l.maxEntries;
    while (!t.state.closed) {
      await t.write(t.holder!, { kind: "pass" });
      expect(t.l.entries.length).toBeLessThanOrEqual(limit);
    }
    expect(t.l.entries.map(kindOf).slice(-3)).toEqual(["pass", "floor", "table_closed"]);
    expect(t.state.closed).toEqual({ reason: "ledger_full", seq: limit });
  });

  it("closes with ledger_full after the batch that leaves room for less than one more turn", async () => {
    const t = await endless(4);
    const added = await t.write("a", { kind: "pass" });
    expect(added.map(kindOf)).toEqual(["pass", "floor", "table_closed"]);
    expect(t.state.closed?.seq).toBe(t.l.maxEntries - 1);
  });

  it("verifies CLEAN, policy replay included, when the verifier knows the relay's limit", async () => {
    const t = await endless(7);
    while (!t.state.closed) await t.write(t.holder!, { kind: "pass" });
    const text = await t.exportText();
    expect(await verifyExport(text, { relayKey: k.relay.publicKeyText, maxEntries: t.l.maxEntries })).toMatchObject({
      verdict: "CLEAN",
      coverage: { policy_replay: "full" },
    });
    expect((await verifyExport(text, { relayKey: k.relay.publicKeyText })).verdict).toBe("REFUTED");
  });

  it("accepts a proposal when it, its tasks and the close fill the ledger exactly", async () => {
    const t = await gatewayTable(k);
    t.l.maxEntries = t.state.seq + 4;
    await propose(t, "x", TWO_OWNERS);
    expect(t.l.entries.map(kindOf).slice(-4)).toEqual(["proposal", "task_opened", "task_opened", "table_closed"]);
    expect(t.l.entries.length).toBe(t.l.maxEntries);
  });

  it("accepts task work after the close up to the limit exactly, then refuses it with E_CLOSED", async () => {
    const t = await gatewayTable(k, { termination: { any: [{ max_entries: 1 }] } });
    const seq = await propose(t, "x", [CARD_EFFECT]);
    expect(t.state.closed?.reason).toBe("max_entries");
    t.l.maxEntries = t.state.seq + 2;
    expect((await approve(t, seq, "jenny")).map(kindOf)).toEqual(["approval", "task_state"]);
    expect(t.l.entries.length).toBe(t.l.maxEntries);
    const before = snapshot(t);
    expect(await refusal(() => t.write("y", { kind: "progress", task: `${seq}.jenny` }))).toMatchObject({
      code: "E_CLOSED",
    });
    expect(snapshot(t)).toBe(before);
  });

  it("judges a watchdog stall by the limit admit is given, so a replay with a relay's higher published limit accepts a stall past the default", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x", [CARD_EFFECT]);
    await approve(t, seq, "jenny");
    const due = watchdogDeadline(t.state)!;
    // The same table as if the relay's ledger held more entries than the default limit: only the count differs.
    const long = { ...cloneState(t.state), seq: LIMITS.entries };
    const { entries } = admit(long, stalledDraft(long, `${seq}.jenny`), due, LIMITS.entries + 100);
    expect(entries.map(kindOf)).toEqual(["task_state"]);
  });

  describe("when a submission and what it causes would pass the limit", () => {
    it("refuses a proposal whose tasks and close would not fit with E_TOO_LARGE, changing nothing; a smaller entry still fits", async () => {
      const t = await gatewayTable(k);
      t.l.maxEntries = t.state.seq + 3;
      const before = snapshot(t);
      const error = await refusal(() => propose(t, "x", TWO_OWNERS));
      expect(error).toMatchObject({
        code: "E_TOO_LARGE",
        details: { limit: t.l.maxEntries, seq: t.state.seq, entries: 4 },
      });
      expect(snapshot(t)).toBe(before);
      expect((await t.say("x", "then just say it")).map(kindOf)).toEqual(["say", "table_closed"]);
      expect(t.state.closed).toEqual({ reason: "ledger_full", seq: t.l.maxEntries - 1 });
    });

    it("refuses task work after the close that would pass the limit with E_TOO_LARGE, changing nothing", async () => {
      const t = await gatewayTable(k, { termination: { any: [{ max_entries: 1 }] } });
      const seq = await propose(t, "x", [CARD_EFFECT]);
      t.l.maxEntries = t.state.seq + 1;
      const before = snapshot(t);
      expect(await refusal(() => approve(t, seq, "jenny"))).toMatchObject({
        code: "E_TOO_LARGE",
        details: { entries: 2 },
      });
      expect(snapshot(t)).toBe(before);
    });
  });
});
