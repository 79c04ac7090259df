/** The demo's own checks fail on any of: a task not verified, a verify that is not CLEAN, the private note in the export. */
import { describe, expect, it } from "vitest";
import { checksOf } from "../../../src/demo/checks.js";
import type { DebateOutcome } from "../../../src/demo/debate.js";
import { INITIAL_BOARD, order, reorder } from "../../../src/demo/taskboard.js";

const GOOD: DebateOutcome = {
  table: "t-459-abcdef",
  task: "15.jenny",
  taskState: "verified",
  exportPath: "/out/t-459-abcdef.jsonl",
  exportText: '{"type":"trestle-export"}\n{"type":"entry"}\n',
  verify: { code: 0, stdout: "CLEAN  table t-459-abcdef, 25 entries\n" },
  privateNote: "jenny is on leave next week",
};

const failing = (outcome: DebateOutcome) =>
  checksOf(outcome)
    .filter((c) => !c.ok)
    .map((c) => c.name);

describe("the demo's checks", () => {
  it("all hold for a verified task, a CLEAN verify and an export without the note", () => {
    expect(failing(GOOD)).toEqual([]);
  });

  describe("when something is wrong", () => {
    it.each([
      ["the task is only reported", { taskState: "reported" }, ["task_verified"]],
      ["verify says INCONCLUSIVE", { verify: { code: 5, stdout: "INCONCLUSIVE  table …\n" } }, ["verify_clean"]],
      ["verify exits non-zero", { verify: { code: 4, stdout: "REFUTED  table …\n" } }, ["verify_clean"]],
      ["the note is in the export", { exportText: '{"body":"Jenny is on leave next week"}\n' }, ["note_absent"]],
      ["part of the note is in the export", { exportText: '{"body":"she is on leave then"}\n' }, ["note_absent"]],
    ] as const)("fails when %s", (_, change, names) => {
      expect(failing({ ...GOOD, ...change })).toEqual(names);
    });
  });
});

describe("jenny's taskboard", () => {
  it("moves the named cards to the front in order and keeps the rest", () => {
    expect(order(reorder(INITIAL_BOARD, ["#461", "#459"]))).toEqual(["#461", "#459", "#470"]);
    expect(order(INITIAL_BOARD)).toEqual(["#459", "#461", "#470"]);
  });
});
