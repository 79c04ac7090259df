/** JSON nesting depth measured on the text (src/protocol/json-depth.ts): exact at the limit, blind to brackets in strings. */
import { describe, expect, it } from "vitest";
import { checkJsonDepth, jsonDepthWithin, LIMITS } from "../../../src/protocol/index.js";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("jsonDepthWithin", () => {
  it("counts arrays and objects alike, and accepts exactly the limit", () => {
    expect(jsonDepthWithin(nested(3), 3)).toBe(true);
    expect(jsonDepthWithin('{"a":{"b":[1]}}', 3)).toBe(true);
    expect(jsonDepthWithin('{"a":{"b":[[1]]}}', 3)).toBe(false);
  });

  it("counts depth, not the number of containers side by side", () => {
    expect(jsonDepthWithin(`[${Array.from({ length: 1000 }, () => "[]").join(",")}]`, 2)).toBe(true);
  });

  it("ignores brackets and escaped quotes inside strings", () => {
    expect(jsonDepthWithin(JSON.stringify({ s: "[[[[{{{{" }), 1)).toBe(true);
    expect(jsonDepthWithin(JSON.stringify({ s: 'a "quoted [[[[ part" and \\ a backslash' }), 1)).toBe(true);
    expect(jsonDepthWithin(JSON.stringify(["\\", [[]]]), 2)).toBe(false);
  });

  it("scans a body of the largest size without overflowing the stack", () => {
    expect(jsonDepthWithin(nested(LIMITS.request_bytes / 2), LIMITS.json_depth)).toBe(false);
  });

  describe("when the text nests deeper than the published limit", () => {
    it("makes checkJsonDepth throw E_SCHEMA naming the limit", () => {
      expect(() => checkJsonDepth(nested(LIMITS.json_depth))).not.toThrow();
      expect(() => checkJsonDepth(nested(LIMITS.json_depth + 1))).toThrow(
        expect.objectContaining({ code: "E_SCHEMA", message: expect.stringContaining(String(LIMITS.json_depth)) }),
      );
    });
  });
});
