/**
 * Every `trestle approve` / `trestle reject` command that trestle prints or documents (chat replies,
 * CLI and MCP hints, the user docs) is one the real CLI accepts: its flags are approve's flags, its
 * argument a task id or seq; and the ones printed out of context (chat replies, hints) name the
 * table, since the reader's shell may not have TRESTLE_TABLE set.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { signCommand } from "../../../src/chat/render.js";
import { t, type MessageKey } from "../../../src/chat/i18n.js";
import { parse } from "../../../src/cli/args.js";
import { approve } from "../../../src/cli/commands/approve.js";
import { reject } from "../../../src/cli/commands/reject.js";
import { hintFor } from "../../../src/text/hints.js";
import { mcpHint } from "../../../src/mcp/hints.js";
import { ERROR_CODES, LangSchema, type ErrorCode } from "../../../src/protocol/index.js";

const DOCS = ["README.md", "docs/CLI.md", "docs/CHAT-APPS.md", "docs/MCP.md", "docs/SPEC.md", "docs/SECURITY.md"];
const PLACEHOLDERS: Record<string, string> = {
  "<task>": "15.jenny",
  "<table>": "t-459",
  "<name>": "jenny",
  "<task | seq>": "15",
};

/** Each `trestle approve|reject …` in `text`: the verb, then the words that belong to the command (its flags, their values, its argument). */
function commandsIn(text: string): string[] {
  const takesValue = (word: string) => approve.flags[word.slice(2)]?.type === "string";
  const found: string[] = [];
  for (const match of text.matchAll(/trestle (approve|reject)\b[^`\n"();,]*/g)) {
    const [trestle, verb, ...rest] = match[0]
      .replace(/<task \| seq>/g, "<task>")
      .split(/\s+/)
      .filter(Boolean);
    const words = [trestle!, verb!];
    for (const word of rest) {
      const value = takesValue(words[words.length - 1]!);
      if (!value && !/^(--[a-z-]+|<[a-z]+>|[1-9][0-9]*(\.[a-z0-9][a-z0-9._-]*)?)$/.test(word)) break;
      words.push(word);
    }
    found.push(words.join(" "));
  }
  return found;
}

/** Checks `command` with the CLI's own parser; returns the parsed values. */
function accepted(command: string) {
  const [, verb, ...rest] = command.split(" ");
  const spec = verb === "approve" ? approve : reject;
  const args = rest.map((w) => PLACEHOLDERS[w] ?? w);
  const parsed = parse(args, spec.flags);
  expect(parsed.positionals.length, command).toBeLessThanOrEqual(1);
  for (const target of parsed.positionals) expect(target, command).toMatch(/^[1-9][0-9]*(\.[a-z0-9][a-z0-9._-]*)?$/);
  return parsed;
}

describe("trestle approve / reject as printed and documented", () => {
  it("is what a chat reply names, runnable anywhere", () => {
    for (const verb of ["approve", "reject"] as const) {
      const command = signCommand(verb, "t-459", "15.jenny");
      expect(accepted(command).values.table).toBe("t-459");
      for (const lang of LangSchema.options)
        for (const key of ["line.chat_no", "reply.tap_needs_signature"] as MessageKey[])
          expect(t(lang, key, { command, why: "" })).toContain(command);
    }
  });

  it("is what every CLI and MCP hint names, with the table", () => {
    const hints = (Object.keys(ERROR_CODES) as ErrorCode[]).flatMap((code) => [hintFor(code), mcpHint(code) ?? ""]);
    const commands = hints.flatMap(commandsIn).filter((c) => c.split(" ").length > 2);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(accepted(command).values.table, command).toBe("t-459");
  });

  it.each(DOCS)("is accepted by the CLI wherever %s shows it", (path) => {
    const text = readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
    for (const command of commandsIn(text)) accepted(command);
  });
});
