/** docs/CLI.md documents every command, every flag and every exit code the CLI has, and nothing it lacks. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GLOBAL_FLAGS } from "../../../src/cli/args.js";
import { COMMANDS } from "../../../src/cli/commands/index.js";
import { EXIT } from "../../../src/cli/exit.js";

const doc = readFileSync(new URL("../../../docs/CLI.md", import.meta.url), "utf8");

function section(name: string): string {
  const start = doc.indexOf(`### \`trestle ${name}`);
  expect(start, `a section for trestle ${name}`).toBeGreaterThanOrEqual(0);
  const next = doc.indexOf("\n#", start + 4);
  return doc.slice(start, next === -1 ? undefined : next);
}

describe("docs/CLI.md", () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))("documents trestle %s with each of its flags", (name, command) => {
    const text = section(name);
    for (const flag of Object.keys(command.flags)) expect(text).toContain(`\`--${flag}`);
  });

  it("lists exactly the commands the CLI has", () => {
    const documented = [...doc.matchAll(/^### `trestle ([a-z-]+(?: [a-z-]+)?)/gm)].map((m) => m[1]);
    expect(documented).toEqual(COMMANDS.map((c) => c.name));
  });

  it("documents every global flag and every exit code", () => {
    for (const flag of Object.keys(GLOBAL_FLAGS)) expect(doc).toContain(`\`--${flag}`);
    const rows = [...doc.matchAll(/^\| (\d) \| ([a-z]+) \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(EXIT).map(([k, v]) => [k.toLowerCase(), v])),
    );
  });
});
