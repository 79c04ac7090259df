/**
 * The house's import rules (docs/ARCHITECTURE.md), read from the source itself: no import circles
 * anywhere in src, worker and durable-objects (type-only imports count: a type circle is a layering
 * mistake too), and no arrow from a top folder to one above it. Every relative import is walked,
 * including `import type`, `export … from` and `import()`.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT as ROOT, sourcePaths } from "../../support/source-tree.js";

/**
 * What each top folder may import, lowest first. A folder not named here may not be imported by
 * any other. The browser's viewer script (worker/site/browser) is bundled from the client library,
 * so the worker folder may import src/client, and from the DOM pieces it shares with the principal
 * window's page (src/page).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  "src/protocol": [],
  "src/text": ["src/protocol"],
  "src/page": ["src/protocol", "src/text"],
  "src/client": ["src/protocol", "src/text"],
  "src/owner": ["src/protocol", "src/text", "src/client"],
  "src/chat": ["src/protocol", "src/text"],
  "src/view": ["src/protocol", "src/text", "src/client", "src/owner", "src/page"],
  "src/mcp": ["src/protocol", "src/text", "src/client", "src/owner", "src/view"],
  "src/witness": ["src/protocol", "src/text", "src/client"],
  "src/cli": ["src/protocol", "src/text", "src/client", "src/owner", "src/view", "src/mcp", "src/witness"],
  "src/demo": ["src/protocol", "src/text", "src/client", "src/owner", "src/cli"],
  "durable-objects": ["src/protocol", "src/text", "src/chat"],
  worker: ["src/protocol", "src/text", "src/client", "src/chat", "src/witness", "src/page", "durable-objects"],
};

/** The top folder a file belongs to: `src/<name>` under src, else the first path segment. */
function topOf(file: string): string {
  const [first, second] = relative(ROOT, file).split("/");
  return first === "src" ? `src/${second}` : first!;
}

/** Each file's relative imports, resolved to the .ts files they name. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .filter((i) => i.fileName.startsWith("."))
      .map((i) => resolve(dirname(file), i.fileName.replace(/\.js$/, ".ts")));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan): each is an import circle. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(ROOT, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every file `from` reaches by its imports, itself not included unless a circle returns to it. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const pending = [...(graph.get(from) ?? [])];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(graph.get(file) ?? []));
  }
  return seen;
}

/** The import declarations of `file` that are not `import type`. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements
    .filter(ts.isImportDeclaration)
    .filter((d) => d.importClause?.isTypeOnly !== true)
    .map((d) => (d.moduleSpecifier as ts.StringLiteral).text);
}

/**
 * The table object's layers, lowest first (docs/ARCHITECTURE.md): each a sub-folder or a file of
 * durable-objects/table. A file imports files of its own layer and of layers below it, never above.
 * The ledger machine's Durable Object is object/ledger-object.ts; table.ts, the table's routes, is
 * the top.
 */
const TABLE_LAYERS = [
  "storage/",
  "limits.ts",
  "signing/",
  "approvers.ts",
  "context.ts",
  "sockets/",
  "reading/",
  "writing/",
  "market/",
  "object/",
  "table.ts",
] as const;
const TABLE_ROOT = "durable-objects/table/";

/** The index in TABLE_LAYERS of a file of durable-objects/table (a repo-relative path); -1 when no layer names it. */
function tableLayer(path: string): number {
  const inside = path.slice(TABLE_ROOT.length);
  return TABLE_LAYERS.findIndex((layer) => (layer.endsWith("/") ? inside.startsWith(layer) : inside === layer));
}

/** The arrows between files of durable-objects/table that run from a lower layer to a higher one. */
function upwardTableArrows(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of edges) {
    const from = relative(ROOT, file);
    if (!from.startsWith(TABLE_ROOT)) continue;
    for (const target of targets.map((t) => relative(ROOT, t)).filter((t) => t.startsWith(TABLE_ROOT))) {
      if (tableLayer(target) > tableLayer(from)) wrong.push(`${from} -> ${target}`);
    }
  }
  return wrong;
}

/** What src/protocol/tlog imports besides its own files (docs/ARCHITECTURE.md): the formats, and the one file that reads an entry. */
const TLOG_IMPORTS = {
  formats: [
    "src/protocol/encoding/",
    "src/protocol/signing/crypto.ts",
    "src/protocol/schemas/primitives.ts",
    "src/protocol/errors.ts",
  ],
  "src/protocol/tlog/entry-proof.ts": ["src/protocol/ledger/chain.ts", "src/protocol/schemas/entry.ts"],
} as const;

const graph = importGraph(sourcePaths().map((path) => join(ROOT, path)));

describe("the import rules", () => {
  it("walks the whole house", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(new Set([...graph.keys()].map(topOf))).toEqual(new Set(Object.keys(MAY_IMPORT)));
  });

  it("has no import circles, type-only ones included", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("has no arrow from a top folder to one it may not import", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [from, to] = [topOf(file), topOf(target)];
        if (from === to || relative(ROOT, target) === "package.json") continue;
        if (!MAY_IMPORT[from]!.includes(to)) wrong.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the table object's context below its role modules: it imports only types, and nothing it imports reaches it again", () => {
    const context = join(ROOT, "durable-objects/table/context.ts");
    expect(valueImports(context)).toEqual([]);
    const returning = graph
      .get(context)!
      .filter((target) => target === context || reachable(graph, target).has(context));
    expect(returning.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("puts every file of durable-objects/table in one of its layers", () => {
    const files = [...graph.keys()].map((f) => relative(ROOT, f)).filter((f) => f.startsWith(TABLE_ROOT));
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((f) => tableLayer(f) < 0)).toEqual([]);
  });

  it("has no arrow inside durable-objects/table from a lower layer to a higher one", () => {
    expect(upwardTableArrows(graph)).toEqual([]);
  });

  it("keeps src/protocol/tlog to the encoding, crypto, primitives and errors, and entry-proof.ts alone to the chain and the entry schema", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const path = relative(ROOT, file);
      if (!path.startsWith("src/protocol/tlog/")) continue;
      const own = path in TLOG_IMPORTS ? TLOG_IMPORTS[path as keyof typeof TLOG_IMPORTS] : [];
      const allowed = ["src/protocol/tlog/", ...TLOG_IMPORTS.formats, ...own];
      const fits = (target: string) => allowed.some((a) => (a.endsWith("/") ? target.startsWith(a) : target === a));
      wrong.push(
        ...targets
          .map((f) => relative(ROOT, f))
          .filter((target) => !fits(target))
          .map((target) => `${path} -> ${target}`),
      );
    }
    expect(wrong).toEqual([]);
  });

  it("finds a circle and an upward arrow when there is one", () => {
    const [a, b] = [join(ROOT, "src/protocol/a.ts"), join(ROOT, "src/protocol/b.ts")];
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([["src/protocol/a.ts", "src/protocol/b.ts"]]);
    expect(MAY_IMPORT[topOf(join(ROOT, "src/protocol/x.ts"))]).not.toContain(topOf(join(ROOT, "src/cli/main.ts")));
    const [ledger, writes] = [join(ROOT, TABLE_ROOT, "storage/ledger.ts"), join(ROOT, TABLE_ROOT, "writing/writes.ts")];
    expect(
      upwardTableArrows(
        new Map([
          [ledger, [writes]],
          [writes, [ledger]],
        ]),
      ),
    ).toEqual(["durable-objects/table/storage/ledger.ts -> durable-objects/table/writing/writes.ts"]);
  });
});
