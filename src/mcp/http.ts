/**
 * `trestle mcp --http`: the same MCP server over the Streamable HTTP transport (docs/MCP.md "Over
 * HTTP", decisions 0409 and 0481), for hosts that take only URL servers, to clients of both
 * revisions at one URL. It listens on 127.0.0.1 only; every request passes ./http-access.ts (Host,
 * Origin, the bearer token printed once per run) before the SDK sees it. Then the SDK's own
 * classification (`isLegacyRequest`) routes it: a 2026-07-28 request (its revision and
 * capabilities in its `_meta`) is served alone by the SDK's per-request handler from one
 * stateless session the process shares (tools take `table` and `cursor`; `subscriptions/listen`
 * streams hear of new entries); a 2025-11-25 one belongs to an MCP session (Mcp-Session-Id,
 * opened by an initialize) with its own McpSession and server, as one stdio process would, and an
 * in-memory event store so a client that lost a stream resumes it with Last-Event-ID; at most
 * `limits.max` sessions are open at once, and one idle for `limits.idleMs` is closed
 * (./http-sessions.ts).
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import { randomBytes } from "../client/index.js";
import { toBase64url } from "../protocol/index.js";
import type { McpSettings } from "./config.js";
import { MemoryEventStore } from "./event-store.js";
import { accessRefusal } from "./http-access.js";
import { DEFAULT_SESSION_LIMITS, HttpSessions, type SessionLimits } from "./http-sessions.js";
import { HEADER_MISMATCH, mirroredArguments, paramHeaderMismatch } from "./param-headers.js";
import type { ToolSelection } from "./profiles.js";
import { follow, listenedUris, parseTableUri } from "./resources.js";
import { createHost, createServer, selectionText } from "./server.js";
import { McpSession, type SessionDeps } from "./session.js";
import { inputJsonSchema } from "./tool.js";

/** The path the server answers MCP on. */
export const MCP_PATH = "/mcp";
/** How long a 2025-11-25 client waits before it reconnects to a closed stream. */
const RETRY_MS = 1000;
/** The largest request body read (the SDK transport's own default bound). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A running HTTP server: its URL, this run's token, and how to stop it. */
export interface HttpServing {
  url: string;
  token: string;
  /** Closes every MCP session and the listener. */
  close(): Promise<void>;
}

/** Starts listening on 127.0.0.1:`port` (0: a free port) with a fresh token; logs the URL and the token once. */
export async function startHttp(
  settings: McpSettings,
  deps: SessionDeps,
  selection: ToolSelection,
  port: number,
  limits: SessionLimits = DEFAULT_SESSION_LIMITS,
): Promise<HttpServing> {
  const token = toBase64url(randomBytes(32));
  const idle = `${limits.idleMs / 1000} s`;
  const host = createHost(deps.log);
  const sessions = new HttpSessions<NodeStreamableHTTPServerTransport>(limits, (id) =>
    deps.log(`trestle mcp: closed session ${id} after ${idle} with no request (its client initializes again)`),
  );
  let bound = 0;

  // 2026-07-28: one stateless session for every request (its clients and sockets are caches, it remembers no conversation).
  const stateless = new McpSession(settings, deps, { stateless: true });
  const feed = (uri: string) => modern.notify.resourceUpdated(uri);
  const modern = createMcpHandler(() => createServer(stateless, { host, tools: selection.tools, feed }).server, {
    legacy: "reject",
    // A listen stream is what a 2026-07-28 client holds open, as a 2025 one holds a session: the same cap.
    maxSubscriptions: limits.max,
    onerror: (error) => deps.log(`trestle mcp: ${error.message}`),
  });
  const serveModern = toNodeHandler(modern);
  const mirrored = new Map(selection.tools.map((tool) => [tool.name, mirroredArguments(inputJsonSchema(tool))]));

  const openSession = async (): Promise<NodeStreamableHTTPServerTransport> => {
    const session = new McpSession(settings, deps);
    const { server } = createServer(session, { host, tools: selection.tools });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      // How long a client waits before reconnecting to a stream the server closed (sent with each stream's first, priming, event).
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => sessions.add(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
      session.close();
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = accessRefusal(req.headers, bound, token);
    if (refusal)
      return reply(
        res,
        refusal.status,
        refusal.reason,
        refusal.status === 401 ? { "www-authenticate": 'Bearer realm="trestle mcp"' } : {},
      );
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== MCP_PATH)
      return reply(res, 404, `MCP is served at ${MCP_PATH}`);
    const id = req.headers["mcp-session-id"];
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (body instanceof Error) return reply(res, 400, body.message);
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) {
      const mismatch = paramMismatch(body, mirrored, req);
      if (mismatch)
        return reply(
          res,
          400,
          `Bad Request: the request headers and body disagree: ${mismatch.why}`,
          {},
          HEADER_MISMATCH,
          mismatch.id,
        );
      for (const uri of listenedUris(body)) void follow(stateless, parseTableUri(uri)!.table, feed, false);
      return serveModern(req, res, body);
    }
    if (id === undefined && req.method === "POST" && isInitializeRequest(body)) {
      if (sessions.full)
        return reply(
          res,
          503,
          `this server holds its most MCP sessions (${limits.max}, trestle mcp --max-sessions): end one (DELETE with its Mcp-Session-Id), or one closes after ${idle} with no request`,
        );
      return sessions.opened(async () => (await openSession()).handleRequest(req, res, body));
    }
    const transport = typeof id === "string" ? sessions.serving(id, res) : undefined;
    if (!transport)
      return reply(
        res,
        id === undefined ? 400 : 404,
        id === undefined
          ? "no Mcp-Session-Id: initialize first"
          : "no such MCP session (it ended, or this server restarted)",
      );
    return transport.handleRequest(req, res, body);
  };

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.log(`trestle mcp: an HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) reply(res, 500, "the request failed in the trestle MCP server");
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => resolve());
  });
  bound = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${bound}${MCP_PATH}`;
  deps.log(
    `trestle mcp: serving ${selectionText(selection)} at ${url}; relay ${settings.url}${settings.table ? `, table ${settings.table}` : ""}`,
  );
  deps.log(`trestle mcp: bearer token ${token} (printed once; valid until this process exits)`);
  deps.log(
    `trestle mcp: at most ${limits.max} sessions (and ${limits.max} listen streams) at once; a session with no request for ${idle} is closed`,
  );
  return {
    url,
    token,
    async close() {
      await sessions.closeAll();
      await modern.close();
      stateless.close();
      await host.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Serves until SIGINT or SIGTERM; `ready` runs once the URL and token are known. */
export async function serveHttp(
  settings: McpSettings,
  deps: SessionDeps,
  selection: ToolSelection,
  port: number,
  limits: SessionLimits,
  ready: (serving: HttpServing) => void,
): Promise<void> {
  const serving = await startHttp(settings, deps, selection, port, limits);
  ready(serving);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      void serving.close().then(resolve);
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
}

/** The request's body as JSON, or an Error saying why not (too large, not JSON). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return new Error(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return new Error("the request body is not JSON");
  }
}

/** Why a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers disagree with its arguments (./param-headers.ts), with its id; null when they agree or it is no such call. */
function paramMismatch(
  body: unknown,
  mirrored: ReadonlyMap<string, ReadonlyMap<string, string>>,
  req: IncomingMessage,
): { why: string; id: string | number | null } | null {
  if (typeof body !== "object" || body === null || (body as { method?: unknown }).method !== "tools/call") return null;
  const call = body as { id?: string | number; params?: { name?: unknown; arguments?: unknown } };
  const declared = mirrored.get(String(call.params?.name));
  if (!declared) return null;
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return typeof value === "string" ? value : undefined;
  };
  const why = paramHeaderMismatch(declared, call.params?.arguments, header);
  return why === null ? null : { why, id: call.id ?? null };
}

/** A JSON-RPC error body with `status` (the transport's own shape for its refusals). */
function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
  id: string | number | null = null,
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}
