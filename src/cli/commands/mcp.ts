/**
 * `trestle mcp`: runs the stdio MCP server (src/mcp/server.ts) for an agent such as Claude Code,
 * Codex or Cursor; stdout then carries the MCP protocol and nothing else, notes go to stderr.
 * `--print-config CLIENT` prints the snippet that makes that client start this server.
 */
import { realpathSync } from "node:fs";
import { resolveSettings } from "../../mcp/config.js";
import { McpClientSchema, printConfig, settingsEnv } from "../../mcp/print-config.js";
import { optional } from "../args.js";
import { DEFAULT_RELAY } from "../context.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

/** `mcp`: serve MCP on stdio until the client closes stdin, or print a client's config snippet. */
export const mcp: Command = {
  name: "mcp",
  summary: "run the MCP server an agent (Claude Code, Codex, Cursor) mounts, or print its config",
  flags: {
    config: { type: "string", value: "FILE", help: "a JSON settings file (default $TRESTLE_MCP_CONFIG); TRESTLE_* variables override it" },
    "print-config": { type: "string", value: "CLIENT", help: "print the snippet for claude, codex or cursor and exit" },
  },
  async run(ctx) {
    const flags = { relay: optional(ctx.args, "relay"), home: optional(ctx.args, "home"), config: optional(ctx.args, "config") };
    const settings = resolveSettings({ env: ctx.io.env, flags, defaultRelay: DEFAULT_RELAY });
    const client = optional(ctx.args, "print-config");
    if (client !== undefined) {
      const parsed = McpClientSchema.safeParse(client);
      if (!parsed.success) throw new UsageError(`--print-config takes claude, codex or cursor, not "${client}"`);
      const snippet = printConfig(parsed.data, { command: process.execPath, args: [launcherPath(), "mcp"] }, settingsEnv(settings));
      ctx.out.result(snippet.text, { client: parsed.data, snippet: snippet.text, where: snippet.where });
      ctx.out.note(snippet.where);
      return;
    }
    // Imported here, not above: the MCP SDK is loaded by `trestle mcp` alone, not by every command's start.
    const { serveStdio } = await import("../../mcp/server.js");
    await serveStdio(settings, { log: (text) => ctx.io.stderr.write(`${text}\n`) });
  },
};

/** The absolute path of the script that started this process (bin/trestle.mjs), links resolved. */
function launcherPath(): string {
  const script = process.argv[1];
  if (script === undefined) throw new UsageError("cannot tell which script is running; pass the path to bin/trestle.mjs yourself");
  return realpathSync(script);
}
