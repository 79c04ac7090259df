/**
 * The limits in the docs are the table of limits (src/protocol/limits/registry.ts, decision 0387):
 * docs/SELF-HOST.md "Where each limit is counted" is that table rendered, row for row, and the
 * rows of docs/SPEC.md §10.1 are the operator limits with their defaults and public-demo defaults.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LIMIT_LAYERS, limitRows, type LimitRow } from "../../../src/protocol/index.js";

const doc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), "utf8");

/** The text of `text` from `from` up to the next `to` after it. */
function section(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  expect(start, from).toBeGreaterThanOrEqual(0);
  return text.slice(start, text.indexOf(to, start + from.length));
}

/** A duration in the largest whole unit of ms, s, min, h or days. */
function duration(ms: number): string {
  for (const [unit, size] of [
    ["days", 86_400_000],
    ["h", 3_600_000],
    ["min", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size} ${unit}`;
  }
  return `${ms} ms`;
}

/** One row's value cell: the value; an operator limit's default, its demo default and any bounds; a window's count per window. */
function valueCell(row: LimitRow): string {
  if (row.kind === "published") return String(row.value);
  if (row.kind === "window") return `${row.count} per ${duration(row.window_ms)}`;
  const bounds = row.min !== undefined && row.max !== undefined ? `; ${row.min} to ${row.max}` : "";
  return `${row.default} (demo ${row.demo}${bounds})`;
}

/** The table of limits as docs/SELF-HOST.md shows it. */
function rendered(): string {
  const kinds = { published: "published", operator: "operator", window: "fixed window" } as const;
  const rows = limitRows().map(({ name, row }) => {
    const codes = row.codes.length === 0 ? "none" : row.codes.map((c) => `\`${c}\``).join(", ");
    return `| \`${name}\` | ${kinds[row.kind]} | ${valueCell(row)} | ${row.unit} | ${row.counted.join(", ")} | ${codes} |`;
  });
  const layers = Object.entries(LIMIT_LAYERS).map(([layer, where]) => `- ${layer}: ${where}`);
  return [
    "| limit | kind | value | unit | counted at | refused with |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...layers,
  ].join("\n");
}

describe("docs/SELF-HOST.md's table of limits", () => {
  it("is the table in src/protocol/limits/registry.ts, row for row", () => {
    const text = section(doc("SELF-HOST.md"), "| limit | kind | value |", "\n\n#");
    expect(text.trim(), `regenerate the table from this:\n${rendered()}`).toBe(rendered());
  });
});

describe("docs/SPEC.md §10.1", () => {
  it("lists every operator limit, in the table's order, with its default and its public demo's", () => {
    const text = section(doc("SPEC.md"), "### 10.1 Operator limits", "\n## ");
    const cells = [...text.matchAll(/^\| `(\w+)` \| [^|]+ \| (\d+) \| (\d+) \|$/gm)].map(([, name, deflt, demo]) => ({
      name,
      default: Number(deflt),
      demo: Number(demo),
    }));
    const operator = limitRows().flatMap(({ name, row }) =>
      row.kind === "operator" ? [{ name, default: row.default, demo: row.demo }] : [],
    );
    expect(cells).toEqual(operator);
  });
});
