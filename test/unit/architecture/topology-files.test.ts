/**
 * How many files a new topology touches (issue 38; docs/ARCHITECTURE.md "Where a change goes"):
 * its schema in the protocol's union (src/protocol/schemas/topology.ts), its line in the dispatch
 * (src/protocol/policy/topology.ts), and its module in src/protocol/policy/topologies/. Every
 * source file is read with its comments removed; a file names a topology when it has its kind in
 * quotes or imports its module. The demo plays a debate by name (a scenario, not a list a new
 * topology joins), and "open" is an everyday word (open rooms, open listings), so it is held to
 * the module count alone.
 */
import { describe, expect, it } from "vitest";
import { TopologySchema } from "../../../src/protocol/index.js";
import { sourceFiles } from "../../support/source-tree.js";

/** The union of topologies, and the dispatch typed against it. */
const SHARED = ["src/protocol/schemas/topology.ts", "src/protocol/policy/topology.ts"];
/** The demo's scenarios, which create tables of a topology by name. */
const DEMO = /^src\/demo\//;
const KINDS = TopologySchema.options.map((option) => option.shape.kind.value);
const FILES = sourceFiles();

/** A topology's module: its kind, with `_` written `-`. */
const moduleOf = (kind: string) => `src/protocol/policy/topologies/${kind.replace(/_/g, "-")}.ts`;

function names(code: string, kind: string): boolean {
  const module = kind.replace(/_/g, "-");
  return (
    new RegExp(`["'\`]${kind}["'\`]`).test(code) || new RegExp(`["'][^"']*topologies/${module}\\.js["']`).test(code)
  );
}

describe("the files a topology touches", () => {
  it.each(KINDS.filter((kind) => kind !== "open"))(
    "names %s only in the union, the dispatch and its own module",
    (kind) => {
      const naming = FILES.filter((f) => !DEMO.test(f.path) && names(f.code, kind) && f.path !== moduleOf(kind)).map(
        (f) => f.path,
      );
      expect(naming.sort()).toEqual([...SHARED].sort());
    },
  );

  it("has one module per topology, each imported only by the dispatch", () => {
    for (const kind of KINDS) {
      expect(
        FILES.some((f) => f.path === moduleOf(kind)),
        moduleOf(kind),
      ).toBe(true);
      const importers = FILES.filter((f) => names(f.code.replace(/["'`]\w+["'`]/g, ""), kind)).map((f) => f.path);
      expect(importers, kind).toEqual(["src/protocol/policy/topology.ts"]);
    }
  });

  it("adds three files for a new topology: the union, the dispatch and one module", () => {
    const everyKind = FILES.filter((f) => KINDS.every((kind) => names(f.code, kind))).map((f) => f.path);
    expect(everyKind.sort()).toEqual([...SHARED].sort());
  });
});
