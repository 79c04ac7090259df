/**
 * The icon MCP clients may show beside trestle's tools, resources and prompts: the relay's own
 * favicon (worker/site/static/favicon.svg, decision 0455) as a data URI, so a client fetches
 * nothing to show it. test/unit/mcp/tools.test.ts checks it is that file, byte for byte.
 */
import type { Icon } from "@modelcontextprotocol/server";

/** worker/site/static/favicon.svg. */
export const TRESTLE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>trestle</title><rect width="32" height="32" rx="6" fill="#17703a"/><path d="M5 10h22M10 10 7 26M10 10l3 16M22 10l-3 16M22 10l3 16" fill="none" stroke="#fbfbf8" stroke-width="3" stroke-linecap="round"/></svg>\n';

/** The icons listed with every tool, resource template and prompt. */
export const TOOL_ICONS: Icon[] = [
  {
    src: `data:image/svg+xml;base64,${Buffer.from(TRESTLE_SVG, "utf8").toString("base64")}`,
    mimeType: "image/svg+xml",
    sizes: ["any"],
  },
];
