/**
 * src/cli sits on top (decision 0365): the text every surface shares lives in src/text, so no
 * module outside src/cli imports from src/cli. Read from the import lines of every source file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const CLI = join(ROOT, "src/cli");

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => join(d.parentPath, d.name));
}

/** The relative module paths `file` imports, resolved against its folder. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)[^;]*?from "(\.[^"]+)"/gms)].map((m) => resolve(dirname(file), m[1] ?? ""));
}

describe("the CLI's place in the layout", () => {
  it("is imported by no module outside src/cli", () => {
    const outside = ["src", "worker", "durable-objects"].flatMap((top) => sources(join(ROOT, top))).filter((f) => !f.startsWith(CLI + "/") && !f.startsWith(CLI + "\\"));
    const upward = outside.flatMap((f) => importsOf(f).filter((target) => target.startsWith(CLI + "/")).map((target) => `${relative(ROOT, f)} -> ${relative(ROOT, target)}`));
    expect(outside.length).toBeGreaterThan(100);
    expect(upward).toEqual([]);
  });
});
