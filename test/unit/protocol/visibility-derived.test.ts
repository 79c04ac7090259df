/**
 * Visibility of entries derived from an authored entry (docs/SPEC.md §5.3, decision 0192): a
 * task_opened, the task's task_state entries and approvals, and a decision by quorum carry what a
 * proposal said, so a seat reads them only where it may read that proposal (by its author and
 * kind); elsewhere they reach it as `{ seq, leaf }` like any hidden entry, on every read path.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { verifyExport, type Entry, type TableConfig } from "../../../src/protocol/index.js";
import { readEntries, readExport, readProjection, readTasks } from "../../../durable-objects/table/reading/reads.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, propose } from "./gateway-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const BODY = "buy the board for the whole team";

/**
 * A debate with a human seat h (ops) that may propose at any time: h proposes an effect on jenny's
 * taskboard, both debaters vote yes (a quorum of 2 decides and closes), and jenny approves the task.
 */
async function votedProposal(visibility: TableConfig["visibility"]): Promise<{ t: TestTable; derived: Entry[] }> {
  const base = debateConfig(k);
  const config = debateConfig(k, {
    seats: { ...base.seats, h: { owner: "ops", human: true } },
    termination: { any: ["decision", "rounds_exhausted", { quorum: { n: 2, of: "seats" } }] },
    visibility,
  });
  const t = await TestTable.open(config, undefined, k);
  await t.say("bot-tao", "pro: ship it");
  const seq = await propose(t, "h", [CARD_EFFECT], BODY);
  await t.write("bot-tao", { kind: "vote", re: seq, choice: "yes" });
  await t.write("bot-jenny", { kind: "vote", re: seq, choice: "yes" });
  await approve(t, seq, "jenny");
  const derived = t.l.entries.filter((e) =>
    ["proposal", "task_opened", "task_state", "approval", "decision"].includes(kindOf(e)),
  );
  expect(derived.map(kindOf)).toEqual(["proposal", "task_opened", "decision", "approval", "task_state"]);
  return { t, derived };
}

const JUDGE = { seat: "judge" } as const;

describe.each([
  ["reads only the debaters' says", { judge: { seats: ["bot-tao", "bot-jenny"], kinds: ["say" as const] } }],
  ["reads every kind the debaters write, and system entries", { judge: { seats: ["bot-tao", "bot-jenny"] } }],
  [
    "reads says, votes, decisions and system entries",
    {
      judge: {
        kinds: ["say" as const, "vote" as const, "decision" as const, "system" as const],
        seats: ["bot-tao", "bot-jenny"],
      },
    },
  ],
])("a judge who %s", (_, visibility) => {
  it("gets the proposal, its task, its approval and the decision by quorum as leaf hashes only in an entries page", async () => {
    const { t, derived } = await votedProposal(visibility);
    const page = readEntries(t.state, t.reader(), JUDGE, { from: 1, to: 100 }, await t.l.head());
    const hidden = new Set(derived.map((e) => e.seq));
    for (const item of page.items)
      if (hidden.has(item.seq)) expect(item).toEqual({ seq: item.seq, leaf: t.l.entries[item.seq - 1]!.leaf });
    expect(page.items.filter((i) => "kind" in i).map((i) => i.seq)).toContain(
      t.l.entries.find((e) => e.kind === "say")!.seq,
    );
  });

  it("sees none of it in its projection: tail, decisions in force, tasks", async () => {
    const { t, derived } = await votedProposal(visibility);
    const p = readProjection(t.state, t.reader(), JUDGE, 0);
    const seqs = p.tail.map((e) => e.seq);
    for (const e of derived) expect(seqs).not.toContain(e.seq);
    expect(p.prefix.decisions).toEqual([]);
    expect(p.tasks).toEqual([]);
    expect(JSON.stringify(p)).not.toContain(BODY);
    expect(JSON.stringify(p)).not.toContain("taskboard");
  });

  it("lists no task on GET /tasks", async () => {
    const { t } = await votedProposal(visibility);
    expect(readTasks(t.state, 0, JUDGE)).toEqual({ items: [], next: null });
  });

  it("exports a complete chain that verifies INCONCLUSIVE by hash, without the hidden content", async () => {
    const { t } = await votedProposal(visibility);
    const text = readExport(t.state, t.reader(), JUDGE, await t.l.head());
    expect(text).not.toContain(BODY);
    expect(text).not.toContain("taskboard");
    const report = await verifyExport(text, { relayKey: k.relay.publicKeyText });
    expect(report.verdict).toBe("INCONCLUSIVE");
    expect(report.coverage.by_content + report.coverage.by_hash).toBe(t.l.entries.length);
    expect(report.coverage.by_hash).toBeGreaterThanOrEqual(5);
  });
});

describe("a seat that may read the proposal's author", () => {
  it("reads the proposal, its task, its approval and the decision by quorum, and lists the task", async () => {
    const { t, derived } = await votedProposal({ judge: { seats: ["h"] } });
    const page = readEntries(t.state, t.reader(), JUDGE, { from: 1, to: 100 }, await t.l.head());
    for (const e of derived) expect(page.items[e.seq - 1]).toEqual(e);
    const p = readProjection(t.state, t.reader(), JUDGE, 0);
    expect(p.prefix.decisions).toEqual([expect.objectContaining({ seat: "h", body: BODY, by: "quorum" })]);
    expect(readTasks(t.state, 0, JUDGE).items).toHaveLength(1);
  });

  it("leaves an owner's export whole and CLEAN", async () => {
    const { t } = await votedProposal({ judge: { seats: ["bot-tao", "bot-jenny"] } });
    const text = readExport(t.state, t.reader(), { owner: "jenny" }, await t.l.head());
    expect(await verifyExport(text, { relayKey: k.relay.publicKeyText })).toMatchObject({ verdict: "CLEAN" });
  });
});

describe("a seat that may not read a sub-table's opener or decider", () => {
  /** Parent broadcast a, b, c (+ h) where c reads only b's entries and system entries; a opens a child with b that a decides. */
  async function subtable(): Promise<TestTable> {
    const parent = await TestTable.open(
      broadcastConfig(k, {
        id: "t-root",
        topology: { kind: "broadcast", order: ["a", "b", "c"] },
        termination: { any: [{ max_entries: 100 }] },
        visibility: { c: { seats: ["b"] } },
      }),
      ["a", "b", "c", "h"],
      k,
    );
    const declared = parent.config.seats!;
    const child = await parent.openChild("a", {
      id: "t-child",
      topic: "the secret sub-question",
      owners: parent.config.owners,
      seats: { a: declared.a!, b: declared.b! },
      topology: { kind: "broadcast", order: ["a", "b"], rounds: 1 },
      termination: { any: ["decision", "rounds_exhausted"] },
      parent: "t-root",
    });
    await child.write("a", { kind: "decision", body: "the child's secret answer" });
    await parent.report(child);
    return parent;
  }

  it("gets subtable_opened and subtable_result as leaf hashes, while b's reader sees them", async () => {
    const t = await subtable();
    const page = readEntries(t.state, t.reader(), { seat: "c" }, { from: 1, to: 100 }, await t.l.head());
    const sub = t.l.entries.filter((e) => kindOf(e) === "subtable_opened" || kindOf(e) === "subtable_result");
    expect(sub).toHaveLength(2);
    for (const e of sub) expect(page.items[e.seq - 1]).toEqual({ seq: e.seq, leaf: e.leaf });
    const text = readExport(t.state, t.reader(), { seat: "c" }, await t.l.head());
    expect(text).not.toContain("secret");
    const ownerPage = readEntries(t.state, t.reader(), { seat: "b" }, { from: 1, to: 100 }, await t.l.head());
    for (const e of sub) expect(ownerPage.items[e.seq - 1]).toEqual(e);
  });
});
