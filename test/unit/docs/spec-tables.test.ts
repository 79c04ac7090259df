/**
 * The lists in docs/SPEC.md that a client written from the docs alone relies on, derived from the
 * code so they cannot drift: the entry kinds and system subkinds of §3.1, the grant scope pattern,
 * and the currencies of §5.10 with their minor digits (which the CLI and MCP tools show by).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { majorUnits } from "../../../src/text/terms.js";
import {
  AuthoredKindSchema,
  GRANT_SCOPE,
  ISO_4217,
  minorDigits,
  SystemEntrySchema,
} from "../../../src/protocol/index.js";

const spec = readFileSync(new URL("../../../docs/SPEC.md", import.meta.url), "utf8");

/** The text of SPEC from heading `from` up to heading `to`. */
function section(from: string, to: string): string {
  const start = spec.indexOf(from);
  expect(start, from).toBeGreaterThanOrEqual(0);
  return spec.slice(start, spec.indexOf(to, start));
}

/** The first cells of the table whose header row starts with `| <first> |`, in `text`. */
function firstColumn(text: string, first: string): string[] {
  const start = text.indexOf(`| ${first} |`);
  expect(start, `a table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const rows = text.slice(start).split("\n");
  const end = rows.findIndex((row) => !row.startsWith("|"));
  return rows.slice(2, end).map((row) => row.split("|")[1]!.trim().replace(/^`|`$/g, ""));
}

describe("SPEC §3.1 entry shapes", () => {
  const text = section("### 3.1 Entry shapes", "### 3.2");

  it("lists every kind a seat can write, and no others", () => {
    expect(firstColumn(text, "kind").sort()).toEqual([...AuthoredKindSchema.options].sort());
  });

  it("lists every system subkind in the schema, and no others", () => {
    const subkinds = SystemEntrySchema.options.map((o) => o.shape.subkind.value);
    expect(firstColumn(text, "subkind").sort()).toEqual([...subkinds].sort());
  });
});

describe("SPEC grant scopes", () => {
  it("states the scope pattern the schema holds, in §3.1 and §5.10", () => {
    const pattern = `\`${GRANT_SCOPE.source}\``;
    expect(section("### 3.1 Entry shapes", "### 3.2")).toContain(pattern);
    expect(section("### 5.10 Rooms", "### 5.11")).toContain(pattern);
  });
});

describe("SPEC §5.10 currencies", () => {
  const rows = [...section("### 5.10 Rooms", "### 5.11").matchAll(/^\| ([0-9]) \| ([0-9]+) \| (.+) \|$/gm)];

  it("lists every accepted code once, with its minor digits and its major unit, and no others", () => {
    const documented = rows.flatMap(([, digits, major, codes]) => {
      expect(Number(major)).toBe(10 ** Number(digits));
      return [...codes!.matchAll(/`([A-Z]{3})`/g)].map((m) => [m[1], Number(digits)] as const);
    });
    expect(documented.map(([code]) => code).sort()).toEqual([...ISO_4217]);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(ISO_4217.map((c) => [c, minorDigits(c)])));
  });

  it.each(ISO_4217.map((c) => [c, minorDigits(c)] as const))(
    "shows %s in major units with %i decimals",
    (code, digits) => {
      const shown = majorUnits(1234567, code);
      expect(shown).toBe(digits === 0 ? "1,234,567" : digits === 2 ? "12,345.67" : "1,234.567");
    },
  );
});
