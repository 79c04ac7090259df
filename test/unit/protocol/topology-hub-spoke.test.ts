/**
 * The hub_spoke topology (docs/SPEC.md §5.1): the hub names one spoke with `to`, only that spoke
 * gets the floor, then the floor returns to the hub; a closing hub turn after `rounds`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { validateConfig, verifyExport, type TableConfig } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { kindOf, refusal, TestTable } from "./fixtures.js";
import { floorLog, hubConfig, snapshot } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const hub = (overrides: Partial<TableConfig> = {}, join = ["mod", "a", "b", "c", "h"]) =>
  TestTable.open(hubConfig(k, overrides), join, k);
const name = (t: TestTable, spoke: string) => t.write("mod", { kind: "say", body: `${spoke}, go`, to: [spoke] });
const answer = (t: TestTable, spoke: string) => t.write(spoke, { kind: "say", body: `${spoke} answers`, to: ["mod"] });

describe("a hub_spoke session", () => {
  it("starts with the hub once the hub and every spoke joined", async () => {
    const t = await hub({}, ["mod", "a", "b"]);
    expect(t.state.floor.started).toBe(false);
    expect(floorLog(await t.join("c"))).toEqual([["mod", "start"]]);
    expect(t.state.floor.round).toBe(1);
  });

  it("closes with no_speaker instead of starting the floor when the hub left before the last spoke joined", async () => {
    const t = await hub({}, ["mod", "a", "b", "h"]);
    await t.write("h", { kind: "request", request_id: "bye-mod", type: "shutdown", to: ["mod"], body: "stand down" });
    await t.write("mod", { kind: "response", request_id: "bye-mod", type: "shutdown", verdict: "approve" });
    expect(floorLog(await t.join("c"))).toEqual([["closed", "no_speaker"]]);
  });

  it("gives the floor only to the named spoke, back to the hub, and closes after the hub's closing turn", async () => {
    const t = await hub();
    const log = [];
    log.push(...floorLog(await name(t, "b")));
    log.push(...floorLog(await answer(t, "b")));
    log.push(...floorLog(await name(t, "a")));
    log.push(...floorLog(await answer(t, "a")));
    log.push(...floorLog(await t.say("mod", "summing up")));
    expect(log).toEqual([
      ["b", "named"],
      ["mod", "turn"],
      ["a", "named"],
      ["mod", "turn"],
      ["closed", "rounds_exhausted"],
    ]);
    const rounds = t.l.entries.flatMap((e) => (e.kind === "system" && e.subkind === "floor" ? [e.data.round] : []));
    expect(rounds).toEqual([1, 1, 2, 2, 3]);
  });

  it("lets the hub decide by default, closing the table", async () => {
    const t = await hub({
      topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b", "c"] },
      termination: { any: ["decision"] },
    });
    await name(t, "c");
    await answer(t, "c");
    const added = await t.write("mod", { kind: "decision", body: "roll back" });
    expect(added.map(kindOf)).toEqual(["decision", "table_closed"]);
  });

  it("leaves the floor with the hub when it names nobody and no hand is raised", async () => {
    const t = await hub();
    expect(floorLog(await t.say("mod", "thinking aloud"))).toEqual([]);
    expect(t.holder).toBe("mod");
    expect(t.state.floor.round).toBe(1);
  });

  it("lets a spoke pass, returning the floor to the hub", async () => {
    const t = await hub();
    await name(t, "a");
    expect(floorLog(await t.write("a", { kind: "pass" }))).toEqual([["mod", "turn"]]);
  });

  it("verifies CLEAN offline, policy replay included", async () => {
    const t = await hub();
    await name(t, "b");
    await answer(t, "b");
    await t.write("c", { kind: "raise_hand" });
    await t.say("mod", "anyone?");
    await answer(t, "c");
    await t.say("mod", "closing");
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
  });

  describe("raised hands", () => {
    it("serves the oldest hand when the hub names nobody, then returns to the hub", async () => {
      const t = await hub();
      await t.write("c", { kind: "raise_hand" });
      await t.write("a", { kind: "raise_hand" });
      expect(floorLog(await t.say("mod", "hands?"))).toEqual([["c", "hand"]]);
      expect(floorLog(await answer(t, "c"))).toEqual([["mod", "turn"]]);
      expect(t.state.floor.hands).toEqual(["a"]);
    });

    it("answers a hand when the hub names that spoke", async () => {
      const t = await hub();
      await t.write("c", { kind: "raise_hand" });
      expect(floorLog(await name(t, "c"))).toEqual([["c", "named"]]);
      expect(t.state.floor.hands).toEqual([]);
    });
  });

  describe("when a seat breaks the hub's order", () => {
    it("refuses a spoke that was not named with E_NOT_FLOOR", async () => {
      const t = await hub();
      await name(t, "a");
      expect(await refusal(() => answer(t, "b"))).toMatchObject({ code: "E_NOT_FLOOR", details: { holder: "a" } });
    });

    it("refuses the hub naming two spokes with E_NOT_ALLOWED", async () => {
      const t = await hub();
      expect((await refusal(() => t.write("mod", { kind: "say", body: "both", to: ["a", "b"] }))).code).toBe(
        "E_NOT_ALLOWED",
      );
    });

    it("refuses the hub naming a seat that is not a spoke with E_NOT_ALLOWED", async () => {
      const t = await hub();
      expect(await refusal(() => name(t, "h"))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { spokes: ["a", "b", "c"] },
      });
    });

    it("refuses a spoke addressing another spoke with E_NOT_ALLOWED", async () => {
      const t = await hub();
      await name(t, "a");
      expect(await refusal(() => t.write("a", { kind: "say", body: "b?", to: ["b"] }))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { to: ["mod"] },
      });
    });

    it("refuses the hub naming a spoke in its closing turn with E_NOT_ALLOWED", async () => {
      const t = await hub({ topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b", "c"], rounds: 1 } });
      await name(t, "a");
      await answer(t, "a");
      expect(t.state.floor.round).toBe(2);
      expect((await refusal(() => name(t, "b"))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a decision from a spoke by default with E_FORBIDDEN", async () => {
      const t = await hub();
      await name(t, "a");
      expect(await refusal(() => t.write("a", { kind: "decision", body: "mine" }))).toMatchObject({
        code: "E_FORBIDDEN",
        details: { decision_by: ["mod"] },
      });
    });

    it("leaves the ledger and state untouched", async () => {
      const t = await hub();
      const before = snapshot(t);
      await refusal(() => answer(t, "b"));
      await refusal(() => t.write("mod", { kind: "say", body: "both", to: ["a", "b"] }));
      expect(snapshot(t)).toBe(before);
    });
  });

  describe("the bot-only run limit", () => {
    const deep = { floor: { max_bot_depth: 2 } };

    it("hands the floor to the human instead of the named spoke, then back to the hub", async () => {
      const t = await hub(deep);
      await name(t, "a");
      expect(floorLog(await answer(t, "a"))).toEqual([["h", "bot_depth"]]);
      expect(floorLog(await t.say("h", "we need data first"))).toEqual([["mod", "turn"]]);
    });

    it("resets on a human entry", async () => {
      const t = await hub(deep);
      await name(t, "a");
      await t.say("h", "go on");
      expect(floorLog(await answer(t, "a"))).toEqual([["mod", "turn"]]);
    });

    it("closes the table when no human seat is present", async () => {
      const t = await hub(deep, ["mod", "a", "b", "c"]);
      await name(t, "a");
      expect(floorLog(await answer(t, "a"))).toEqual([["closed", "bot_depth"]]);
    });
  });

  describe("config", () => {
    it("accepts a hub_spoke without rounds only with a condition that can fire", async () => {
      const endless = hubConfig(k, {
        topology: { kind: "hub_spoke", hub: "mod", spokes: ["a"] },
        termination: { any: ["rounds_exhausted"] },
      });
      expect((await refusal(() => validateConfig(endless))).code).toBe("E_NO_TERMINATION");
      expect(() => validateConfig({ ...endless, termination: { any: ["decision"] } })).not.toThrow();
    });

    it("refuses the hub listed as its own spoke with E_SCHEMA", async () => {
      const error = await refusal(() =>
        validateConfig(hubConfig(k, { topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "mod"], rounds: 1 } })),
      );
      expect(error.code).toBe("E_SCHEMA");
    });
  });
});
