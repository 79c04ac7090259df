/**
 * The table of limits (src/protocol/limits/registry.ts, decision 0387): every limit the code uses
 * or refuses with is a row of it, and the constants the objects count by agree with their rows.
 * LIMITS, OPERATOR_LIMITS, DEMO_LIMITS and the invite and bind-code windows are derived from it;
 * the note window of the table object is read from its source and compared.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEMO_LIMITS,
  LIMIT_LAYERS,
  LIMIT_TABLE,
  LIMITS,
  limitRows,
  limitSetting,
  OPERATOR_LIMITS,
  type LimitName,
  type OperatorLimitName,
} from "../../../src/protocol/index.js";
import { ERROR_CODES } from "../../../src/protocol/errors.js";
import { REPO_ROOT as ROOT, sourceFiles } from "../../support/source-tree.js";

const names = new Set<string>(Object.keys(LIMIT_TABLE));
const rowsOf = (kind: string) =>
  limitRows()
    .filter((r) => r.row.kind === kind)
    .map((r) => r.name);

describe("the table of limits", () => {
  it("is where LIMITS, OPERATOR_LIMITS and DEMO_LIMITS come from, name by name and in its order", () => {
    expect(Object.keys(LIMITS)).toEqual(rowsOf("published"));
    expect(Object.keys(OPERATOR_LIMITS)).toEqual(rowsOf("operator"));
    expect(Object.keys(DEMO_LIMITS)).toEqual(rowsOf("operator"));
    for (const name of rowsOf("published"))
      expect(LIMITS[name as keyof typeof LIMITS]).toBe((LIMIT_TABLE[name] as { value: number }).value);
  });

  it("says for every row where it is counted and which codes answer it, from the closed lists", () => {
    for (const { name, row } of limitRows()) {
      expect(row.counted.length, name).toBeGreaterThan(0);
      for (const layer of row.counted) expect(Object.keys(LIMIT_LAYERS), name).toContain(layer);
      for (const code of row.codes) expect(Object.keys(ERROR_CODES), name).toContain(code);
      expect(row.what.length, name).toBeGreaterThan(0);
    }
  });

  it("names every limit a refusal in the code carries, with the code that refusal has", () => {
    const refused = sourceFiles().flatMap((f) =>
      [...f.text.matchAll(/rateLimited\(\s*"(\w+)"/g)].map((m) => ({ path: f.path, name: m[1]! })),
    );
    expect(refused.length).toBeGreaterThan(5);
    for (const { path, name } of refused) {
      expect(names.has(name), `${path} refuses over "${name}", which is not a row`).toBe(true);
      expect(LIMIT_TABLE[name as LimitName].codes, `${path}: ${name}`).toContain("E_RATE_LIMITED");
    }
    const detailed = sourceFiles().flatMap((f) =>
      [...f.text.matchAll(/\{\s*limit: "(\w+)"/g)].map((m) => ({ path: f.path, name: m[1]! })),
    );
    expect(detailed.length).toBeGreaterThan(2);
    for (const { path, name } of detailed)
      expect(names.has(name), `${path} names limit "${name}", which is not a row`).toBe(true);
  });

  it("has an operator row for every TRESTLE_LIMIT_ setting the code, wrangler.toml and the docs name", () => {
    const settings = new Set(rowsOf("operator").map((name) => limitSetting(name as OperatorLimitName)));
    const texts = [
      ...sourceFiles().map((f) => f.text),
      readFileSync(join(ROOT, "wrangler.toml"), "utf8"),
      ...["SELF-HOST.md", "SPEC.md", "SECURITY.md"].map((doc) => readFileSync(join(ROOT, "docs", doc), "utf8")),
    ];
    const named = texts
      .flatMap((t) => [...t.matchAll(/TRESTLE_LIMIT_([A-Z0-9_]+)/g)].map((m) => `TRESTLE_LIMIT_${m[1]!}`))
      .filter((s) => s !== "TRESTLE_LIMIT_");
    expect(named.length).toBeGreaterThan(3);
    for (const setting of named) expect(settings, setting).toContain(setting);
  });

  it("agrees with the note window the table object counts by", () => {
    const text = readFileSync(join(ROOT, "durable-objects/table/writing/owner-channel.ts"), "utf8");
    const m = /NOTE_LIMITS = \{ per_window: (\d+), window_ms: (\d+) \* (\d+) \* (\d+) \}/.exec(text);
    expect(m, "NOTE_LIMITS in owner-channel.ts").not.toBeNull();
    const [, count, a, b, c] = m!.map(Number);
    expect({ count, window_ms: a! * b! * c! }).toEqual({
      count: LIMIT_TABLE.notes_per_seat.count,
      window_ms: LIMIT_TABLE.notes_per_seat.window_ms,
    });
  });

  it("keeps a setting's bounds around its defaults", () => {
    const row = LIMIT_TABLE.socket_auth_ms;
    for (const value of [row.default, row.demo]) expect(value >= row.min && value <= row.max).toBe(true);
  });
});
