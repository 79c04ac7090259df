/**
 * The pipeline topology (docs/SPEC.md §5.1): stages in order, each stage's output addressed to the
 * next stage, raised hands served between rounds, the last stage deciding by default.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { validateConfig, verifyExport, type TableConfig } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { kindOf, refusal, TestTable } from "./fixtures.js";
import { floorLog, pipelineConfig, snapshot } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const STAGES = ["draft", "review", "edit"];
const pipeline = (overrides: Partial<TableConfig> = {}, join = [...STAGES, "obs", "h"]) =>
  TestTable.open(pipelineConfig(k, overrides), join, k);

/** The holder's output, addressed to `to` (omitted for the last stage). */
const output = (t: TestTable, to?: string, body = `${t.holder} output`) =>
  t.write(t.holder!, to ? { kind: "say", body, to: [to] } : { kind: "say", body });

describe("a pipeline session", () => {
  it("starts with the first stage once every stage joined", async () => {
    const t = await pipeline({}, ["draft", "review"]);
    expect(t.state.floor.started).toBe(false);
    expect(floorLog(await t.join("edit"))).toEqual([["draft", "start"]]);
  });

  it("runs each stage once, each output going to the next stage, and closes after the last", async () => {
    const t = await pipeline();
    const log = [
      ...floorLog(await output(t, "review")),
      ...floorLog(await output(t, "edit")),
      ...floorLog(await output(t)),
    ];
    expect(log).toEqual([
      ["review", "turn"],
      ["edit", "turn"],
      ["closed", "rounds_exhausted"],
    ]);
    const outputs = t.l.entries.filter((e) => e.kind === "say");
    expect(outputs.map((e) => [e.seat, "to" in e ? e.to : undefined])).toEqual([
      ["draft", ["review"]],
      ["review", ["edit"]],
      ["edit", undefined],
    ]);
  });

  it("feeds the last stage's output to the first stage of the next round", async () => {
    const t = await pipeline({ topology: { kind: "pipeline", stages: STAGES, rounds: 2 } });
    await output(t, "review");
    await output(t, "edit");
    expect(floorLog(await output(t, "draft"))).toEqual([["draft", "turn"]]);
    expect(t.state.floor.round).toBe(2);
    await output(t, "review");
    await output(t, "edit");
    expect(floorLog(await output(t))).toEqual([["closed", "rounds_exhausted"]]);
  });

  it("lets a stage pass; the next stage works from the last output", async () => {
    const t = await pipeline();
    await output(t, "review");
    expect(floorLog(await t.write("review", { kind: "pass" }))).toEqual([["edit", "turn"]]);
  });

  it("lets the last stage decide by default, which ends the pipeline", async () => {
    const t = await pipeline();
    await output(t, "review");
    await output(t, "edit");
    const added = await t.write("edit", { kind: "decision", body: "publish" });
    expect(added.map(kindOf)).toEqual(["decision", "table_closed"]);
    expect(floorLog(added)).toEqual([["closed", "decision"]]);
  });

  it("verifies CLEAN offline, policy replay included", async () => {
    const t = await pipeline({ topology: { kind: "pipeline", stages: STAGES, rounds: 2 } });
    for (const to of ["review", "edit", "draft", "review", "edit"]) await output(t, to);
    await output(t);
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
  });

  describe("when a stage breaks the line", () => {
    it('refuses a middle stage\'s output without "to" with E_NOT_ALLOWED naming the next stage', async () => {
      const t = await pipeline();
      const error = await refusal(() => output(t));
      expect(error).toMatchObject({ code: "E_NOT_ALLOWED", details: { to: ["review"] } });
    });

    it("refuses an output addressed past the next stage with E_NOT_ALLOWED", async () => {
      const t = await pipeline();
      expect((await refusal(() => output(t, "edit"))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses an output addressed to the next stage and another seat with E_NOT_ALLOWED", async () => {
      const t = await pipeline();
      expect((await refusal(() => t.write("draft", { kind: "proposal", body: "x", to: ["review", "obs"] }))).code).toBe(
        "E_NOT_ALLOWED",
      );
    });

    it('refuses a "to" on the last stage\'s output with E_NOT_ALLOWED', async () => {
      const t = await pipeline();
      await output(t, "review");
      await output(t, "edit");
      expect(await refusal(() => output(t, "draft"))).toMatchObject({ code: "E_NOT_ALLOWED", details: { to: null } });
    });

    it("refuses a stage speaking out of turn with E_NOT_FLOOR", async () => {
      const t = await pipeline();
      expect(await refusal(() => t.write("review", { kind: "say", body: "early", to: ["edit"] }))).toMatchObject({
        code: "E_NOT_FLOOR",
        details: { holder: "draft" },
      });
    });

    it("refuses a decision from a middle stage by default with E_FORBIDDEN", async () => {
      const t = await pipeline();
      expect(await refusal(() => t.write("draft", { kind: "decision", body: "done" }))).toMatchObject({
        code: "E_FORBIDDEN",
        details: { decision_by: ["edit"] },
      });
    });

    it("leaves the ledger and state untouched", async () => {
      const t = await pipeline();
      const before = snapshot(t);
      await refusal(() => output(t));
      await refusal(() => output(t, "edit"));
      expect(snapshot(t)).toBe(before);
    });
  });

  describe("raised hands", () => {
    it("serves a hand between rounds, after the last stage, never between two stages", async () => {
      const t = await pipeline({ topology: { kind: "pipeline", stages: STAGES, rounds: 2 } });
      await t.write("obs", { kind: "raise_hand" });
      expect(floorLog(await output(t, "review"))).toEqual([["review", "turn"]]);
      expect(floorLog(await output(t, "edit"))).toEqual([["edit", "turn"]]);
      expect(floorLog(await output(t, "draft"))).toEqual([["obs", "hand"]]);
      expect(floorLog(await t.say("obs", "a note before the next pass"))).toEqual([["draft", "turn"]]);
    });

    it("serves a hand between rounds when the last stage has left", async () => {
      const t = await pipeline({ topology: { kind: "pipeline", stages: STAGES, rounds: 2 } });
      await t.write("h", {
        kind: "request",
        request_id: "bye-edit",
        type: "shutdown",
        to: ["edit"],
        body: "you are done",
      });
      await t.write("edit", { kind: "response", request_id: "bye-edit", type: "shutdown", verdict: "approve" });
      await t.write("obs", { kind: "raise_hand" });
      expect(floorLog(await output(t, "review"))).toEqual([["review", "turn"]]);
      expect(floorLog(await output(t, "draft"))).toEqual([["obs", "hand"]]);
      expect(floorLog(await t.say("obs", "a note before the next pass"))).toEqual([["draft", "turn"]]);
    });

    it("serves a hand after the final stage before the pipeline closes", async () => {
      const t = await pipeline();
      await t.write("obs", { kind: "raise_hand" });
      await output(t, "review");
      await output(t, "edit");
      expect(floorLog(await output(t))).toEqual([["obs", "hand"]]);
      expect(floorLog(await t.say("obs"))).toEqual([["closed", "rounds_exhausted"]]);
    });
  });

  describe("the bot-only run limit", () => {
    const deep = { floor: { max_bot_depth: 2 } };

    it("hands the floor to the human, then resumes with the next stage", async () => {
      const t = await pipeline(deep);
      await output(t, "review");
      expect(floorLog(await output(t, "edit"))).toEqual([["h", "bot_depth"]]);
      expect(floorLog(await t.say("h", "looks fine"))).toEqual([["edit", "turn"]]);
    });

    it("resets on a human entry", async () => {
      const t = await pipeline(deep);
      await output(t, "review");
      await t.say("h", "carry on");
      expect(floorLog(await output(t, "edit"))).toEqual([["edit", "turn"]]);
    });

    it("closes the table when no human seat is present", async () => {
      const t = await pipeline(deep, STAGES);
      await output(t, "review");
      expect(floorLog(await output(t, "edit"))).toEqual([["closed", "bot_depth"]]);
    });
  });

  describe("config", () => {
    it("must list rounds_exhausted: a pipeline always ends", async () => {
      const error = await refusal(() => validateConfig(pipelineConfig(k, { termination: { any: ["decision"] } })));
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "termination.any" }] } });
    });

    it("refuses an undeclared stage with E_SCHEMA naming its path", async () => {
      const error = await refusal(() =>
        validateConfig(pipelineConfig(k, { topology: { kind: "pipeline", stages: ["draft", "ghost"] } })),
      );
      expect(error).toMatchObject({ code: "E_SCHEMA", details: { issues: [{ path: "topology.stages[1]" }] } });
    });

    it("refuses a stage listed twice with E_SCHEMA", async () => {
      const error = await refusal(() =>
        validateConfig(pipelineConfig(k, { topology: { kind: "pipeline", stages: ["draft", "draft"] } })),
      );
      expect(error.code).toBe("E_SCHEMA");
    });
  });
});
