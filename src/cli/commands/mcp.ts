/**
 * `trestle mcp`: runs the MCP server (src/mcp/server.ts) for an agent such as Claude Code, Codex
 * or Cursor, on stdio (stdout then carries the MCP protocol and nothing else, notes go to stderr)
 * or with `--http` over Streamable HTTP on 127.0.0.1 (src/mcp/http.ts). `--tools` chooses the
 * tools it offers (src/mcp/profiles.ts). `--print-config CLIENT` prints the snippet that makes
 * that client start this server, or with `--http` reach it at its URL.
 */
import { resolveSettings, type McpSettings } from "../../mcp/config.js";
import {
  McpClientSchema,
  printConfig,
  settingsEnv,
  urlConfig,
  type McpClient,
  type Snippet,
} from "../../mcp/print-config.js";
import type { ToolSelection } from "../../mcp/profiles.js";
import { DEFAULT_SESSION_LIMITS } from "../../mcp/http-sessions.js";
import { duration, integer, optional } from "../args.js";
import { DEFAULT_RELAY, type Context } from "../context.js";
import { ownLaunch } from "../own-launch.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";

/** The default of --session-idle: DEFAULT_SESSION_LIMITS.idleMs as a duration flag. */
const IDLE_DEFAULT = `${DEFAULT_SESSION_LIMITS.idleMs / 60_000}m`;

/** `mcp`: serve MCP on stdio until the client closes stdin, over HTTP until stopped, or print a client's config snippet. */
export const mcp: Command = {
  name: "mcp",
  summary: "run the MCP server an agent (Claude Code, Codex, Cursor) mounts, or print its config",
  flags: {
    config: {
      type: "string",
      value: "FILE",
      help: "a JSON settings file (default $TRESTLE_MCP_CONFIG); TRESTLE_* variables override it",
    },
    "print-config": {
      type: "string",
      value: "CLIENT",
      help: "print the snippet for claude, codex or cursor (with --http: once serving, with the URL and token)",
    },
    tools: {
      type: "string",
      value: "PROFILE|NAMES",
      help: "the tools offered: table, room, owner, market or all, or tool names separated by commas (default: from the settings)",
    },
    http: {
      type: "boolean",
      help: "serve over Streamable HTTP on 127.0.0.1 instead of stdio, with a bearer token printed once",
    },
    port: { type: "string", value: "N", help: "the --http port (default 0: a free one; the URL is printed)" },
    "max-sessions": {
      type: "string",
      value: "N",
      help: `the most --http sessions (and 2026-07-28 listen streams) open at once (default ${DEFAULT_SESSION_LIMITS.max}); an initialize past it is refused`,
    },
    "session-idle": {
      type: "string",
      value: "DURATION",
      help: `close an --http session after this long with no request, e.g. 10m, 2h (default ${IDLE_DEFAULT})`,
    },
  },
  async run(ctx) {
    const flags = {
      relay: optional(ctx.args, "relay"),
      home: optional(ctx.args, "home"),
      config: optional(ctx.args, "config"),
    };
    const settings = resolveSettings({ env: ctx.io.env, flags, defaultRelay: DEFAULT_RELAY });
    const toolsFlag = optional(ctx.args, "tools");
    // The MCP server, its tools and the SDK are imported here, not above: `trestle mcp` alone loads them, not every command's start.
    const selection = await toolSelection(toolsFlag, settings);
    const client = clientFlag(ctx);
    const log = (text: string) => void ctx.io.stderr.write(`${text}\n`);
    if (ctx.args.values.http === true) {
      const port = integer(ctx.args, "port", 0)!;
      if (port > 65535) throw new UsageError("--port must be from 0 to 65535");
      const max = integer(ctx.args, "max-sessions", DEFAULT_SESSION_LIMITS.max)!;
      if (max < 1) throw new UsageError("--max-sessions must be at least 1");
      const idleMs = duration(ctx.args, "session-idle", IDLE_DEFAULT);
      // A timer runs at most 2^31-1 ms (24.8 days); Node fires a longer one at once.
      if (idleMs < 1000 || idleMs > 24 * 86_400_000) throw new UsageError("--session-idle must be from 1s to 24d");
      const { serveHttp } = await import("../../mcp/http.js");
      await serveHttp(settings, { log }, selection, port, { max, idleMs }, ({ url, token }) => {
        if (client !== undefined) show(ctx, client, urlConfig(client, url, token));
      });
      return;
    }
    for (const flag of ["port", "max-sessions", "session-idle"])
      if (ctx.args.values[flag] !== undefined) throw new UsageError(`--${flag} goes with --http`);
    if (client !== undefined) {
      const trestle = ownLaunch(process.argv[1]);
      const args = [...trestle.args, "mcp", ...(toolsFlag === undefined ? [] : ["--tools", toolsFlag])];
      show(ctx, client, printConfig(client, { command: trestle.command, args }, settingsEnv(settings)));
      return;
    }
    const { serveStdio } = await import("../../mcp/server.js");
    await serveStdio(settings, { log }, selection);
  },
};

/** The tools `--tools` names (or the settings' default profile); a usage error names what is no tool. */
async function toolSelection(spec: string | undefined, settings: McpSettings): Promise<ToolSelection> {
  const { selectTools } = await import("../../mcp/profiles.js");
  const selection = selectTools(spec, settings);
  if ("unknown" in selection) {
    throw new UsageError(
      `--tools takes table, room, owner, market or all, or tool names separated by commas; no tool named ${selection.unknown.join(", ")} (docs/MCP.md "Profiles" lists them)`,
    );
  }
  return selection;
}

function clientFlag(ctx: Context): McpClient | undefined {
  const client = optional(ctx.args, "print-config");
  if (client === undefined) return undefined;
  const parsed = McpClientSchema.safeParse(client);
  if (!parsed.success) throw new UsageError(`--print-config takes claude, codex or cursor, not "${client}"`);
  return parsed.data;
}

function show(ctx: Context, client: McpClient, snippet: Snippet): void {
  ctx.out.result(snippet.text, { client, snippet: snippet.text, where: snippet.where });
  ctx.out.notice(snippet.where);
}
