/**
 * The house's import rules (docs/ARCHITECTURE.md), read from the source itself: no import circles
 * anywhere in src, worker and durable-objects (type-only imports count: a type circle is a layering
 * mistake too), and no arrow from a top folder to one above it. Every relative import is walked,
 * including `import type`, `export … from` and `import()`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

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

/** Every TypeScript source file under the three source roots. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) found.push(path);
    }
  };
  for (const top of ["src", "worker", "durable-objects"]) walk(join(ROOT, top));
  return found;
}

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
    const targets = importedFiles.filter((i) => i.fileName.startsWith(".")).map((i) => resolve(dirname(file), i.fileName.replace(/\.js$/, ".ts")));
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

const graph = importGraph(sources());

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

  it("finds a circle and an upward arrow when there is one", () => {
    const [a, b] = [join(ROOT, "src/protocol/a.ts"), join(ROOT, "src/protocol/b.ts")];
    expect(circles(new Map([[a, [b]], [b, [a]]]))).toEqual([["src/protocol/a.ts", "src/protocol/b.ts"]]);
    expect(MAY_IMPORT[topOf(join(ROOT, "src/protocol/x.ts"))]).not.toContain(topOf(join(ROOT, "src/cli/main.ts")));
  });
});
