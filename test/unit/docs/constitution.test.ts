/**
 * CONSTITUTION.md's appendix names, for each requirement, the tests that check it as
 * `file` › `test name`. Each named file must exist and hold a test (`it`, `test`, or an `it.each`
 * template) with exactly that name, every rule must have requirements, and every requirement
 * names at least one test.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
const constitution = readFileSync(new URL("CONSTITUTION.md", root), "utf8");
const appendix = constitution.slice(constitution.indexOf("## Appendix"));

/** Every `file` › `name` reference in the appendix. */
function references(): { file: string; name: string }[] {
  return [...appendix.matchAll(/`(test\/[^`]+\.test\.ts)` › `([^`]+)`/g)].map((m) => ({ file: m[1]!, name: m[2]! }));
}

/** The names of the tests a test file declares: `it("…"`, `test("…"`, and `it.each(…)("…"` templates. */
function testNames(source: string): Set<string> {
  const names = new Set<string>();
  const literal = String.raw`(["'\`])((?:\\.|(?!\1)[^\\])*)\1`;
  for (const m of source.matchAll(
    new RegExp(String.raw`\b(?:it|test)(?:\.(?:skip|only|concurrent))?\(\s*${literal}`, "g"),
  ))
    names.add(unescape(m[2]!));
  for (const m of source.matchAll(
    new RegExp(String.raw`\b(?:it|test)\.each\([\s\S]*?\]\s*(?:as const\s*)?\)\(\s*${literal}`, "g"),
  ))
    names.add(unescape(m[2]!));
  return names;
}

function unescape(text: string): string {
  return text.replace(/\\(["'`\\])/g, "$1");
}

/** The requirements under each rule heading of the appendix. */
function rules(): { heading: string; requirements: string[] }[] {
  return appendix
    .split(/^### /m)
    .slice(1)
    .map((part) => ({ heading: part.split("\n")[0]!, requirements: part.split(/^- \*\*/m).slice(1) }));
}

describe("CONSTITUTION.md", () => {
  it("names only tests that exist, by file and exact name", () => {
    const refs = references();
    expect(refs.length).toBeGreaterThan(30);
    const missing = refs.filter(({ file, name }) => {
      const path = new URL(file, root);
      return !existsSync(path) || !testNames(readFileSync(path, "utf8")).has(name);
    });
    expect(missing).toEqual([]);
  });

  it("restates each of its rules as requirements in the appendix", () => {
    const ruleCount = [...constitution.slice(0, constitution.indexOf("## Appendix")).matchAll(/^\d+\. \*\*/gm)].length;
    const sections = rules();
    expect(sections.map((s) => Number(s.heading.split(".")[0]))).toEqual(
      Array.from({ length: ruleCount }, (_, i) => i + 1),
    );
    for (const section of sections) expect(section.requirements.length, section.heading).toBeGreaterThan(0);
  });

  it("gives every requirement a named test", () => {
    for (const { heading, requirements } of rules()) {
      for (const requirement of requirements) {
        const tested = /`test\/[^`]+\.test\.ts` › `[^`]+`/.test(requirement);
        expect(tested, `${heading}: ${requirement.slice(0, 60)}`).toBe(true);
      }
    }
  });

  describe("when a named test is renamed or removed", () => {
    it("no longer finds it in its file", () => {
      const source = 'it("keeps a name", () => {});\nit.each([["a"]])("each %s", () => {});\n';
      expect(testNames(source)).toEqual(new Set(["keeps a name", "each %s"]));
      expect(testNames(source.replace("keeps a name", "kept a name")).has("keeps a name")).toBe(false);
    });
  });
});
