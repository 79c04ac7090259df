/** Table memory, folded from a ledger built by the real admit code: decisions, tasks and executors, open requests, state. */
import { describe, expect, it } from "vitest";
import { tableMemory } from "../../../src/mcp/table-memory.js";
import { leafOf, type Entry, type HiddenEntry } from "../../../src/protocol/index.js";
import { approve, CARD_EFFECT, gatewayTable, propose } from "../protocol/gateway-fixtures.js";
import { cast } from "../../support/table-fixture.js";

describe("tableMemory", () => {
  it("remembers the topic, decisions in force, every task with its state and executor, and unanswered requests", async () => {
    const t = await gatewayTable(await cast());
    const done = await propose(t, "x");
    await approve(t, done, "jenny");
    await t.write("y", { kind: "progress", task: `${done}.jenny`, body: "" });
    await expect(t.write("y2", { kind: "progress", task: `${done}.jenny`, body: "" })).rejects.toMatchObject({
      code: "E_NOT_EXECUTOR",
    });
    await t.write("y", { kind: "receipt", task: `${done}.jenny`, body: "card made" });
    await t.write("c", { kind: "verify", task: `${done}.jenny`, verdict: "pass", body: "seen it" });
    const waiting = await propose(t, "x", [{ ...CARD_EFFECT, args: { title: "later" } }], "another card");
    await t.write("x", { kind: "request", request_id: "r1", type: "review", to: ["c"], body: "look?" });
    await t.write("x", { kind: "request", request_id: "r2", type: "review", body: "anyone?" });
    await t.write("c", { kind: "response", request_id: "r1", type: "review", body: "done" });
    await t.write("c", { kind: "decision", body: "ship #459", refs: [`entry:${done}`] });

    const memory = tableMemory(t.l.entries);
    expect(memory).toMatchObject({
      table: "t-gateway",
      topic: "Who updates the taskboard?",
      closed: null,
      pauses: [],
      hidden: 0,
      entries: t.l.entries.length,
    });
    expect(memory.decisions).toEqual([
      { seq: expect.any(Number), seat: "c", body: "ship #459", refs: [`entry:${done}`], by: "seat" },
    ]);
    expect(memory.tasks).toEqual([
      { id: `${done}.jenny`, owner: "jenny", proposal: done, effects: [CARD_EFFECT], state: "verified", executor: "y" },
      {
        id: `${waiting}.jenny`,
        owner: "jenny",
        proposal: waiting,
        effects: [{ ...CARD_EFFECT, args: { title: "later" } }],
        state: "awaiting_approval",
        executor: null,
      },
    ]);
    expect(memory.requests).toEqual([
      { request_id: "r2", type: "review", seat: "x", to: null, seq: expect.any(Number) },
    ]);
  });

  it("counts what the reader could not see, and folds only what it could", async () => {
    const t = await gatewayTable(await cast());
    await t.write("x", { kind: "decision", body: "first" });
    const items: (Entry | HiddenEntry)[] = t.l.entries.map((e) =>
      e.kind === "decision" ? { seq: e.seq, leaf: leafOf(e) } : e,
    );
    const memory = tableMemory(items);
    expect(memory.hidden).toBe(1);
    expect(memory.decisions).toEqual([]);
  });

  it("records the close and its reason", async () => {
    const t = await gatewayTable(await cast(), { termination: { any: ["decision"] } });
    await t.write("x", { kind: "decision", body: "done" });
    expect(tableMemory(t.l.entries)).toMatchObject({ closed: "decision", pauses: [] });
  });
});
