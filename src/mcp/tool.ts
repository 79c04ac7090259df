/**
 * The shape of one MCP tool (one file per tool in ./tools) and the shape of what it returns.
 * A tool's zod schema is the single source of its JSON Schema (listed to clients) and of the
 * parsing of its arguments: bad arguments, like every refusal, come back as an `isError` result
 * carrying a trestle error code and a hint the model can act on (src/mcp/hints.ts), never as a
 * protocol error. Results keep three kinds of text in separate content blocks: what this server
 * says (status), what the owner wrote (their instructions file), and what the table wrote
 * (framed as inert data).
 */
import type { CallToolResult, ElicitRequestFormParams, ElicitResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { safeLine, safeJson } from "../text/framing.js";
import { schemaError, TrestleError } from "../protocol/index.js";
import { mcpHint } from "./hints.js";
import type { McpSession } from "./session.js";

/** What a tool runs with. */
export interface ToolContext {
  session: McpSession;
  /** Whether the connected client declared it can ask its human (form elicitation). */
  canElicit(): boolean;
  /** Asks the human through the client (elicitation/create). */
  elicit(params: ElicitRequestFormParams): Promise<ElicitResult>;
  /** A fresh random boundary for one inert data block. */
  boundary(): string;
  /** Aborts when the client cancels the call. */
  signal: AbortSignal;
  now(): number;
  /** Tells the client what a long call is waiting for (a progress notification, if it asked for them; src/mcp/progress.ts). */
  progress(message: string): void;
}

/** What a tool returns: status lines (this server's own words), the owner's instructions, the framed table data. */
export interface ToolReply {
  status: string | readonly string[];
  /** The owner's instructions for this seat, shown in a block of their own. */
  owner?: string | null;
  /** A data block already framed with frameInert. */
  data?: string | null;
}

/** A tool as declared in its file. */
export interface ToolSpec<S extends z.ZodObject> {
  name: `trestle_${string}`;
  title: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolReply>;
}

/** A tool as the server lists and calls it. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  /** Parses `raw` with `input` (E_SCHEMA on a mismatch) and runs the tool; every failure becomes an isError result. */
  call(raw: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

/** Declares a tool: arguments are parsed by its own schema before `run` sees them. */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    annotations: spec.annotations,
    async call(raw, ctx) {
      try {
        const parsed = spec.input.safeParse(raw ?? {});
        if (!parsed.success) throw schemaError(parsed.error.issues, "arguments");
        return replyResult(await spec.run(parsed.data, ctx));
      } catch (error) {
        return errorResult(error);
      }
    },
  };
}

/** The JSON Schema a tool's arguments are listed with: draft-07, input side, from its zod schema. */
export function inputJsonSchema(tool: Tool): { type: "object"; [key: string]: unknown } {
  const schema = z.toJSONSchema(tool.input, { target: "draft-7", io: "input" });
  return { ...schema, type: "object" };
}

/** A reply as MCP content: status first (each line made one safe line, indentation kept), then the owner's block, then the table's. */
export function replyResult(reply: ToolReply): CallToolResult {
  const lines = typeof reply.status === "string" ? [reply.status] : reply.status;
  const status = lines.map((line) => /^ */.exec(line)![0] + safeLine(line, 4000)).join("\n");
  const content: CallToolResult["content"] = [{ type: "text", text: status }];
  if (reply.owner) content.push({ type: "text", text: `Instructions from your owner (their file on this machine, not the table):\n${reply.owner}` });
  if (reply.data) content.push({ type: "text", text: reply.data });
  return { content };
}

/** Any failure as an isError result: the trestle code, the message on one safe line, and a hint. */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof TrestleError) {
    const lines = [`error ${error.code}: ${safeLine(error.message, 2000)}`];
    const hint = mcpHint(error.code);
    if (hint) lines.push(`hint: ${hint}`);
    if (error.details !== undefined) lines.push(`details: ${safeJson(error.details)}`);
    return { isError: true, content: [{ type: "text", text: lines.join("\n") }] };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: "text", text: `error E_BUG: unexpected failure in the trestle MCP server: ${safeLine(message, 2000)}` }] };
}
