/** `--effect owner:resource:action[:{json args}]` and `--effects FILE`: how the CLI reads effects before anything is signed. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { effectsFromFlags, parseEffectFlag } from "../../../src/cli/effects.js";
import { UsageError } from "../../../src/cli/exit.js";

describe("parseEffectFlag", () => {
  it.each([
    ["jenny:taskboard:reorder", { owner: "jenny", resource: "taskboard", action: "reorder", args: {} }],
    [
      'jenny:taskboard:reorder:{"first":"#461"}',
      { owner: "jenny", resource: "taskboard", action: "reorder", args: { first: "#461" } },
    ],
    ["jenny:github:jenny/app:merge", { owner: "jenny", resource: "github:jenny/app", action: "merge", args: {} }],
    [
      'jenny:github:jenny/app:merge:{"pr":461,"note":"a:b"}',
      { owner: "jenny", resource: "github:jenny/app", action: "merge", args: { pr: 461, note: "a:b" } },
    ],
  ])("reads %s", (text, effect) => {
    expect(parseEffectFlag(text)).toEqual(effect);
  });

  describe("when the flag is malformed", () => {
    it.each([
      ["jenny"],
      [":taskboard:reorder"],
      ["jenny:taskboard"],
      ["jenny:taskboard:"],
      ["jenny:taskboard:reorder:{nope}"],
    ])("refuses %s as a usage error", (text) => {
      expect(() => parseEffectFlag(text)).toThrow(UsageError);
    });
  });
});

describe("effectsFromFlags", () => {
  it("puts the file's effects first, then each --effect, and returns undefined for neither", () => {
    const file = join(mkdtempSync(join(tmpdir(), "trestle-effects-")), "effects.json");
    writeFileSync(file, JSON.stringify([{ owner: "tao", resource: "repo", action: "merge", args: {} }]));
    expect(effectsFromFlags({ effects: file, effect: ["jenny:taskboard:reorder"] })!.map((e) => e.owner)).toEqual([
      "tao",
      "jenny",
    ]);
    expect(effectsFromFlags({})).toBeUndefined();
  });

  describe("when an effect breaks the protocol", () => {
    it("refuses it with E_SCHEMA, naming the field", () => {
      expect(() => effectsFromFlags({ effect: ["jenny:Task Board:reorder"] })).toThrow(
        expect.objectContaining({ code: "E_SCHEMA" }),
      );
    });

    it("refuses an effects file that is not an array as a usage error", () => {
      const file = join(mkdtempSync(join(tmpdir(), "trestle-effects-")), "effects.json");
      writeFileSync(file, "{}");
      expect(() => effectsFromFlags({ effects: file })).toThrow(UsageError);
    });
  });
});
