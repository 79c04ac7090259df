/** RFC 8785 canonical JSON in the trestle profile (integers only): published vectors and refusals. */
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalBytes, canonicalize, fromHex, jsonEqual, parseCanonical } from "../../../src/protocol/index.js";
import { integerJson } from "./fixtures.js";
import { refusal } from "../../support/refused.js";

const JCS = new URL("../../vectors/jcs/", import.meta.url);
const NAMES = readdirSync(new URL("input/", JCS))
  .filter((f) => f.endsWith(".json"))
  .map((f) => basename(f, ".json"))
  .sort();
/** RFC 8785 vectors whose inputs hold non-integer numbers, which the trestle profile refuses. */
const NON_INTEGER = new Set(["values"]);

const input = (name: string): unknown => JSON.parse(readFileSync(new URL(`input/${name}.json`, JCS), "utf8"));
const output = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`output/${name}.json`, JCS)));
const outhex = (name: string): Uint8Array =>
  fromHex(readFileSync(new URL(`outhex/${name}.txt`, JCS), "ascii").replace(/\s+/g, ""));

describe("canonicalize: RFC 8785 vectors (cyberphone/json-canonicalization)", () => {
  it("finds all six published vectors", () => {
    expect(NAMES).toEqual(["arrays", "french", "structures", "unicode", "values", "weird"]);
  });

  it.each(NAMES.filter((n) => !NON_INTEGER.has(n)))("produces the exact UTF-8 bytes of %s", (name) => {
    expect(outhex(name)).toEqual(output(name));
    expect(canonicalBytes(input(name))).toEqual(output(name));
  });

  it("refuses the non-integer values vector with E_NOT_CANONICAL naming the first bad number", () => {
    const error = refusal(() => canonicalize(input("values")));
    expect(error.code).toBe("E_NOT_CANONICAL");
    expect(error.details).toEqual({ path: "$.numbers[0]" });
  });

  it("matches the values vector once its numbers are removed", () => {
    const { numbers: _numbers, ...rest } = input("values") as Record<string, unknown>;
    const expected = new TextDecoder().decode(output("values")).replace(/"numbers":\[[^\]]*\],/, "");
    expect(canonicalize(rest)).toBe(expected);
  });
});

describe("canonicalize: the trestle profile", () => {
  it("prints -0 as 0", () => {
    expect(canonicalize(-0)).toBe("0");
    expect(canonicalize({ a: [-0] })).toBe('{"a":[0]}');
  });

  it("prints the largest safe integers exactly", () => {
    expect(canonicalize([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])).toBe(
      "[9007199254740991,-9007199254740991]",
    );
  });

  it("sorts keys by UTF-16 code units, not by code point or locale", () => {
    // U+FB33 is one unit 0xFB33; U+1F602 is the pair D83D DE02, so it sorts first by code units
    // although its code point is larger.
    const value = { "\uFB33": 1, "\u{1F602}": 2, b: 3, B: 4, "10": 5, "1": 6, "": 7 };
    expect(canonicalize(value)).toBe('{"":7,"1":6,"10":5,"B":4,"b":3,"\u{1F602}":2,"\uFB33":1}');
  });

  it("treats __proto__ as an ordinary key", () => {
    const parsed = JSON.parse('{"z":1,"__proto__":{"x":2},"a":3}') as unknown;
    expect(canonicalize(parsed)).toBe('{"__proto__":{"x":2},"a":3,"z":1}');
    expect(canonicalize({ ["__proto__"]: 1 })).toBe('{"__proto__":1}');
  });

  it("accepts objects without a prototype", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: null });
    expect(canonicalize(bare)).toBe('{"a":null,"b":1}');
  });

  it("escapes control characters as RFC 8785 §3.2.2.2 requires", () => {
    expect(canonicalize('\u0000\b\t\n\f\r\u001f"\\/\u007f')).toBe('"\\u0000\\b\\t\\n\\f\\r\\u001f\\"\\\\/\u007f"');
  });

  it("keeps a surrogate pair as UTF-8 of its code point", () => {
    expect(canonicalBytes("\u{1F602}")).toEqual(Uint8Array.of(0x22, 0xf0, 0x9f, 0x98, 0x82, 0x22));
  });

  it("accepts the same object twice when it is shared, not cyclic", () => {
    const shared = { a: 1 };
    expect(canonicalize([shared, { b: shared }])).toBe('[{"a":1},{"b":{"a":1}}]');
  });

  describe("when the value is not plain integer JSON", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cyclicArray: unknown[] = [];
    cyclicArray.push(cyclicArray);
    class Point {
      x = 1;
    }
    const cases: [string, unknown, string][] = [
      ["undefined", undefined, "$"],
      ["undefined inside an object", { a: undefined }, "$.a"],
      ["undefined inside an array", [1, undefined], "$[1]"],
      ["NaN", NaN, "$"],
      ["Infinity", Infinity, "$"],
      ["-Infinity", { n: -Infinity }, "$.n"],
      ["a bigint", 1n, "$"],
      ["a non-integer number", 1.5, "$"],
      ["an integer beyond 2^53", 2 ** 53, "$"],
      ["a class instance", new Point(), "$"],
      ["a Date", { at: new Date(0) }, "$.at"],
      ["a Map", new Map(), "$"],
      ["a boxed string", { s: new String("x") }, "$.s"],
      ["a Uint8Array", Uint8Array.of(1), "$"],
      ["a function", { f: () => 1 }, "$.f"],
      ["a symbol", Symbol("s"), "$"],
      ["an object with symbol keys", { [Symbol("s")]: 1 }, "$"],
      ["a sparse array", [1, , 3], "$[1]"],
      ["an array subclass", new (class extends Array {})(), "$"],
      ["a cyclic object", cyclic, "$.self"],
      ["a cyclic array", cyclicArray, "$[0]"],
      ["a lone high surrogate", "a\uD800b", "$"],
      ["a lone low surrogate at the end", "ab\uDC00", "$"],
      ["a reversed surrogate pair", "\uDC00\uD800", "$"],
      ["a lone surrogate in a key", { "k\uD800": 1 }, "$"],
    ];

    it.each(cases)("refuses %s with E_NOT_CANONICAL", (_what, value, path) => {
      const error = refusal(() => canonicalize(value));
      expect(error.code).toBe("E_NOT_CANONICAL");
      expect(error.details).toEqual({ path });
    });
  });

  describe("property", () => {
    it("is a fixed point: canonicalize(JSON.parse(canonicalize(x))) === canonicalize(x)", () => {
      fc.assert(
        fc.property(integerJson, (value) => {
          const text = canonicalize(value);
          expect(canonicalize(JSON.parse(text))).toBe(text);
        }),
        { seed: 8785, numRuns: 500 },
      );
    });
  });
});

/** What parseCanonical must say of `text`: its value when canonicalize(JSON.parse(text)) is `text`, else undefined. */
function canonicalValue(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return canonicalize(value) === text ? value : undefined;
  } catch {
    return undefined;
  }
}

describe("parseCanonical", () => {
  it("gives the value of a canonical text, as canonicalize would accept it", () => {
    fc.assert(
      fc.property(integerJson, (value) => {
        const text = canonicalize(value);
        expect(parseCanonical(text)).toEqual(JSON.parse(text));
      }),
      { seed: 8785, numRuns: 500 },
    );
  });

  it("accepts integer-like keys in canonical order, which JavaScript orders otherwise", () => {
    expect(parseCanonical('{"10":1,"9":2,"a":3}')).toEqual({ 10: 1, 9: 2, a: 3 });
    expect(parseCanonical('{"\\u0000":1,"\\u001f":2}')).toEqual({ "\u0000": 1, "\u001f": 2 });
    expect(parseCanonical('["\\\\ud800"]')).toEqual(["\\ud800"]);
  });

  describe("when the text is not canonical", () => {
    it("says so exactly when canonicalize of its parse differs or refuses", () => {
      const texts = [
        '{"b":1,"a":2}',
        '{"a":1,"a":1}',
        '{"a":1, "b":2}',
        '{"9":1,"10":2}',
        "1.5",
        "1e2",
        "-0",
        "9007199254740994",
        '"\\ud800"',
        '{"\\ud800":1}',
        '["\\u0041"]',
        '"\\u00e9"',
        '"\\/"',
        '["\\ud83d\\ude00"]',
        "[1,]",
        "",
        " 1",
        "01",
        '{"__proto__":1,"a":{"c":1,"b":2}}',
        "true ",
        "nul",
      ];
      for (const text of texts) {
        expect(canonicalValue(text)).toBeUndefined();
        expect(parseCanonical(text)).toBeUndefined();
      }
    });

    it("agrees with canonicalize on texts written without its rules", () => {
      fc.assert(
        fc.property(fc.json(), (text) => {
          expect(parseCanonical(text)).toEqual(canonicalValue(text));
        }),
        { seed: 8785, numRuns: 1000 },
      );
    });
  });
});

describe("jsonEqual", () => {
  it("says two values are equal exactly when their canonical JSON is", () => {
    fc.assert(
      fc.property(integerJson, integerJson, (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonicalize(a) === canonicalize(b));
        expect(jsonEqual(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("ignores key order and tells arrays, objects, null and missing keys apart", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(1.5, 1.5)).toBe(false);
  });
});
