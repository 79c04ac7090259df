/**
 * `trestle mcp --print-config claude|codex|cursor`: the snippet to paste into that client's MCP
 * configuration, launching this same `trestle mcp` with the settings resolved now (absolute
 * paths; key file paths only, never a key). Formats as each client documents them: Claude Code
 * `.mcp.json` (`mcpServers`, `type: "stdio"`), Codex `~/.codex/config.toml` (`[mcp_servers.NAME]`
 * with an `env` table), Cursor `~/.cursor/mcp.json` or `.cursor/mcp.json` (`mcpServers`). With
 * `--http`, the URL-server entry instead (`urlConfig`): the URL and this run's bearer token.
 */
import { z } from "zod";
import { ENV, type McpSettings } from "./config.js";

/** The clients a snippet can be printed for. */
export const McpClientSchema = z.enum(["claude", "codex", "cursor"]);
export type McpClient = z.infer<typeof McpClientSchema>;

/** How the client starts the server: a program and its arguments. */
export interface Launch {
  command: string;
  args: string[];
}

/** A snippet and where it goes. */
export interface Snippet {
  text: string;
  where: string;
}

/** The server's name in every snippet. */
export const SERVER_NAME = "trestle";

/** The environment that reproduces `settings` in the client-launched server. */
export function settingsEnv(settings: McpSettings): Record<string, string> {
  const env: Record<string, string> = { [ENV.url]: settings.url, [ENV.home]: settings.home };
  const optional: [keyof typeof ENV, string | undefined][] = [
    ["table", settings.table],
    ["owner", settings.owner],
    ["ownerKeyFile", settings.ownerKeyFile],
    ["seat", settings.seat],
    ["seatKeyFile", settings.seatKeyFile],
    ["cardFile", settings.cardFile],
    ["instructionsFile", settings.instructionsFile],
  ];
  for (const [key, value] of optional) if (value !== undefined) env[ENV[key]] = value;
  if (settings.allowSubtables !== undefined) env[ENV.allowSubtables] = String(settings.allowSubtables);
  if (settings.allowRevoke !== undefined) env[ENV.allowRevoke] = String(settings.allowRevoke);
  return env;
}

/** The snippet for `client`. */
export function printConfig(client: McpClient, launch: Launch, env: Record<string, string>): Snippet {
  switch (client) {
    case "claude":
      return {
        text: JSON.stringify(
          { mcpServers: { [SERVER_NAME]: { type: "stdio", command: launch.command, args: launch.args, env } } },
          null,
          2,
        ),
        where:
          "paste into .mcp.json at your project's root (or merge its mcpServers entry into ~/.claude.json), then restart Claude Code",
      };
    case "cursor":
      return {
        text: JSON.stringify(
          { mcpServers: { [SERVER_NAME]: { command: launch.command, args: launch.args, env } } },
          null,
          2,
        ),
        where:
          "paste into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project), merging mcpServers if the file exists",
      };
    case "codex":
      return {
        text: [
          `[mcp_servers.${SERVER_NAME}]`,
          `command = ${toml(launch.command)}`,
          `args = [${launch.args.map(toml).join(", ")}]`,
          "",
          `[mcp_servers.${SERVER_NAME}.env]`,
          ...Object.entries(env).map(([key, value]) => `${key} = ${toml(value)}`),
        ].join("\n"),
        where: "append to ~/.codex/config.toml (or .codex/config.toml in a trusted project)",
      };
  }
}

/** A TOML basic string: JSON's string escapes are all valid TOML escapes. */
function toml(value: string): string {
  return JSON.stringify(value);
}

/** The variable a Codex URL entry reads the bearer token from (Codex takes no inline token). */
export const TOKEN_ENV = "TRESTLE_MCP_TOKEN";

/** The snippet for `client` naming the running `trestle mcp --http` at `url`, with its bearer token. */
export function urlConfig(client: McpClient, url: string, token: string): Snippet {
  const headers = { Authorization: `Bearer ${token}` };
  const once = "; the token holds until that trestle mcp --http exits, then print the config again";
  switch (client) {
    case "claude":
      return {
        text: JSON.stringify({ mcpServers: { [SERVER_NAME]: { type: "http", url, headers } } }, null, 2),
        where: `paste into .mcp.json at your project's root (or merge its mcpServers entry into ~/.claude.json)${once}`,
      };
    case "cursor":
      return {
        text: JSON.stringify({ mcpServers: { [SERVER_NAME]: { url, headers } } }, null, 2),
        where: `paste into ~/.cursor/mcp.json or .cursor/mcp.json, merging mcpServers if the file exists${once}`,
      };
    case "codex":
      return {
        text: [`[mcp_servers.${SERVER_NAME}]`, `url = ${toml(url)}`, `bearer_token_env_var = ${toml(TOKEN_ENV)}`].join(
          "\n",
        ),
        where: `append to ~/.codex/config.toml and start Codex with ${TOKEN_ENV} set to the bearer token printed above${once}`,
      };
  }
}
