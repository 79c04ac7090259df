/**
 * The delegation topology (docs/SPEC.md §5.1): the floor goes down a reporting line when the holder
 * addresses a direct report, back up to the manager otherwise; nobody speaks across lines.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { validateConfig, verifyExport, type TableConfig } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { kindOf, refusal, TestTable } from "./fixtures.js";
import { delegationConfig, floorLog, snapshot } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const LINES = ["lead", "m1", "m2", "w1", "w2", "w3"];
const delegation = (overrides: Partial<TableConfig> = {}, join = [...LINES, "h"]) =>
  TestTable.open(delegationConfig(k, overrides), join, k);
const to = (t: TestTable, from: string, seat: string) =>
  t.write(from, { kind: "say", body: `${from} -> ${seat}`, to: [seat] });
const topology = (reports: Record<string, string[]>): Partial<TableConfig> => ({
  topology: { kind: "delegation", lead: "lead", reports },
});

describe("a delegation session", () => {
  it("starts with the lead once every seat on the lines joined", async () => {
    const t = await delegation({}, ["lead", "m1", "m2", "w1", "w2"]);
    expect(t.state.floor.started).toBe(false);
    expect(floorLog(await t.join("w3"))).toEqual([["lead", "start"]]);
  });

  it("closes with no_speaker instead of starting the floor when the lead left before the last seat joined", async () => {
    const t = await delegation({}, ["lead", "m1", "m2", "w1", "w2", "h"]);
    await t.write("h", { kind: "request", request_id: "bye-lead", type: "shutdown", to: ["lead"], body: "stand down" });
    await t.write("lead", { kind: "response", request_id: "bye-lead", type: "shutdown", verdict: "approve" });
    expect(floorLog(await t.join("w3"))).toEqual([["closed", "no_speaker"]]);
  });

  it("delegates down the lines, reports results up, and closes on the lead's decision", async () => {
    const t = await delegation();
    const log = [];
    log.push(...floorLog(await to(t, "lead", "m1")));
    log.push(...floorLog(await to(t, "m1", "w1")));
    log.push(...floorLog(await t.say("w1", "w1's result")));
    log.push(...floorLog(await to(t, "m1", "w2")));
    log.push(...floorLog(await to(t, "w2", "m1")));
    log.push(...floorLog(await to(t, "m1", "lead")));
    log.push(...floorLog(await to(t, "lead", "m2")));
    log.push(...floorLog(await to(t, "m2", "w3")));
    log.push(...floorLog(await t.write("w3", { kind: "pass" })));
    log.push(...floorLog(await t.write("m2", { kind: "proposal", body: "migrate on Sunday" })));
    const decided = await t.write("lead", { kind: "decision", body: "Sunday it is" });
    log.push(...floorLog(decided));
    expect(log).toEqual([
      ["m1", "delegate"],
      ["w1", "delegate"],
      ["m1", "report"],
      ["w2", "delegate"],
      ["m1", "report"],
      ["lead", "report"],
      ["m2", "delegate"],
      ["w3", "delegate"],
      ["m2", "report"],
      ["lead", "report"],
      ["closed", "decision"],
    ]);
    expect(decided.map(kindOf)).toEqual(["decision", "table_closed"]);
  });

  it("leaves the floor with the lead when it delegates nothing and no hand is raised", async () => {
    const t = await delegation();
    expect(floorLog(await t.say("lead", "planning"))).toEqual([]);
    expect(t.holder).toBe("lead");
  });

  it("verifies CLEAN offline, policy replay included", async () => {
    const t = await delegation();
    await to(t, "lead", "m2");
    await to(t, "m2", "w3");
    await to(t, "w3", "m2");
    await to(t, "m2", "lead");
    await t.write("lead", { kind: "decision", body: "done" });
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
  });

  describe("raised hands", () => {
    it("serves a hand when the lead delegates nothing; the hand's turn reports up its own line", async () => {
      const t = await delegation();
      await t.write("w3", { kind: "raise_hand" });
      expect(floorLog(await t.say("lead", "anything urgent?"))).toEqual([["w3", "hand"]]);
      expect(floorLog(await t.say("w3", "the backup failed"))).toEqual([["m2", "report"]]);
    });

    it("returns the floor to the lead after a hand from a seat off the lines", async () => {
      const t = await delegation();
      await t.write("h", { kind: "raise_hand" });
      await t.say("lead", "go ahead");
      expect(t.holder).toBe("h");
      expect(floorLog(await t.write("h", { kind: "pass" }))).toEqual([["lead", "turn"]]);
    });
  });

  describe("when a seat speaks across lines", () => {
    it("refuses a report addressing a sibling with E_NOT_ALLOWED naming its line", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      await to(t, "m1", "w1");
      expect(await refusal(() => to(t, "w1", "w2"))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { line: ["m1"] },
      });
    });

    it("refuses a report skipping its manager with E_NOT_ALLOWED", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      await to(t, "m1", "w1");
      expect((await refusal(() => to(t, "w1", "lead"))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a manager delegating into another line with E_NOT_ALLOWED", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      expect(await refusal(() => to(t, "m1", "w3"))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { line: ["lead", "w1", "w2"] },
      });
    });

    it("refuses the lead skipping a level with E_NOT_ALLOWED", async () => {
      const t = await delegation();
      expect((await refusal(() => to(t, "lead", "w1"))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses delegating to two reports at once with E_NOT_ALLOWED", async () => {
      const t = await delegation();
      expect((await refusal(() => t.write("lead", { kind: "say", body: "both", to: ["m1", "m2"] }))).code).toBe(
        "E_NOT_ALLOWED",
      );
    });

    it("refuses a seat that was not delegated to with E_NOT_FLOOR", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      expect(await refusal(() => to(t, "m2", "w3"))).toMatchObject({ code: "E_NOT_FLOOR", details: { holder: "m1" } });
    });

    it("refuses a decision from a manager by default with E_FORBIDDEN", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      expect(await refusal(() => t.write("m1", { kind: "decision", body: "mine" }))).toMatchObject({
        code: "E_FORBIDDEN",
        details: { decision_by: ["lead"] },
      });
    });

    it("leaves the ledger and state untouched", async () => {
      const t = await delegation();
      await to(t, "lead", "m1");
      const before = snapshot(t);
      await refusal(() => to(t, "m1", "w3"));
      await refusal(() => to(t, "m2", "w3"));
      expect(snapshot(t)).toBe(before);
    });
  });

  describe("the bot-only run limit", () => {
    const deep = { floor: { max_bot_depth: 2 } };

    it("hands the floor to the human, whose turn returns it to the lead", async () => {
      const t = await delegation(deep);
      await to(t, "lead", "m1");
      expect(floorLog(await to(t, "m1", "w1"))).toEqual([["h", "bot_depth"]]);
      expect(floorLog(await t.say("h", "stop and report"))).toEqual([["lead", "turn"]]);
    });

    it("resets on a human entry", async () => {
      const t = await delegation(deep);
      await to(t, "lead", "m1");
      await t.say("h", "fine");
      expect(floorLog(await to(t, "m1", "w1"))).toEqual([["w1", "delegate"]]);
    });

    it("closes the table when no human seat is present", async () => {
      const t = await delegation(deep, LINES);
      await to(t, "lead", "m1");
      expect(floorLog(await to(t, "m1", "w1"))).toEqual([["closed", "bot_depth"]]);
    });
  });

  describe("config", () => {
    it("refuses a manager that is not on a line from the lead with E_SCHEMA naming it", async () => {
      const error = await refusal(() =>
        validateConfig(delegationConfig(k, topology({ lead: ["m1"], w1: ["w2"], w2: ["w1"] }))),
      );
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "topology.reports.w1" }] } });
    });

    it("refuses a seat reporting to two managers with E_SCHEMA", async () => {
      const error = await refusal(() =>
        validateConfig(delegationConfig(k, topology({ lead: ["m1", "m2"], m1: ["w1"], m2: ["w1"] }))),
      );
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "topology" }] } });
    });

    it("refuses the lead as someone's report with E_SCHEMA", async () => {
      expect(
        (await refusal(() => validateConfig(delegationConfig(k, topology({ lead: ["m1"], m1: ["lead"] }))))).code,
      ).toBe("E_SCHEMA");
    });

    it("refuses an undeclared report with E_SCHEMA naming its path", async () => {
      const error = await refusal(() => validateConfig(delegationConfig(k, topology({ lead: ["m1", "ghost"] }))));
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "topology.reports.lead[1]" }] } });
    });

    it("cannot end by rounds: rounds_exhausted alone is E_NO_TERMINATION", async () => {
      expect(
        (await refusal(() => validateConfig(delegationConfig(k, { termination: { any: ["rounds_exhausted"] } })))).code,
      ).toBe("E_NO_TERMINATION");
    });
  });
});
