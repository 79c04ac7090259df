/**
 * How many files a new CLI verb touches (issue 38; docs/ARCHITECTURE.md "Where a change goes"):
 * its module in src/cli/commands/ and its line in the registry (src/cli/commands/index.ts), then
 * its section in docs/CLI.md (test/unit/docs/cli-docs.test.ts). `trestle help`, the argument
 * parser and the docs' checks read the registry; a family of verbs (`room offer`, `market bid`, …)
 * is one module exporting its list. Checked on the code with comments removed: outside
 * src/cli/commands no module of verbs is imported but through the registry (the Command type and
 * the shared bodies of writing verbs may be), and the registry reaches every module there.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../src/cli/commands/index.js";
import { sourceFiles } from "../../support/source-tree.js";

const FILES = sourceFiles(["src", "worker", "durable-objects", "scripts"], /(?<!\.d)\.(ts|mjs)$/);
const COMMAND_DIR = "src/cli/commands/";
const REGISTRY = `${COMMAND_DIR}index.ts`;

/** The folder's modules a module imports, by path. */
function siblings(code: string): string[] {
  return [...code.matchAll(/from\s+["']\.\/([a-z-]+)\.js["']/g)].map((m) => `${COMMAND_DIR}${m[1]}.ts`);
}

describe("the files a CLI verb touches", () => {
  it("has every module of verbs reached from outside src/cli/commands only through the registry", () => {
    const registry = FILES.find((f) => f.path === REGISTRY)!;
    const verbModules = new Set(
      siblings(registry.code)
        .map((path) => path.slice(COMMAND_DIR.length, -".ts".length))
        .filter((name) => name !== "command"),
    );
    const outside = FILES.filter((f) => !f.path.startsWith(COMMAND_DIR));
    const reaching = outside.flatMap((f) =>
      [...f.code.matchAll(/from\s+["']([^"']*commands\/([a-z-]+)\.js)["']/g)]
        .filter((m) => verbModules.has(m[2]!))
        .map((m) => `${f.path} → ${m[1]}`),
    );
    expect(verbModules.size).toBeGreaterThan(10);
    expect(reaching).toEqual([]);
  });

  it("reaches every module of src/cli/commands from the registry: a verb is registered by one line there", () => {
    const folder = new Map(FILES.filter((f) => f.path.startsWith(COMMAND_DIR)).map((f) => [f.path, f.code]));
    const reached = new Set([REGISTRY]);
    const queue = [REGISTRY];
    for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
      for (const next of siblings(folder.get(path) ?? ""))
        if (!reached.has(next)) (reached.add(next), queue.push(next));
    }
    expect([...folder.keys()].filter((path) => !reached.has(path))).toEqual([]);
  });

  it("lists every verb once in the registry", () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
