/**
 * Visibility (docs/SPEC.md §5.3): per-seat rules over authors and kinds, applied to projections,
 * entry pages and exports; hidden entries stay in the reader's chain as leaf hashes, so its export
 * verifies INCONCLUSIVE (by hash) and never REFUTED, while an owner's verifies CLEAN.
 */
import { describe, expect, it } from "vitest";
import {
  canRead,
  validateConfig,
  verifyExport,
  viewOf,
  type Entry,
  type Projection,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { readEntries, readExport, readProjection, readTasks } from "../../../durable-objects/table/reading/reads.js";
import { cast } from "../../support/table-fixture.js";
import { broadcastConfig, broadcastTable, debateTable, refusal, TestTable } from "./fixtures.js";
import { gatewayTable, propose } from "./gateway-fixtures.js";

const k = await cast();

/** The judge reads only the debaters' `say` entries. */
const JUDGE_SEES_SAYS = { judge: { seats: ["bot-tao", "bot-jenny"], kinds: ["say" as const] } };

/** A debate where every kind of entry appears before the judge's turn: says, a pass, a hand, a proposal. */
async function busyDebate(overrides: Partial<TableConfig> = {}): Promise<TestTable> {
  const t = await debateTable(k, { visibility: JUDGE_SEES_SAYS, ...overrides });
  await t.say("bot-tao", "pro: ship it");
  await t.write("judge", { kind: "raise_hand" });
  await t.write("bot-jenny", { kind: "proposal", body: "con: wait for #461" });
  await t.say("judge", "a question from the judge");
  await t.write("bot-tao", { kind: "pass" });
  await t.say("bot-jenny", "con: still wait");
  return t;
}

const head = async (t: TestTable) => t.l.head();

describe("a judge who reads only the debaters' says", () => {
  it("sees nothing else in its projection: no system entries, hands, passes or proposals", async () => {
    const t = await busyDebate();
    const p = readProjection(t.state, t.reader(), { seat: "judge" }, 0);
    const others = p.tail.filter((e) => e.seat !== "judge");
    expect(others.map((e) => [e.seq, e.kind, e.seat])).toEqual([
      [6, "say", "bot-tao"],
      [15, "say", "bot-jenny"],
    ]);
    expect(p.tail.map((e) => e.seat)).toEqual(["bot-tao", "judge", "judge", "bot-jenny"]);
    expect(p.cursor).toBe(t.state.seq);
  });

  it("reads its own entries whatever its rule says", async () => {
    const t = await busyDebate();
    const own = readProjection(t.state, t.reader(), { seat: "judge" }, 0).tail.filter((e) => e.seat === "judge");
    expect(own.map((e) => e.kind)).toEqual(["raise_hand", "say"]);
  });

  it("sees its rule, but not decisions it may not read, in its prefix", async () => {
    const t = await debateTable(k, {
      visibility: JUDGE_SEES_SAYS,
      floor: { decision_by: "any" },
      termination: { any: ["rounds_exhausted", { max_entries: 50 }] },
    });
    await t.write("bot-tao", { kind: "decision", body: "pro decides" });
    const judge = readProjection(t.state, t.reader(), { seat: "judge" }, 0);
    expect(judge.prefix.rules.visibility).toEqual(JUDGE_SEES_SAYS.judge);
    expect(judge.prefix.decisions).toEqual([]);
    const con = readProjection(t.state, t.reader(), { seat: "bot-jenny" }, 0);
    expect(con.prefix.decisions).toEqual([expect.objectContaining({ seat: "bot-tao", body: "pro decides" })]);
    expect(con.prefix.rules).not.toHaveProperty("visibility");
  });

  it("gets every other entry as its seq and leaf hash in an entries page", async () => {
    const t = await busyDebate();
    const page = readEntries(t.state, t.reader(), { seat: "judge" }, { from: 1, to: 100 }, await head(t));
    expect(page.items).toHaveLength(t.l.entries.length);
    for (const [i, item] of page.items.entries()) {
      const entry = t.l.entries[i]!;
      if ("kind" in item) expect(canRead(t.state, { seat: "judge" }, entry)).toBe(true);
      else expect(item).toEqual({ seq: entry.seq, leaf: entry.leaf });
    }
    expect(page.items.filter((i) => "kind" in i).map((i) => i.seq)).toEqual([6, 8, 11, 15]);
  });

  it("exports a chain that verifies INCONCLUSIVE by hash, never REFUTED, without the hidden content", async () => {
    const t = await debateTable(k, { visibility: JUDGE_SEES_SAYS, floor: { max_chars: 12 } });
    await t.write("bot-tao", { kind: "proposal", body: "a proposal long enough to be cut" });
    await t.say("bot-jenny", "con says no");
    const text = readExport(t.state, t.reader(), { seat: "judge" }, await head(t));
    expect(text).not.toContain("a proposal");
    const report = await verifyExport(text, { relayKey: k.relay.publicKeyText });
    const hidden = t.l.entries.length - 1;
    expect(report).toMatchObject({
      verdict: "INCONCLUSIVE",
      coverage: {
        entries: t.l.entries.length,
        by_content: 1,
        by_hash: hidden,
        policy_replay: "skipped",
        truncated_unchecked: 0,
      },
    });
  });

  it("leaves the owners' view whole: their export verifies CLEAN", async () => {
    const t = await busyDebate();
    const view = viewOf(t.state, { owner: "ops" }, t.l.entries);
    expect(view.every((i) => "kind" in i)).toBe(true);
    const report = await verifyExport(readExport(t.state, t.reader(), { owner: "ops" }, await head(t)), {
      relayKey: k.relay.publicKeyText,
    });
    expect(report.verdict).toBe("CLEAN");
  });

  it("leaves seats without a rule reading everything", async () => {
    const t = await busyDebate();
    const p = readProjection(t.state, t.reader(), { seat: "bot-tao" }, 0);
    expect(p.tail.map((e) => e.seq)).toEqual(t.l.entries.map((e) => e.seq));
  });
});

describe("visibility rules", () => {
  const rule = (visibility: TableConfig["visibility"]) => broadcastTable(k, { visibility });
  const visibleTo = (t: TestTable, seat: string): Entry[] => t.l.entries.filter((e) => canRead(t.state, { seat }, e));

  it("with only kinds, reads those kinds by any author, system entries only when listed", async () => {
    const t = await rule({ c: { kinds: ["say", "system"] } });
    await t.say("a");
    await t.write("b", { kind: "pass" });
    expect(visibleTo(t, "c").map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual([
      "table_opened",
      "seat_joined",
      "seat_joined",
      "seat_joined",
      "floor",
      "say",
      "floor",
      "floor",
    ]);
  });

  it("with only seats, reads those authors' entries of every kind, and every system entry", async () => {
    const t = await rule({ c: { seats: ["a"] } });
    await t.write("a", { kind: "proposal", body: "p" });
    await t.say("b");
    const authored = visibleTo(t, "c").filter((e) => e.kind !== "system");
    expect(authored.map((e) => [e.kind, e.seat])).toEqual([["proposal", "a"]]);
    expect(visibleTo(t, "c").filter((e) => e.kind === "system")).toHaveLength(
      t.l.entries.filter((e) => e.kind === "system").length,
    );
  });

  it("matches a decision by quorum as kind decision", async () => {
    const t = await broadcastTable(k, {
      visibility: { c: { kinds: ["decision"] } },
      termination: { any: [{ quorum: { n: 1, of: "seats" } }, "rounds_exhausted"] },
    });
    const [p] = await t.write("a", { kind: "proposal", body: "p" });
    await t.write("b", { kind: "vote", re: p!.seq, choice: "yes" });
    expect(visibleTo(t, "c").map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual(["decision"]);
  });

  describe("when the config names what does not exist", () => {
    it("refuses a rule for an undeclared seat with E_SCHEMA naming it", async () => {
      const error = await refusal(() =>
        validateConfig(broadcastConfig(k, { visibility: { ghost: { kinds: ["say"] } } })),
      );
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "visibility.ghost" }] } });
    });

    it("refuses an undeclared author in a rule with E_SCHEMA naming it", async () => {
      const error = await refusal(() =>
        validateConfig(broadcastConfig(k, { visibility: { a: { seats: ["b", "ghost"] } } })),
      );
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "visibility.a.seats[1]" }] } });
    });

    it("refuses an unknown kind with E_SCHEMA", async () => {
      const error = await refusal(() =>
        validateConfig(broadcastConfig(k, { visibility: { a: { kinds: ["gossip" as never] } } })),
      );
      expect(error.code).toBe("E_SCHEMA");
    });
  });
});

describe("when a rule hides task entries", () => {
  /** The gateway room where c reads only says, and a proposal by x has opened jenny's task. */
  async function hiddenTasks(): Promise<TestTable> {
    const t = await gatewayTable(k, { visibility: { c: { kinds: ["say"] } } });
    await propose(t, "x");
    expect(Object.keys(t.state.tasks)).toHaveLength(1);
    return t;
  }

  it("lists no tasks in the seat's projection: tasks are made of system entries it may not read", async () => {
    const t = await hiddenTasks();
    expect(readProjection(t.state, t.reader(), { seat: "c" }, 0).tasks).toEqual([]);
    expect(readProjection(t.state, t.reader(), { seat: "y" }, 0).tasks).toHaveLength(1);
  });

  it("lists no tasks to the seat on GET /tasks, but every task to an owner", async () => {
    const t = await hiddenTasks();
    expect(readTasks(t.state, 0, { seat: "c" })).toEqual({ items: [], next: null });
    expect(readTasks(t.state, 0, { seat: "y" }).items).toHaveLength(1);
    expect(readTasks(t.state, 0, { owner: "ops" }).items).toHaveLength(1);
  });

  it("lists the tasks to a seat whose rule reads system entries and the proposals that opened them", async () => {
    const t = await gatewayTable(k, { visibility: { c: { kinds: ["say", "system", "proposal"] } } });
    await propose(t, "x");
    expect(readProjection(t.state, t.reader(), { seat: "c" }, 0).tasks).toHaveLength(1);
    expect(readTasks(t.state, 0, { seat: "c" }).items).toHaveLength(1);
  });
});

describe("reading a projection costs O(tail)", () => {
  /** A ledger that counts the entries it hands out. */
  function counting(t: TestTable) {
    const inner = t.reader();
    const read = { entries: 0 };
    return {
      read,
      ledger: {
        get seq() {
          return inner.seq;
        },
        range(from: number, to: number, limit: number) {
          const out = inner.range(from, to, limit);
          read.entries += out.length;
          return out;
        },
      },
    };
  }

  it("reads only the entries after the cursor", async () => {
    const t = await busyDebate();
    const { read, ledger } = counting(t);
    const p: Projection = readProjection(t.state, ledger, { seat: "bot-tao" }, t.state.seq - 3);
    expect(read.entries).toBe(3);
    expect(p.tail).toHaveLength(3);
  });

  it("reads at most one page, and advances the cursor past hidden entries with more = true", async () => {
    const t = await broadcastTable(k, {
      topology: { kind: "broadcast", order: ["a", "b", "c"] },
      termination: { any: [{ max_entries: 1000 }] },
      visibility: { c: { seats: ["b"], kinds: ["say"] } },
    });
    for (let i = 0; i < 260; i++) await t.write(t.holder!, { kind: "pass" });
    expect(t.state.seq).toBeGreaterThan(500);
    const { read, ledger } = counting(t);
    const p = readProjection(t.state, ledger, { seat: "c" }, 0);
    expect(read.entries).toBe(500);
    expect(p).toMatchObject({ cursor: 500, more: true });
    expect(p.tail.every((e) => e.seat === "c")).toBe(true);
    const next = readProjection(t.state, ledger, { seat: "c" }, p.cursor);
    expect(next.cursor).toBe(t.state.seq);
    expect(next.more).toBe(false);
  });
});
