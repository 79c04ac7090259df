/** Inbound JSON (SPEC §2.1): bodies, frames and read authorizations are JSON in the canonical profile, nested at most 64 deep. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalize, LIMITS, parseInboundJson } from "../../../src/protocol/index.js";
import { integerJson } from "./fixtures.js";

/** Expects parseInboundJson to refuse `text` with an error having `fields` (code, message, details). */
function refuses(text: string, fields: Record<string, unknown>): void {
  expect(() => parseInboundJson(text)).toThrow(expect.objectContaining(fields));
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("parseInboundJson", () => {
  it("returns what JSON.parse returns for any value in the profile, compact, indented or canonical", () => {
    fc.assert(
      fc.property(integerJson, (value) => {
        for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), canonicalize(value)]) {
          expect(parseInboundJson(text)).toEqual(JSON.parse(text));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts integers at the edge of the safe range, -0, and escapes that decode to well-formed text", () => {
    expect(parseInboundJson(`[${Number.MAX_SAFE_INTEGER},${-Number.MAX_SAFE_INTEGER},0,-0]`)).toEqual([
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      0,
      -0,
    ]);
    expect(parseInboundJson('{"a":"\\ud83d\\ude00","\\u0062":"\\\\ud800","c":"\\"[{"}')).toEqual({
      a: "😀",
      b: "\\ud800",
      c: '"[{',
    });
  });

  it("tells keys from values: the same string as a key and a value, and equal keys in different objects, are fine", () => {
    expect(parseInboundJson('{"a":"a","b":{"a":1},"c":[{"a":1},{"a":2}]}')).toEqual({
      a: "a",
      b: { a: 1 },
      c: [{ a: 1 }, { a: 2 }],
    });
    expect(parseInboundJson('[{},"",{}, "x", {"k":{}}, "k"]')).toEqual([{}, "", {}, "x", { k: {} }, "k"]);
  });

  it("scans a body of the largest size without overflowing the stack", () => {
    refuses(nested(LIMITS.request_bytes / 2), { code: "E_SCHEMA" });
  });

  describe("when the text is not JSON or nests too deep", () => {
    it("refuses invalid JSON with E_SCHEMA", () => {
      for (const text of ["{not json", "", '{"a":1,}', "[1 2]"]) refuses(text, { code: "E_SCHEMA" });
    });

    it("refuses one level over the limit with E_SCHEMA naming it, and accepts exactly the limit", () => {
      expect(parseInboundJson(nested(LIMITS.json_depth))).toBeDefined();
      refuses(nested(LIMITS.json_depth + 1), {
        code: "E_SCHEMA",
        message: expect.stringContaining(String(LIMITS.json_depth)),
      });
      expect(parseInboundJson(JSON.stringify({ s: "[".repeat(1000) }))).toEqual({ s: "[".repeat(1000) });
    });

    it("reports the depth before a profile violation earlier in the text", () => {
      refuses(`[1.5,${nested(LIMITS.json_depth + 1)}]`, { code: "E_SCHEMA" });
    });
  });

  describe("when an object holds a key twice", () => {
    it("refuses it with E_NOT_CANONICAL naming the key and its path", () => {
      refuses('{"submission":{"body":"a","body":"b"}}', {
        code: "E_NOT_CANONICAL",
        message: expect.stringContaining('duplicate key "body"'),
        details: { path: "$.submission.body" },
      });
    });

    it("compares keys after unescaping them", () => {
      refuses('{"a":1,"\\u0061":2}', { code: "E_NOT_CANONICAL" });
      refuses('[0,{"x":{},"y":1,"x":2}]', { code: "E_NOT_CANONICAL", details: { path: "$[1].x" } });
    });

    it("finds a duplicate injected into any object", () => {
      fc.assert(
        fc.property(
          fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), integerJson, { minKeys: 1, maxKeys: 5 }),
          (object) => {
            const key = Object.keys(object)[0]!;
            const text = `{${JSON.stringify(key)}:0,${JSON.stringify(object).slice(1)}`;
            refuses(text, { code: "E_NOT_CANONICAL" });
          },
        ),
      );
    });
  });

  describe("when a number is not a safe integer literal", () => {
    it.each([
      ["a fraction", '{"n":1.5}', "$.n"],
      ["an integral fraction", '{"n":1.0}', "$.n"],
      ["an exponent", '{"n":1e3}', "$.n"],
      ["a fraction that rounds to an integer", '{"n":1.0000000000000001}', "$.n"],
      ["2^53, just past the safe range", `{"n":${2 ** 53}}`, "$.n"],
      ["a negative one past the range", `[-${2 ** 53}]`, "$[0]"],
      ["one that rounds onto a safe integer", '{"a":[0,9007199254740993]}', "$.a[1]"],
    ])("refuses %s with E_NOT_CANONICAL at its path", (_, text, path) => {
      refuses(text, { code: "E_NOT_CANONICAL", details: { path } });
    });
  });

  describe("when a string escapes a lone surrogate", () => {
    it("refuses it in a value and in a key with E_NOT_CANONICAL", () => {
      refuses('{"body":"\\ud800"}', { code: "E_NOT_CANONICAL", details: { path: "$.body" } });
      refuses('{"ok":"\\udc00 then \\ud83d\\ude00"}', { code: "E_NOT_CANONICAL" });
      refuses('{"\\ud83d":1}', { code: "E_NOT_CANONICAL" });
    });
  });
});
