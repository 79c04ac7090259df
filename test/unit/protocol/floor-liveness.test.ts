/**
 * Liveness of the floor (docs/SPEC.md §5.2, decision 0190): a table whose topology can never grant
 * the floor again (a hub_spoke whose hub left, a delegation whose lead and every manager up the line
 * left) closes with `no_speaker` instead of staying open with nobody to speak. Rotations (pipeline,
 * debate, broadcast) skip seats that left and end as before.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { verifyExport, type TableConfig } from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, TestTable } from "./fixtures.js";
import { delegationConfig, floorLog, hubConfig, pipelineConfig } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** `seat` leaves by an approved shutdown request from the human seat `by`; returns the entries of the response. */
async function shutDown(t: TestTable, seat: string, by = "h") {
  await t.write(by, { kind: "request", request_id: `bye-${seat}`, type: "shutdown", to: [seat], body: "stand down" });
  return t.write(seat, { kind: "response", request_id: `bye-${seat}`, type: "shutdown", verdict: "approve" });
}

const clean = async (t: TestTable) =>
  expect(await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText })).toMatchObject({
    verdict: "CLEAN",
    coverage: { policy_replay: "full" },
  });

describe("a hub_spoke whose hub left", () => {
  const hub = (overrides: Partial<TableConfig> = {}, join = ["mod", "a", "b", "c", "h"]) =>
    TestTable.open(hubConfig(k, overrides), join, k);

  it("closes with no_speaker when the hub leaves holding the floor", async () => {
    const t = await hub();
    expect(t.holder).toBe("mod");
    expect(floorLog(await shutDown(t, "mod"))).toEqual([["closed", "no_speaker"]]);
    expect(t.state.closed?.reason).toBe("no_speaker");
    await clean(t);
  });

  it("lets the named spoke finish its turn, then closes with no_speaker", async () => {
    const t = await hub();
    await t.write("mod", { kind: "say", body: "a, go", to: ["a"] });
    expect(floorLog(await shutDown(t, "mod"))).toEqual([]);
    expect(t.holder).toBe("a");
    expect(floorLog(await t.write("a", { kind: "say", body: "done", to: ["mod"] }))).toEqual([
      ["closed", "no_speaker"],
    ]);
    await clean(t);
  });

  it("serves a raised hand first, then closes with no_speaker after that turn", async () => {
    const t = await hub();
    await t.write("b", { kind: "raise_hand" });
    expect(floorLog(await shutDown(t, "mod"))).toEqual([["b", "hand"]]);
    expect(floorLog(await t.say("b", "my point"))).toEqual([["closed", "no_speaker"]]);
  });

  it("still ends with rounds_exhausted when the hub leaves in its closing turn", async () => {
    const t = await hub({ topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b", "c"], rounds: 1 } });
    await t.write("mod", { kind: "say", body: "a, go", to: ["a"] });
    await t.write("a", { kind: "say", body: "done", to: ["mod"] });
    expect(floorLog(await shutDown(t, "mod"))).toEqual([["closed", "rounds_exhausted"]]);
  });
});

describe("a delegation whose lead left", () => {
  const LINES = ["lead", "m1", "m2", "w1", "w2", "w3"];
  const delegation = () => TestTable.open(delegationConfig(k), [...LINES, "h"], k);

  it("closes with no_speaker when the lead leaves holding the floor", async () => {
    const t = await delegation();
    expect(floorLog(await shutDown(t, "lead"))).toEqual([["closed", "no_speaker"]]);
    await clean(t);
  });

  it("goes on below the lead while a manager is present, and closes when a report has nobody above it", async () => {
    const t = await delegation();
    await t.write("lead", { kind: "say", body: "m1, take it", to: ["m1"] });
    await shutDown(t, "lead");
    expect(floorLog(await t.write("m1", { kind: "say", body: "w1, do it", to: ["w1"] }))).toEqual([["w1", "delegate"]]);
    expect(floorLog(await t.say("w1", "done"))).toEqual([["m1", "report"]]);
    expect(floorLog(await t.say("m1", "all done"))).toEqual([["closed", "no_speaker"]]);
    await clean(t);
  });
});

describe("rotations when a seat left", () => {
  it("skips a pipeline stage that left and ends with rounds_exhausted", async () => {
    const t = await TestTable.open(pipelineConfig(k), ["draft", "review", "edit", "h"], k);
    await shutDown(t, "review");
    expect(floorLog(await t.write("draft", { kind: "say", body: "draft", to: ["edit"] }))).toEqual([["edit", "turn"]]);
    expect(floorLog(await t.say("edit", "final"))).toEqual([["closed", "rounds_exhausted"]]);
    await clean(t);
  });

  it("ends a pipeline whose holding stage and every later stage left with rounds_exhausted", async () => {
    const t = await TestTable.open(pipelineConfig(k), ["draft", "review", "edit", "h"], k);
    await shutDown(t, "edit");
    expect(floorLog(await shutDown(t, "draft"))).toEqual([["review", "turn"]]);
    expect(floorLog(await t.say("review", "last"))).toEqual([["closed", "rounds_exhausted"]]);
  });

  it("lets a debate go on with one side gone, and the judge decide", async () => {
    const t = await TestTable.open(
      { ...debateConfig(k), seats: { ...debateConfig(k).seats, h: { owner: "ops", human: true } } },
      undefined,
      k,
    );
    await shutDown(t, "bot-jenny");
    expect(floorLog(await t.say("bot-tao", "pro 1"))).toEqual([["bot-tao", "turn"]]);
    expect(floorLog(await t.say("bot-tao", "pro 2"))).toEqual([["judge", "judge"]]);
    expect(floorLog(await t.write("judge", { kind: "decision", body: "pro wins by default" }))).toEqual([
      ["closed", "decision"],
    ]);
    await clean(t);
  });

  it("ends a debate whose judge left with rounds_exhausted after the last round", async () => {
    const t = await TestTable.open(
      { ...debateConfig(k), seats: { ...debateConfig(k).seats, h: { owner: "ops", human: true } } },
      undefined,
      k,
    );
    await shutDown(t, "judge");
    for (const seat of ["bot-tao", "bot-jenny", "bot-tao"]) await t.say(seat);
    expect(floorLog(await t.say("bot-jenny"))).toEqual([["closed", "rounds_exhausted"]]);
  });

  it("closes an endless broadcast whose every seat left with no_speaker, not rounds_exhausted", async () => {
    const config = broadcastConfig(k, {
      topology: { kind: "broadcast", order: ["a", "b"] },
      termination: { any: ["decision"] },
    });
    const t = await TestTable.open(
      { ...config, seats: { a: { owner: "tao" }, b: { owner: "jenny" }, h: { owner: "ops", human: true } } },
      ["a", "b", "h"],
      k,
    );
    await shutDown(t, "b");
    expect(floorLog(await shutDown(t, "a"))).toEqual([["closed", "no_speaker"]]);
  });
});
