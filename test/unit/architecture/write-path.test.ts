/**
 * docs/ARCHITECTURE.md "The life of a write" stays true of the code: every step names a file that
 * exists and defines the step's function, no file is entered twice, and each step after the first
 * is called from the file of a step before it (by name, as `name(` or `.name(`), so the list is the
 * line a write takes and not a tour of the folders.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, withoutComments } from "../../support/source-tree.js";

const doc = readFileSync(join(REPO_ROOT, "docs/ARCHITECTURE.md"), "utf8");
const section = doc.slice(
  doc.indexOf("## The life of a write"),
  doc.indexOf("\n## ", doc.indexOf("## The life of a write") + 4),
);
const STEPS = [...section.matchAll(/^(\d+)\. `([^`]+)` `([A-Za-z]+)`:/gm)].map((m) => ({
  n: Number(m[1]),
  path: m[2]!,
  name: m[3]!,
}));
const code = (path: string) => withoutComments(readFileSync(join(REPO_ROOT, path), "utf8"));

describe("the life of a write in docs/ARCHITECTURE.md", () => {
  it("lists its steps in order, from the socket frame to the push", () => {
    expect(STEPS.length).toBeGreaterThanOrEqual(8);
    expect(STEPS.map((s) => s.n)).toEqual(STEPS.map((_, i) => i + 1));
    expect(STEPS[0]!.name).toBe("webSocketMessage");
  });

  it.each(STEPS.map((s) => [s.n, s.path, s.name] as const))("step %i: %s defines %s", (_, path, name) => {
    expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    expect(code(path)).toMatch(
      new RegExp(`(function\\s+${name}\\s*[(<]|^\\s*(?:override\\s+)?(?:async\\s+)?${name}\\s*\\()`, "m"),
    );
  });

  it("enters each file once", () => {
    const paths = STEPS.map((s) => s.path);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it("calls each step from the file of a step before it", () => {
    const uncalled = STEPS.slice(1).filter(
      (step, i) =>
        !STEPS.slice(0, i + 1).some((before) => new RegExp(`(?<![\\w$])${step.name}\\(`).test(code(before.path))),
    );
    expect(uncalled.map((s) => `${s.n}. ${s.name}`)).toEqual([]);
  });
});
