/**
 * Canonical JSON text read without parsing it (encoding/canonical-text.ts): an object's top-level
 * string members cut out of its canonical text give exactly the canonical text of the object
 * without them, wherever they sit, and nothing nested or quoted is mistaken for them.
 */
import { describe, expect, it } from "vitest";
import { canonicalize } from "../../../src/protocol/index.js";
import { withoutStringMembers } from "../../../src/protocol/encoding/canonical-text.js";

/** The object without `keys`, written canonically: what the cut must equal. */
function written(value: Record<string, unknown>, keys: readonly string[]): string {
  return canonicalize(Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key))));
}

describe("withoutStringMembers", () => {
  it.each([
    ["in the middle", { a: 1, leaf: "x", link: "y", z: [1, { leaf: "n" }] }],
    ["first", { leaf: "x", link: "y", z: 2 }],
    ["first and apart", { leaf: "x", m: { link: "nested" }, link: "y" }],
    ["last", { a: { b: [] }, leaf: "x", link: "y" }],
    ["the only ones", { leaf: "x", link: "y" }],
    ["after strings that spell them", { a: '"leaf":"q","link":"r"', b: "\\", c: '\\"', leaf: 'x"\\', link: "é\u2028" }],
  ])("cuts the members %s to the canonical text of the object without them", (_, value) => {
    expect(withoutStringMembers(canonicalize(value), ["leaf", "link"])).toBe(written(value, ["leaf", "link"]));
  });

  describe("when a member is not there as a string at the top level", () => {
    it.each([
      ["absent", { a: 1, leaf: "x" }],
      ["only nested", { a: { link: "y" }, leaf: "x" }],
      ["not a string", { leaf: "x", link: 7 }],
    ])("answers null when it is %s", (_, value) => {
      expect(withoutStringMembers(canonicalize(value), ["leaf", "link"])).toBeNull();
    });
  });
});
