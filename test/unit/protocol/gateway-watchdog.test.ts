/**
 * The task watchdog (docs/SPEC.md §5.6): a stall is an input entry admit judges at its own ts, so
 * it is accepted exactly when due, a repeated run appends nothing, and a replay catches a stall
 * recorded too early.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  controlDraft,
  dueTasks,
  stalledDraft,
  taskStateDraft,
  verifyExport,
  watchdogDeadline,
} from "../../../src/protocol/index.js";
import { cast, nonceOf, type Cast } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, kindOf, rechain, TestTable } from "./fixtures.js";
import { approve, gatewayConfig, gatewayTable, propose, taskState } from "./gateway-fixtures.js";
import { refused } from "../../support/refused.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const HEARTBEAT = 60_000;

/** A room with jenny's task approved; `since` is when the watchdog's clock started. */
async function approvedTask(overrides = {}): Promise<{ t: TestTable; id: string; seq: number; since: number }> {
  const t = await gatewayTable(k, overrides);
  const seq = await propose(t, "x");
  const [, moved] = await approve(t, seq, "jenny");
  return { t, id: `${seq}.jenny`, seq, since: moved!.ts };
}

/** Appends the watchdog's stall of `id` at time `at`. */
function stallAt(t: TestTable, id: string, at: number) {
  t.l.now = at;
  return t.l.append(stalledDraft(t.state, id));
}

describe("the watchdog", () => {
  it("stalls an approved task with no progress within heartbeat_ms, as an entry with no cause", async () => {
    const { t, id, since } = await approvedTask();
    expect(watchdogDeadline(t.state)).toBe(since + HEARTBEAT);
    expect(dueTasks(t.state, since + HEARTBEAT - 1)).toEqual([]);
    expect(dueTasks(t.state, since + HEARTBEAT)).toEqual([id]);
    const [stall] = stallAt(t, id, since + HEARTBEAT);
    expect(stall).toMatchObject({
      kind: "system",
      subkind: "task_state",
      author: null,
      ts: since + HEARTBEAT,
      data: { task: id, state: "stalled", reason: "watchdog", cause: null },
    });
    expect(taskState(t, id)).toBe("stalled");
    expect(watchdogDeadline(t.state)).toBeNull();
  });

  it("restarts its clock with every progress of a running task", async () => {
    const { t, id, since } = await approvedTask();
    t.l.now = since + 50_000;
    const [progress] = await t.write("y", { kind: "progress", task: id });
    expect(watchdogDeadline(t.state)).toBe(progress!.ts + HEARTBEAT);
    await refused("E_TASK_STATE", () => stallAt(t, id, since + HEARTBEAT), { unmoved: t });
    expect(stallAt(t, id, progress!.ts + HEARTBEAT).map(kindOf)).toEqual(["task_state"]);
  });

  it("lets a stalled task run again on its executor's progress, and its owner reject it if it never ran", async () => {
    const running = await approvedTask();
    const [progress] = await running.t.write("y", { kind: "progress", task: running.id });
    stallAt(running.t, running.id, progress!.ts + HEARTBEAT);
    await running.t.write("y", { kind: "progress", task: running.id, body: "back" });
    expect(taskState(running.t, running.id)).toBe("running");

    const idle = await approvedTask();
    stallAt(idle.t, idle.id, idle.since + HEARTBEAT);
    await approve(idle.t, idle.seq, "jenny", "reject");
    expect(taskState(idle.t, idle.id)).toBe("rejected");
  });

  it("watches nothing awaiting approval, and nothing without a watchdog config", async () => {
    const t = await gatewayTable(k);
    await propose(t, "x");
    expect(watchdogDeadline(t.state)).toBeNull();
    const { watchdog: _unwatched, ...config } = gatewayConfig(k);
    const unwatched = await TestTable.open(config, undefined, k);
    await approve(unwatched, await propose(unwatched, "x"), "jenny");
    expect(watchdogDeadline(unwatched.state)).toBeNull();
  });

  it("holds still while any pause holds, and restarts its clock when the last is lifted", async () => {
    const { t, id, since } = await approvedTask();
    const control = (owner: "tao" | "jenny", action: "pause" | "resume") =>
      controlDraft(t.state, { owner, action, via: "telegram", nonce: nonceOf(`watchdog ${owner} ${action}`) });
    t.l.now = since + 10_000;
    t.l.append(control("tao", "pause"));
    t.l.append(control("jenny", "pause"));
    expect(watchdogDeadline(t.state)).toBeNull();
    await refused("E_TASK_STATE", () => stallAt(t, id, since + 10 * HEARTBEAT), { unmoved: t });
    t.l.now = since + 5 * HEARTBEAT;
    t.l.append(control("tao", "resume"));
    expect(watchdogDeadline(t.state)).toBeNull();
    t.l.now = since + 10 * HEARTBEAT;
    const [resumed] = t.l.append(control("jenny", "resume"));
    expect(watchdogDeadline(t.state)).toBe(resumed!.ts + HEARTBEAT);
    await refused("E_TASK_STATE", () => stallAt(t, id, resumed!.ts + HEARTBEAT - 1), { unmoved: t });
    stallAt(t, id, resumed!.ts + HEARTBEAT);
    expect((await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  describe("when a stall is not due", () => {
    it("refuses a stall before heartbeat_ms passed (E_TASK_STATE)", async () => {
      const { t, id, since } = await approvedTask();
      await refused("E_TASK_STATE", () => stallAt(t, id, since + HEARTBEAT - 1), { unmoved: t });
    });

    it("refuses a second stall of the same task: a repeated alarm run appends nothing", async () => {
      const { t, id, since } = await approvedTask();
      stallAt(t, id, since + HEARTBEAT);
      expect(dueTasks(t.state, since + 10 * HEARTBEAT)).toEqual([]);
      await refused("E_TASK_STATE", () => stallAt(t, id, since + 10 * HEARTBEAT), { unmoved: t });
    });

    it("refuses a stall of a task awaiting approval, and of an unknown task", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      await refused("E_TASK_STATE", () => stallAt(t, `${seq}.jenny`, t.l.now + 10 * HEARTBEAT), { unmoved: t });
      await refused("E_UNKNOWN_TASK", () => stallAt(t, "99.jenny", t.l.now), { unmoved: t });
    });

    it("refuses any other task_state submitted on its own (E_FORBIDDEN)", async () => {
      const { t, id, since } = await approvedTask();
      t.l.now = since + HEARTBEAT;
      await refused("E_FORBIDDEN", () => t.l.append(taskStateDraft(t.state.table, id, "verified", "watchdog", null)), {
        unmoved: t,
      });
      await refused("E_FORBIDDEN", () => t.l.append(taskStateDraft(t.state.table, id, "stalled", "watchdog", 3)), {
        unmoved: t,
      });
      await refused("E_FORBIDDEN", () => t.l.append(taskStateDraft(t.state.table, id, "stalled", "approval", null)), {
        unmoved: t,
      });
    });
  });

  describe("a stalled task", () => {
    it("that never ran runs on the first progress of any seat of its owner, which becomes the executor", async () => {
      const { t, id, since } = await approvedTask();
      stallAt(t, id, since + HEARTBEAT);
      expect((await t.write("y2", { kind: "progress", task: id })).map(kindOf)).toEqual(["progress", "task_state"]);
      expect(taskState(t, id)).toBe("running");
      expect(t.state.tasks[id]!.executor).toBe("y2");
    });

    it("that ran takes its executor's receipt and is reported, then verified by another seat", async () => {
      const { t, id } = await approvedTask();
      const [progress] = await t.write("y", { kind: "progress", task: id });
      stallAt(t, id, progress!.ts + HEARTBEAT);
      await t.write("y", { kind: "receipt", task: id, body: "card moved" });
      expect(taskState(t, id)).toBe("reported");
      await t.write("c", { kind: "verify", task: id, verdict: "pass", body: "card is on the board" });
      expect(taskState(t, id)).toBe("verified");
      expect((await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText })).verdict).toBe("CLEAN");
    });

    describe("when it is moved wrongly", () => {
      it("refuses its owner's rejection once it ran: execution started (E_TASK_STATE)", async () => {
        const { t, id, seq } = await approvedTask();
        const [progress] = await t.write("y", { kind: "progress", task: id });
        stallAt(t, id, progress!.ts + HEARTBEAT);
        await refused("E_TASK_STATE", () => approve(t, seq, "jenny", "reject"), { unmoved: t });
        expect(taskState(t, id)).toBe("stalled");
      });

      it("refuses a second approval of a stalled task (E_TASK_STATE)", async () => {
        const { t, id, seq, since } = await approvedTask();
        stallAt(t, id, since + HEARTBEAT);
        await refused("E_TASK_STATE", () => approve(t, seq, "jenny"), { unmoved: t });
      });

      it("refuses progress from another seat of the owner while its executor is still seated (E_NOT_EXECUTOR)", async () => {
        const { t, id } = await approvedTask();
        const [progress] = await t.write("y", { kind: "progress", task: id });
        stallAt(t, id, progress!.ts + HEARTBEAT);
        await refused("E_NOT_EXECUTOR", () => t.write("y2", { kind: "progress", task: id }), { unmoved: t });
      });

      it("refuses a receipt for a stalled task that never ran (E_TASK_STATE)", async () => {
        const { t, id, since } = await approvedTask();
        stallAt(t, id, since + HEARTBEAT);
        await refused("E_TASK_STATE", () => t.write("y", { kind: "receipt", task: id, body: "done?" }), { unmoved: t });
      });
    });
  });

  it("never stalls a reported task: the watchdog watches only approved and running tasks", async () => {
    const { t, id } = await approvedTask();
    await t.write("y", { kind: "progress", task: id });
    const [receipt] = await t.write("y", { kind: "receipt", task: id, body: "card moved" });
    expect(watchdogDeadline(t.state)).toBeNull();
    expect(dueTasks(t.state, receipt!.ts + 10 * HEARTBEAT)).toEqual([]);
    await refused("E_TASK_STATE", () => stallAt(t, id, receipt!.ts + 10 * HEARTBEAT), { unmoved: t });
  });

  describe("in a replay", () => {
    it("verifies a due stall CLEAN and refutes one recorded before it was due", async () => {
      const { t, id, since } = await approvedTask();
      stallAt(t, id, since + HEARTBEAT);
      const pinned = { relayKey: k.relay.publicKeyText };
      expect((await verifyExport(await t.exportText(), pinned)).verdict).toBe("CLEAN");

      const early = copy(t.l.entries);
      early[early.length - 1]!.ts = since + HEARTBEAT - 1;
      const forged = rechain(early);
      const report = await verifyExport(
        exportOf(k.relay, forged, [await headOver(k.relay, forged)], "t-gateway"),
        pinned,
      );
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: forged.length, reason: expect.stringContaining("E_TASK_STATE") },
      });
    });
  });
});
