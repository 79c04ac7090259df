/**
 * cloneState (src/protocol/policy/state.ts) copies everything admit may change and shares only the
 * config, which every fold freezes: writing to it throws (so the whole suite, which folds and
 * replays many ledgers, would catch a policy that changed it), the copy shares no other object
 * with the original, and a "__proto__" key stays data.
 */
import { describe, expect, it } from "vitest";
import { canonicalize, cloneState, fold, type TableState } from "../../../src/protocol/index.js";
import { debateToDecision } from "./fixtures.js";

/** Every object reachable from `value`. */
function objects(value: unknown, out = new Set<object>()): Set<object> {
  if (typeof value === "object" && value !== null && !out.has(value)) {
    out.add(value);
    for (const key of Object.keys(value)) objects((value as Record<string, unknown>)[key], out);
  }
  return out;
}

describe("cloneState", () => {
  it("shares nothing with the original but its frozen config, and equals it", async () => {
    const { entries } = await debateToDecision();
    const state = fold(entries);
    const copy = cloneState(state);
    expect(canonicalize(copy)).toBe(canonicalize(state));
    const config = objects(state.config);
    const shared = [...objects(copy)].filter((o) => objects(state).has(o));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.every((o) => config.has(o))).toBe(true);
    expect(() => {
      (copy.config as { topic: string }).topic = "changed";
    }).toThrow(TypeError);
    expect(() => {
      (copy.config.termination.any as unknown[]).push("decision");
    }).toThrow(TypeError);
  });

  it("leaves the ledger's own table_opened config unfrozen", async () => {
    const { entries } = await debateToDecision();
    fold(entries);
    const opened = entries[0]!;
    expect(opened.kind === "system" && opened.subkind === "table_opened" && Object.isFrozen(opened.data.config)).toBe(
      false,
    );
  });

  it('keeps a "__proto__" key as data', () => {
    const state = JSON.parse('{"table":"t","requests":{"__proto__":{"seq":1}},"config":{}}') as TableState;
    const copy = cloneState(state);
    expect(Object.keys(copy.requests)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy.requests)).toBe(Object.prototype);
  });
});
