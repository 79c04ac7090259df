/**
 * Completion of the one argument a client may be asked to fill in by hand here (docs/MCP.md
 * "Prompts"): a table id, for a role prompt's `table` and a resource template's `{table}`. The
 * candidates are the tables this session knows at its relay (the active one first, those used on
 * this connection, those with a head kept in the home), as trestle_tables lists them, that start
 * with what was typed. Any other prompt, template or argument is refused (-32602).
 */
import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import { FileHeadStore, PinStore } from "../client/node.js";
import { offeredPrompts } from "./prompts.js";
import { TEMPLATE_URIS } from "./resources.js";
import type { McpSession } from "./session.js";
import type { Tool } from "./tool.js";

/** The most values one completion answers. */
const MAX_VALUES = 100;

/** The tables `session` knows at its relay, in trestle_tables' order. */
export function knownTables(session: McpSession): string[] {
  const { home, url } = session.settings;
  const pin = new PinStore(home).get(url);
  const stored = pin ? new FileHeadStore(home).tables(pin.relay_key) : [];
  return [...new Set([...(session.active ? [session.active] : []), ...session.tables, ...stored])];
}

/** Registers `completion/complete` for `table` arguments of the prompts `offered` allows and of the resource templates. */
export function registerCompletions(server: Server, session: McpSession, offered: readonly Tool[]): void {
  const prompts = offeredPrompts(offered);
  server.setRequestHandler("completion/complete", (request) => {
    const { ref, argument } = request.params;
    if (ref.type === "ref/prompt") {
      const prompt = prompts.find((p) => p.name === ref.name);
      if (!prompt)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `no prompt named ${ref.name}; prompts/list names this server's`,
        );
      if (!prompt.arguments.some((a) => a.name === argument.name))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt ${ref.name} has no argument ${argument.name}`);
    } else if (!TEMPLATE_URIS.includes(ref.uri) || argument.name !== "table") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `no resource template ${ref.uri} with an argument ${argument.name}; resources/templates/list names this server's`,
      );
    }
    // Only `table` has candidates; a role's other arguments are the person's own words.
    if (argument.name !== "table") return { completion: { values: [], total: 0, hasMore: false } };
    const values = knownTables(session).filter((table) => table.startsWith(argument.value));
    return {
      completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
    };
  });
}
