/** The docs name what the code does: every error code in SPEC §9 with its status, every Worker route in SPEC §6.1, and the README's quick start. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../src/protocol/errors.js";

const spec = readFileSync(new URL("../../../docs/SPEC.md", import.meta.url), "utf8");
const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const source = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

/** Every `METHOD /path` the Worker serves, read from worker/index.ts and the route modules it mounts. */
function workerRoutes(): string[] {
  const index = source("worker/index.ts");
  const routes = [...index.matchAll(/^app\.(get|post)\(\s*"([^"]+)"/gm)].map((m) => `${m[1]!.toUpperCase()} ${m[2]}`);
  for (const [, prefix, name] of index.matchAll(/^app\.route\(\s*"([^"]+)",\s*(\w+),?\s*\)/gm)) {
    const module = new RegExp(`import \\{\\s*${name},?\\s*\\} from "\\./(routes/[\\w-]+)\\.js"`).exec(index)![1];
    const text = source(`worker/${module}.ts`);
    for (const [, method, path] of text.matchAll(new RegExp(`^${name}\\.(get|post)\\(\\s*"([^"]+)"`, "gm"))) {
      routes.push(`${method!.toUpperCase()} ${prefix}${path === "/" ? "" : path}`);
    }
  }
  return routes.sort();
}

describe("docs", () => {
  it("lists every error code in SPEC §9 with its HTTP status, and no others", () => {
    const rows = [...spec.matchAll(/^\| `(E_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v.http])),
    );
  });

  it("lists every route the Worker serves in SPEC §6.1, and no others", () => {
    const section = spec.slice(spec.indexOf("### 6.1 Routes"), spec.indexOf("### 6.2"));
    const documented = [...section.matchAll(/^\| `(GET|POST) ([^`?]+)(?:\?[^`]*)?` \|/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(documented.sort()).toEqual(workerRoutes());
  });

  it("keeps the README quick start: one command to run the relay, one to test", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });
});
