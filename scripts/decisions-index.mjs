/**
 * The index of the decision records: docs/decisions/README.md, one row per record (number, title,
 * status), made from the records themselves. Each record is `NNNN-kebab-title.md`, opens with
 * `# NNNN: Title`, a blank line and one status line (`**Status.** Accepted.`, `**Status.**
 * Superseded by NNNN.`, `**Status.** Partly superseded by NNNN.` or `**Status.** Withdrawn.`).
 * `node scripts/decisions-index.mjs` writes the index again, and refuses while a record breaks that
 * form or its status disagrees with what the records say of each other;
 * test/unit/docs/decisions-index.test.ts fails in both cases. Types: decisions-index.d.mts.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The folder of the decision records. */
export const DECISIONS_DIR = join(ROOT, "docs/decisions");
/** The index this script writes. */
export const DECISIONS_INDEX = join(DECISIONS_DIR, "README.md");
/** The line a new record carries as its third line, under its title and a blank line. */
export const NEW_STATUS_LINE = "**Status.** Accepted.";

const FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const STATUS = /^\*\*Status\.\*\* (Accepted|Withdrawn|(Partly superseded|Superseded) by (\d{4}(?:, \d{4})*))\.$/;
/** Prose that says a record gave way to another, wherever it stands in the record. */
const SUPERSEDED_BY = /superseded\b[\s\w*,]{0,20}?\bby\s+decision\s+(\d{4})/gi;
/** Prose that says a record replaces an earlier one. */
const SUPERSEDES = /supersedes\**\s+decision\s+(\d{4})/gi;

/** Every record in `dir`, in number order: its file, number, title, status text (null when the status line is missing or malformed), the numbers its status names and those its prose says replace it or it replaces. */
export function readDecisions(dir = DECISIONS_DIR) {
  return readdirSync(dir)
    .filter((file) => file !== "README.md")
    .sort()
    .map((file) => {
      const lines = readFileSync(join(dir, file), "utf8").split("\n");
      const number = FILE.exec(file)?.[1] ?? null;
      const title = number !== null && lines[0].startsWith(`# ${number}: `) ? lines[0].slice(number.length + 4) : null;
      const status = lines[1] === "" ? STATUS.exec(lines[2] ?? "") : null;
      const body = lines.slice(3).join("\n");
      return {
        file,
        number,
        title,
        status: status?.[1] ?? null,
        supersededBy: status?.[3]?.split(", ") ?? [],
        saysSupersededBy: [...body.matchAll(SUPERSEDED_BY)].map((m) => m[1]),
        saysSupersedes: [...body.matchAll(SUPERSEDES)].map((m) => m[1]),
      };
    });
}

/** What is wrong with `records`, one sentence per fault naming the file and exactly what to write; empty when the index can be made. */
export function decisionProblems(records) {
  const where = (file) => `docs/decisions/${file}`;
  const byNumber = new Map(records.filter((r) => r.number !== null).map((r) => [r.number, r]));
  const problems = [];
  for (const r of records) {
    if (r.number === null) problems.push(`${where(r.file)}: name it NNNN-kebab-title.md with a number assigned to you`);
    else if (r.title === null) problems.push(`${where(r.file)}: its first line must be "# ${r.number}: <title>"`);
    if (r.status === null) {
      problems.push(
        `${where(r.file)}: its second line must be blank and its third "${NEW_STATUS_LINE}" ` +
          `(or "**Status.** Superseded by NNNN.", "**Status.** Partly superseded by NNNN.", "**Status.** Withdrawn.")`,
      );
    }
    for (const later of r.supersededBy) {
      if (!byNumber.has(later)) problems.push(`${where(r.file)}: its status names ${later}, which is no record`);
      else if (later <= r.number)
        problems.push(`${where(r.file)}: its status names ${later}, which is not a later record`);
    }
    const named = (later) => (r.status === null ? true : r.supersededBy.includes(later));
    for (const later of r.saysSupersededBy.filter((n) => !named(n))) {
      problems.push(
        `${where(r.file)}: it says it is superseded by decision ${later}; its status line must say "Superseded by ${later}" or "Partly superseded by ${later}"`,
      );
    }
    for (const earlier of r.saysSupersedes) {
      const old = byNumber.get(earlier);
      if (old === undefined)
        problems.push(`${where(r.file)}: it says it supersedes decision ${earlier}, which is no record`);
      else if (old.status !== null && !old.supersededBy.includes(r.number)) {
        problems.push(
          `${where(old.file)}: decision ${r.number} says it supersedes this one; its status line must say "Superseded by ${r.number}" or "Partly superseded by ${r.number}"`,
        );
      }
    }
  }
  return problems;
}

/** docs/decisions/README.md for `records`, which have no problems. */
export function renderIndex(records) {
  const link = (number) => `[${number}](${records.find((r) => r.number === number).file})`;
  const cell = (text) => text.replaceAll("|", "\\|");
  const rows = records.map((r) => `| ${link(r.number)} | ${cell(r.title)} | ${r.status.replace(/\d{4}/g, link)} |`);
  return [
    "# Decision records",
    "",
    "Each record says what was decided, why, and what it costs: `NNNN-kebab-title.md`, opening with",
    "`# NNNN: Title`, a blank line and one status line:",
    "",
    `- \`${NEW_STATUS_LINE}\`: in force.`,
    "- `**Status.** Superseded by NNNN.`: record NNNN replaced it; it stays as history.",
    "- `**Status.** Partly superseded by NNNN.`: record NNNN replaced a part of it, which the record names.",
    "- `**Status.** Withdrawn.`: no longer in force, and nothing replaced it.",
    "",
    'A record that replaces another says so in its text ("supersedes decision NNNN") and changes the',
    "older record's status line; nothing else in an older record is rewritten.",
    "",
    "This index is written by `node scripts/decisions-index.mjs`; test/unit/docs/decisions-index.test.ts",
    "fails while it is stale or a record lacks its status line.",
    "",
    "| record | title | status |",
    "| --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const records = readDecisions();
  const problems = decisionProblems(records);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join("\n")}\n`);
    process.exit(1);
  }
  writeFileSync(DECISIONS_INDEX, renderIndex(records));
  process.stdout.write(`${relative(ROOT, DECISIONS_INDEX)}: ${records.length} records\n`);
}
