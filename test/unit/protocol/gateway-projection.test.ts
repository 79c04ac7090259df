/**
 * What a seat reads of the commit gateway (docs/SPEC.md §7): open tasks beside the prefix, not in
 * it, so task moves never bust a prompt cache; gateway entries without hashes or signatures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildProjection, ProjectionSchema, type Entry, type Projection } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import type { TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, gatewayTable, propose } from "./gateway-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const project = (t: TestTable, entries: readonly Entry[] = []): Projection =>
  ProjectionSchema.parse(buildProjection(t.state, "y", { entries, cursor: t.state.seq, more: false }));

describe("the projection", () => {
  it("lists open tasks outside the prefix, so the prefix hash holds while tasks move", async () => {
    const t = await gatewayTable(k);
    const before = project(t);
    const seq = await propose(t, "x");
    const id = `${seq}.jenny`;
    const opened = project(t);
    expect(opened.tasks).toEqual([{ id, owner: "jenny", state: "awaiting_approval", proposal: seq, executor: null }]);
    expect(opened.prefix_sha256).toBe(before.prefix_sha256);

    await approve(t, seq, "jenny");
    await t.write("y", { kind: "progress", task: id });
    const running = project(t);
    expect(running.tasks).toEqual([{ id, owner: "jenny", state: "running", proposal: seq, executor: "y" }]);
    expect(running.prefix_sha256).toBe(before.prefix_sha256);

    await t.write("y", { kind: "receipt", task: id, body: "done" });
    await t.write("c", { kind: "verify", task: id, verdict: "pass", body: "seen" });
    expect(project(t).tasks).toEqual([]);
  });

  it("shows gateway entries without hashes or signatures, with the task or request they belong to", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    const id = `${seq}.jenny`;
    await approve(t, seq, "jenny");
    await t.write("y", { kind: "progress", task: id, body: "on it" });
    await t.write("y", { kind: "request", request_id: "plan-1", type: "plan_approval", to: ["c"], body: "plan?" });
    const tail = project(t, t.l.entries.slice(seq - 1)).tail;
    expect(tail).toEqual([
      { seq, kind: "proposal", seat: "x", body: "put #459 on the board", data: { effects: [CARD_EFFECT] } },
      {
        seq: seq + 1,
        kind: "system",
        subkind: "task_opened",
        data: { task: id, owner: "jenny", proposal: seq, effects: [CARD_EFFECT] },
      },
      { seq: seq + 2, kind: "approval", data: { owner: "jenny", task: id, verdict: "approve" } },
      {
        seq: seq + 3,
        kind: "system",
        subkind: "task_state",
        data: { task: id, state: "approved", reason: "approval", cause: seq + 2 },
      },
      { seq: seq + 4, kind: "progress", seat: "y", body: "on it", data: { task: id } },
      {
        seq: seq + 5,
        kind: "system",
        subkind: "task_state",
        data: { task: id, state: "running", reason: "progress", cause: seq + 4 },
      },
      {
        seq: seq + 6,
        kind: "request",
        seat: "y",
        to: ["c"],
        body: "plan?",
        data: { request_id: "plan-1", type: "plan_approval" },
      },
    ]);
    expect(JSON.stringify(tail)).not.toMatch(/[0-9a-f]{64}|sig|leaf/);
  });
});
