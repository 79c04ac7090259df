/** Inbound JSON (SPEC §2.1): bodies, frames and read authorizations are JSON in the canonical profile, nested at most 64 deep. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalize, LIMITS, parseInboundJson, TrestleError } from "../../../src/protocol/index.js";

/** The TrestleError parseInboundJson throws for `text`, or a failure if it accepts it. */
function refusal(text: string): TrestleError {
  try {
    parseInboundJson(text);
  } catch (error) {
    if (error instanceof TrestleError) return error;
    throw error;
  }
  throw new Error(`accepted ${text.slice(0, 80)}`);
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** JSON values inside the profile: safe integers, any well-formed strings, unique keys. */
const profileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.string({ unit: "grapheme" }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: "grapheme", maxLength: 8 }), tie("value"), { maxKeys: 5 }),
  ),
})).value;

describe("parseInboundJson", () => {
  it("returns what JSON.parse returns for any value in the profile, compact, indented or canonical", () => {
    fc.assert(
      fc.property(profileValue, (value) => {
        for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2), canonicalize(value)]) {
          expect(parseInboundJson(text)).toEqual(JSON.parse(text));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts integers at the edge of the safe range, -0, and escapes that decode to well-formed text", () => {
    expect(parseInboundJson(`[${Number.MAX_SAFE_INTEGER},${-Number.MAX_SAFE_INTEGER},0,-0]`)).toEqual([2 ** 53 - 1, -(2 ** 53 - 1), 0, -0]);
    expect(parseInboundJson('{"a":"\\ud83d\\ude00","\\u0062":"\\\\ud800","c":"\\"[{"}')).toEqual({ a: "😀", b: "\\ud800", c: '"[{' });
  });

  it("tells keys from values: the same string as a key and a value, and equal keys in different objects, are fine", () => {
    expect(parseInboundJson('{"a":"a","b":{"a":1},"c":[{"a":1},{"a":2}]}')).toEqual({ a: "a", b: { a: 1 }, c: [{ a: 1 }, { a: 2 }] });
    expect(parseInboundJson('[{},"",{}, "x", {"k":{}}, "k"]')).toEqual([{}, "", {}, "x", { k: {} }, "k"]);
  });

  it("scans a body of the largest size without overflowing the stack", () => {
    expect(refusal(nested(LIMITS.request_bytes / 2)).code).toBe("E_SCHEMA");
  });

  describe("when the text is not JSON or nests too deep", () => {
    it("refuses invalid JSON with E_SCHEMA", () => {
      for (const text of ["{not json", "", '{"a":1,}', "[1 2]"]) expect(refusal(text).code).toBe("E_SCHEMA");
    });

    it("refuses one level over the limit with E_SCHEMA naming it, and accepts exactly the limit", () => {
      expect(parseInboundJson(nested(LIMITS.json_depth))).toBeDefined();
      expect(refusal(nested(LIMITS.json_depth + 1))).toMatchObject({ code: "E_SCHEMA", message: expect.stringContaining(String(LIMITS.json_depth)) });
      expect(parseInboundJson(JSON.stringify({ s: "[".repeat(1000) }))).toEqual({ s: "[".repeat(1000) });
    });

    it("reports the depth before a profile violation earlier in the text", () => {
      expect(refusal(`[1.5,${nested(LIMITS.json_depth + 1)}]`).code).toBe("E_SCHEMA");
    });
  });

  describe("when an object holds a key twice", () => {
    it("refuses it with E_NOT_CANONICAL naming the key and its path", () => {
      expect(refusal('{"submission":{"body":"a","body":"b"}}')).toMatchObject({
        code: "E_NOT_CANONICAL",
        message: expect.stringContaining('duplicate key "body"'),
        details: { path: "$.submission.body" },
      });
    });

    it("compares keys after unescaping them", () => {
      expect(refusal('{"a":1,"\\u0061":2}').code).toBe("E_NOT_CANONICAL");
      expect(refusal('[0,{"x":{},"y":1,"x":2}]').details).toEqual({ path: "$[1].x" });
    });

    it("finds a duplicate injected into any object", () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string({ unit: "grapheme", maxLength: 8 }), profileValue, { minKeys: 1, maxKeys: 5 }), (object) => {
          const key = Object.keys(object)[0]!;
          const text = `{${JSON.stringify(key)}:0,${JSON.stringify(object).slice(1)}`;
          expect(refusal(text).code).toBe("E_NOT_CANONICAL");
        }),
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
      expect(refusal(text)).toMatchObject({ code: "E_NOT_CANONICAL", details: { path } });
    });
  });

  describe("when a string escapes a lone surrogate", () => {
    it("refuses it in a value and in a key with E_NOT_CANONICAL", () => {
      expect(refusal('{"body":"\\ud800"}')).toMatchObject({ code: "E_NOT_CANONICAL", details: { path: "$.body" } });
      expect(refusal('{"ok":"\\udc00 then \\ud83d\\ude00"}').code).toBe("E_NOT_CANONICAL");
      expect(refusal('{"\\ud83d":1}').code).toBe("E_NOT_CANONICAL");
    });
  });
});
