/**
 * The one source-tree walker (test/support/source-tree.ts) that the tests reading the code share:
 * every source file under the three roots, sub-folders included, by path from the repository
 * root, declaration files left out, and code read without comments but with strings and URLs whole.
 */
import { describe, expect, it } from "vitest";
import { filesUnder, REPO_ROOT, sourceFiles, sourcePaths, withoutComments } from "../../support/source-tree.js";

describe("the source tree", () => {
  const paths = sourcePaths();

  it("holds every .ts file under src, worker and durable-objects, nested folders included, sorted, by path from the root", () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        "src/protocol/errors.ts",
        "src/protocol/policy/kinds/registry.ts",
        "worker/index.ts",
        "durable-objects/table/writing/submit.ts",
      ]),
    );
    expect(paths).toEqual([...paths].sort());
    expect(paths.filter((p) => !/^(src|worker|durable-objects)\/.+\.ts$/.test(p) || p.endsWith(".d.ts"))).toEqual([]);
  });

  it("walks any folder, and names files by the pattern given", () => {
    expect(filesUnder(`${REPO_ROOT}/test/unit/support`)).toContain(
      `${REPO_ROOT}/test/unit/support/source-tree.test.ts`,
    );
    expect(sourcePaths(["scripts"], /\.d\.mts$/)).toContain("scripts/decisions-index.d.mts");
  });

  it("reads each file's code without its comments", () => {
    const [errors] = sourceFiles(["src/protocol"]).filter((f) => f.path === "src/protocol/errors.ts");
    expect(errors!.text).toContain("/**");
    expect(errors!.code).not.toContain("/**");
  });
});

describe("withoutComments", () => {
  it("drops block and line comments, and keeps // inside a string, a URL or an escaped regular expression", () => {
    expect(withoutComments('a; /* b */ c; // d\nconst u = "https://x"; const r = /\\/\\//;')).toBe(
      'a;  c; \nconst u = "https://x"; const r = /\\/\\//;',
    );
  });
});
