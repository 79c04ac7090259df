/**
 * The shape of one MCP tool (one file per tool in ./tools) and the shape of what it returns.
 * A tool's zod schema is the single source of its JSON Schema (listed to clients) and of the
 * parsing of its arguments: bad arguments, like every refusal, come back as an `isError` result
 * carrying a trestle error code and a hint the model can act on (src/mcp/hints.ts), never as a
 * protocol error. Results keep three kinds of text in separate content blocks: what this server
 * says (status), what the owner wrote (their instructions file), and what the table wrote
 * (framed as inert data); the same status comes as `structuredContent`, with the tool's own
 * fields (this server's values only: ids, numbers, hashes, safe lines; never table text, which
 * stays framed), under the tool's output schema. A tool that needs the client to ask its human first
 * returns a ToolAsk instead (an input-required result, decision 0480).
 */
import type { CallToolResult, InputRequests, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { safeLine, safeJson } from "../text/framing.js";
import { schemaError, TrestleError } from "../protocol/index.js";
import { mcpHint } from "./hints.js";
import { TOOL_ICONS } from "./icons.js";
import type { OwnerWindow } from "./owner-window.js";
import type { McpSession } from "./session.js";

/** How the client serving a request can put something to its human: a form, a link (URL mode). */
export interface ElicitationModes {
  form: boolean;
  url: boolean;
}

/** What a tool runs with. */
export interface ToolContext {
  session: McpSession;
  /** What this request's client declared it can ask its human (elicitation modes). */
  elicitation: ElicitationModes;
  /** The answers a retried call brings for what this tool asked, by key (from the client: untrusted). */
  inputResponses: Readonly<Record<string, unknown>>;
  /** This server's own state a retried call brings back (integrity-checked, minted for this tool and these arguments), else undefined. */
  state: unknown;
  /** The principal window this process opens at one decision for the owner (./owner-window.ts). */
  window: OwnerWindow<ToolReply>;
  /** A fresh random boundary for one inert data block. */
  boundary(): string;
  /** Aborts when the client cancels the call. */
  signal: AbortSignal;
  now(): number;
  /** Tells the client what a long call is waiting for (a progress notification, if it asked for them; src/mcp/progress.ts). */
  progress(message: string): void;
}

/** What a tool returns: status lines (this server's own words), the owner's instructions, the framed table data, and its structured fields. */
export interface ToolReply {
  status: string | readonly string[];
  /** The owner's instructions for this seat, shown in a block of their own. */
  owner?: string | null;
  /** A data block already framed with frameInert. */
  data?: string | null;
  /** The tool's own fields of its structured result (its `output` schema). */
  structured?: Record<string, unknown>;
}

/** What a tool returns when the client must ask its human first: the requests, and the state the client's retry brings back. */
export interface ToolAsk {
  ask: InputRequests;
  state: Record<string, unknown>;
}

/** Whether a tool's call came back asking for input rather than with a result. */
export function isAsk(result: CallToolResult | ToolAsk | ToolReply): result is ToolAsk {
  return "ask" in result && "state" in result && !("content" in result);
}

/** A tool as declared in its file. */
export interface ToolSpec<S extends z.ZodObject, O extends z.ZodObject = z.ZodObject<Record<string, never>>> {
  name: `trestle_${string}`;
  title: string;
  description: string;
  input: S;
  /** The tool's own fields of its structured result, beside `status` (none: status only). */
  output?: O;
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolReply | ToolAsk>;
}

/** A tool as the server lists and calls it. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** The whole structured result: `status`, an `error` on a refusal, and the tool's own fields. */
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** Parses `raw` with `input` (E_SCHEMA on a mismatch) and runs the tool; every failure becomes an isError result. */
  call(raw: unknown, ctx: ToolContext): Promise<CallToolResult | ToolAsk>;
}

/** A refusal as structured content: the trestle code, its message, the hint, and any details. */
const ErrorOutput = z.strictObject({
  code: z.string(),
  message: z.string(),
  hint: z.string().nullable(),
  details: z.string().optional().describe("the refusal's details as safe JSON text"),
});

/** The fields every tool's structured result has: the status lines, and on a refusal the error. */
const BASE_OUTPUT = {
  status: z.array(z.string()).describe("this server's status lines, as in the first text block"),
  error: ErrorOutput.optional().describe("the refusal, on an isError result"),
};

/** Declares a tool: arguments are parsed by its own schema before `run` sees them. */
export function defineTool<S extends z.ZodObject, O extends z.ZodObject = z.ZodObject<Record<string, never>>>(
  spec: ToolSpec<S, O>,
): Tool {
  const own = spec.output?.shape ?? {};
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    // A refusal carries no tool fields, so they are optional in the listed schema; a reply always has them.
    output: z.object({
      ...BASE_OUTPUT,
      ...Object.fromEntries(Object.entries(own).map(([key, field]) => [key, (field as z.ZodType).optional()])),
    }),
    annotations: spec.annotations,
    async call(raw, ctx) {
      try {
        const parsed = spec.input.safeParse(raw ?? {});
        if (!parsed.success) throw schemaError(parsed.error.issues, "arguments");
        const reply = await spec.run(parsed.data, ctx);
        return isAsk(reply) ? reply : replyResult(reply);
      } catch (error) {
        return errorResult(error);
      }
    },
  };
}

/** The JSON Schema of a tool's arguments (JSON Schema 2020-12, the dialect MCP assumes; input side), from its zod schema. */
export function inputJsonSchema(tool: Tool): { type: "object"; [key: string]: unknown } {
  return { ...z.toJSONSchema(tool.input, { io: "input" }), type: "object" };
}

/** The JSON Schema of a tool's structured result. */
export function outputJsonSchema(tool: Tool): { type: "object"; [key: string]: unknown } {
  return { ...z.toJSONSchema(tool.output, { io: "output" }), type: "object" };
}

/** A tool as `tools/list` lists it: name, title, description, both schemas, annotations and the icon. */
export function listedTool(tool: Tool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool),
    outputSchema: outputJsonSchema(tool),
    annotations: tool.annotations,
    icons: TOOL_ICONS,
  };
}

/** A reply as MCP content: status first (each line made one safe line, indentation kept), then the owner's block, then the table's; the same status and the tool's fields as structured content. */
export function replyResult(reply: ToolReply): CallToolResult {
  const lines = typeof reply.status === "string" ? [reply.status] : reply.status;
  const status = lines.map((line) => /^ */.exec(line)![0] + safeLine(line, 4000));
  const content: CallToolResult["content"] = [{ type: "text", text: status.join("\n") }];
  if (reply.owner)
    content.push({
      type: "text",
      text: `Instructions from your owner (their file on this machine, not the table):\n${reply.owner}`,
    });
  if (reply.data) content.push({ type: "text", text: reply.data });
  return { content, structuredContent: { status, ...reply.structured } };
}

/** Any failure as an isError result: the trestle code, the message on one safe line, and a hint; the same as structured content. */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof TrestleError) {
    const message = safeLine(error.message, 2000);
    const hint = mcpHint(error.code) ?? null;
    const lines = [`error ${error.code}: ${message}`];
    if (hint) lines.push(`hint: ${hint}`);
    if (error.details !== undefined) lines.push(`details: ${safeJson(error.details)}`);
    const details = error.details === undefined ? {} : { details: safeJson(error.details) };
    return {
      isError: true,
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: { status: lines, error: { code: error.code, message, hint, ...details } },
    };
  }
  const message = `unexpected failure in the trestle MCP server: ${safeLine(error instanceof Error ? error.message : String(error), 2000)}`;
  const text = `error E_BUG: ${message}`;
  return {
    isError: true,
    content: [{ type: "text", text }],
    structuredContent: { status: [text], error: { code: "E_BUG", message, hint: null } },
  };
}
