/**
 * The decision records are navigable: each carries one status line under its title, the statuses
 * agree with what the records say of each other ("supersedes decision NNNN"), and
 * docs/decisions/README.md is the index scripts/decisions-index.mjs writes from them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DECISIONS_INDEX, decisionProblems, readDecisions, renderIndex } from "../../../scripts/decisions-index.mjs";

const REGENERATE = "then run `node scripts/decisions-index.mjs`";

describe("docs/decisions", () => {
  const records = readDecisions();

  it("has a status line in every record, and statuses that agree with what the records say", () => {
    expect(decisionProblems(records), `fix each record as said, ${REGENERATE}`).toEqual([]);
  });

  it("is indexed by its README, as the script writes it", () => {
    expect(readFileSync(DECISIONS_INDEX, "utf8"), `docs/decisions/README.md is stale: ${REGENERATE}`).toBe(
      renderIndex(records),
    );
  });
});

/** The problems of a decisions folder holding exactly `records` (file name to text). */
function problemsOf(records: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), "decisions-"));
  try {
    for (const [file, text] of Object.entries(records)) writeFileSync(join(dir, file), text);
    return decisionProblems(readDecisions(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("when a record breaks the form", () => {
  it("names a record without a status line and the exact line to add", () => {
    expect(problemsOf({ "0900-a-new-record.md": "# 0900: A new record\n\n**Decision.** Something.\n" })).toEqual([
      'docs/decisions/0900-a-new-record.md: its second line must be blank and its third "**Status.** Accepted." ' +
        '(or "**Status.** Superseded by NNNN.", "**Status.** Partly superseded by NNNN.", "**Status.** Withdrawn.")',
    ]);
  });

  it("names an older record a newer one supersedes while its status says accepted", () => {
    const records = {
      "0900-a-new-record.md": "# 0900: A new record\n\n**Status.** Accepted.\n\n**Decision.** Something.\n",
      "0901-a-newer-record.md":
        "# 0901: A newer record\n\n**Status.** Accepted.\n\n**Decision.** This supersedes decision 0900.\n",
    };
    expect(problemsOf(records)).toEqual([
      'docs/decisions/0900-a-new-record.md: decision 0901 says it supersedes this one; its status line must say "Superseded by 0901" or "Partly superseded by 0901"',
    ]);
  });

  it("names a status that points at no later record", () => {
    const records = {
      "0900-a-new-record.md": "# 0900: A new record\n\n**Status.** Superseded by 0901.\n\n**Decision.** Something.\n",
      "0901-a-newer-record.md":
        "# 0901: A newer record\n\n**Status.** Superseded by 0900.\n\n**Decision.** Something else.\n",
      "0902-the-newest-record.md":
        "# 0902: The newest record\n\n**Status.** Superseded by 0903.\n\n**Decision.** A third thing.\n",
    };
    expect(problemsOf(records)).toEqual([
      "docs/decisions/0901-a-newer-record.md: its status names 0900, which is not a later record",
      "docs/decisions/0902-the-newest-record.md: its status names 0903, which is no record",
    ]);
  });
});
