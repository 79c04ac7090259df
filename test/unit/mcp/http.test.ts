/**
 * `trestle mcp --http` as a real process, driven by the official SDK's Streamable HTTP client
 * (Client + StreamableHTTPClientTransport) against a local relay: the tools of its profile, a
 * whole approval the owner clicks in the principal window, progress notifications, a stream
 * resumed with Last-Event-ID from the in-memory event store, and the config it prints; the
 * bearer scheme in any case. Then the refusals: no token, a wrong token, a foreign Origin or Host,
 * each answered before MCP, so a write sent with them never reaches the ledger; and the session
 * limits of a server started with small ones: an initialize past --max-sessions refused, a session
 * idle for --session-idle closed (404 after), its slot free again.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
/** The 2025 revision the raw requests speak. */
const LATEST_PROTOCOL_VERSION = "2025-11-25";
import { profileTools } from "../../../src/mcp/profiles.js";
import { settingsEnv } from "../../../src/mcp/print-config.js";
import { cli, type CliProcess } from "../../support/cli.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";
import { makeHome, overHttp, ownerInWindow, textOf, type Home } from "../../support/mcp.js";
import type { DecisionViewWire } from "../../../src/view/wire.js";

let home: Home;
let server: CliProcess;
let url = "";
let token = "";
let mcp: Awaited<ReturnType<typeof overHttp>>;
const table = uniqueTable("mcp-http");
/** What the owner saw in the principal window. */
const seen: DecisionViewWire[] = [];

beforeAll(async () => {
  const relay = await sharedRelay();
  home = await makeHome(relay.url, "tao", "bot-tao");
  server = cli(home.dir, relay.url).start(["mcp", "--http", "--port", "0", "--print-config", "claude"], {
    env: settingsEnv(home.settings),
  });
  url = (await server.printed(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp);/))[1]!;
  token = (await server.printed(/bearer token (\S+) \(printed once/))[1]!;
  await server.printed(/"Authorization": "Bearer /);
  mcp = await overHttp(url, token, ownerInWindow("approve", seen));
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  server?.child.kill("SIGTERM");
  await server?.done;
});

describe("trestle mcp --http with the SDK's Streamable HTTP client", { timeout: 30_000 }, () => {
  it("prints the URL server's config with this run's token, and serves the table seat's tools in a session", async () => {
    const config = JSON.parse((await server.printed(/\{[\s\S]*\n\}\n/))[0]);
    expect(config.mcpServers.trestle).toEqual({ type: "http", url, headers: { Authorization: `Bearer ${token}` } });
    expect(mcp.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(profileTools("table").map((t) => t.name));
  });

  it("creates a table, proposes with effects, and approves only once the owner clicks in the principal window", async () => {
    const config = {
      id: table,
      topic: "Over HTTP",
      owners: { tao: { public_key: home.owner.publicKeyText } },
      seats: { "bot-tao": { owner: "tao" } },
      topology: { kind: "open" },
      termination: { any: ["decision"] },
    };
    expect(textOf(await mcp.call("trestle_create_table", { config }))).toContain("Owner session held for tao.");
    expect(textOf(await mcp.call("trestle_join"))).toMatch(/^Seat bot-tao joined table /);
    const effects = [{ owner: "tao", resource: "taskboard", action: "create_card", args: { title: "over http" } }];
    const task = /It opened a task: (\d+\.tao)/.exec(
      textOf(await mcp.call("trestle_propose", { text: "a card", effects })),
    )![1]!;
    expect(textOf(await mcp.call("trestle_approve", { task }))).toContain(`task ${task} approved`);
    expect(mcp.asked).toHaveLength(1);
    expect(seen[0]!.lines.join("\n")).toContain('create_card on taskboard with title = "over http"');
  });

  it("sends progress notifications while a call waits", async () => {
    await mcp.call("trestle_read");
    const progress: string[] = [];
    const result = await mcp.client.callTool(
      { name: "trestle_wait", arguments: { timeout_s: 1 } },
      {
        onprogress: (p) => void progress.push(p.message ?? ""),
      },
    );
    expect(textOf(result as Parameters<typeof textOf>[0])).toMatch(/^(Woke|Nothing for you yet)/);
    expect(progress[0]).toMatch(new RegExp(`^waiting at ${table} for bot-tao's turn or news`));
  });

  it("resumes a lost stream from the event store: Last-Event-ID replays what came after", async () => {
    const session = mcp.transport.sessionId!;
    const call = {
      jsonrpc: "2.0",
      id: 901,
      method: "tools/call",
      params: { name: "trestle_wait", arguments: { timeout_s: 1 }, _meta: { progressToken: 901 } },
    };
    const first = await raw({ method: "POST", session, body: call, until: /notifications\/progress.*\n\n/ });
    const lastId = [...first.body.matchAll(/^id: (\S+)/gm)].at(-1)![1]!;
    expect(first.body).not.toContain('"id":901');
    const resumed = await raw({ method: "GET", session, headers: { "last-event-id": lastId }, until: /"id":901/ });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatch(/Woke|Nothing for you yet/);
  });
});

describe("when a request lacks the token or comes from elsewhere", () => {
  const write = (text: string) => ({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "trestle_say", arguments: { text } },
  });

  it.each([
    ["no token", 401, { authorization: "" }],
    ["a wrong token", 401, { authorization: "Bearer not-the-token" }],
    ["a foreign Origin", 403, { origin: "http://evil.example" }],
    ["a foreign Host", 403, { host: "evil.example" }],
  ] as const)(
    "refuses %s with %i before MCP, and the write never reaches the ledger",
    async (what, status, headers) => {
      const refused = await raw({
        method: "POST",
        session: mcp.transport.sessionId!,
        body: write(`refused: ${what}`),
        headers,
      });
      expect(refused.status).toBe(status);
      expect(refused.headers["mcp-session-id"]).toBeUndefined();
      if (status === 401) expect(refused.headers["www-authenticate"]).toBe('Bearer realm="trestle mcp"');
      expect(JSON.parse(refused.body).error.message).not.toContain(token);
      expect(textOf(await mcp.call("trestle_read", { from_start: true }))).not.toContain(`refused: ${what}`);
    },
  );

  it.each(["bearer", "BEARER", "bEaReR", "Bearer  "])(
    "takes the token after the scheme written %j (any case, one or more spaces: RFC 9110 §11.1)",
    async (scheme) => {
      const sep = scheme.endsWith(" ") ? "" : " ";
      const ok = await raw({
        method: "POST",
        session: mcp.transport.sessionId!,
        body: { jsonrpc: "2.0", id: 9, method: "tools/list" },
        headers: { authorization: `${scheme}${sep}${token}` },
        until: /"id":9/,
      });
      expect(ok.status).toBe(200);
    },
  );

  it("takes its own Origin (a page served by this listener), so the refusal above is the Origin's", async () => {
    const ok = await raw({
      method: "POST",
      session: mcp.transport.sessionId!,
      body: { jsonrpc: "2.0", id: 8, method: "tools/list" },
      headers: { origin: new URL(url).origin },
      until: /"id":8/,
    });
    expect(ok.status).toBe(200);
  });
});

describe("when a server started with --max-sessions 1 --session-idle 1s is full, or a session idles", () => {
  let small: CliProcess;
  let served: Served;

  beforeAll(async () => {
    small = cli(home.dir, (await sharedRelay()).url).start(
      ["mcp", "--http", "--max-sessions", "1", "--session-idle", "1s"],
      { env: settingsEnv(home.settings) },
    );
    served = {
      url: (await small.printed(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp);/))[1]!,
      token: (await small.printed(/bearer token (\S+) \(printed once/))[1]!,
    };
    await small.printed(
      /at most 1 sessions \(and 1 listen streams\) at once; a session with no request for 1 s is closed/,
    );
  }, 60_000);
  afterAll(async () => {
    small?.child.kill("SIGTERM");
    await small?.done;
  });

  const initialize = (id: number) =>
    raw({
      server: served,
      method: "POST",
      body: {
        jsonrpc: "2.0",
        id,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      until: new RegExp(`"id":${id}`),
    });

  it("refuses an initialize past the cap with 503 naming it, closes the idle session (404 after), and opens a new one in its slot", async () => {
    const first = await initialize(1);
    expect(first.status).toBe(200);
    const session = String(first.headers["mcp-session-id"]);
    const refused = await initialize(2);
    expect(refused.status).toBe(503);
    expect(refused.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(refused.body).error.message).toMatch(
      /^this server holds its most MCP sessions \(1, trestle mcp --max-sessions\)/,
    );
    await small.printed(new RegExp(`closed session ${session} after 1 s with no request`));
    const gone = await raw({
      server: served,
      method: "POST",
      session,
      body: { jsonrpc: "2.0", id: 3, method: "tools/list" },
    });
    expect(gone.status).toBe(404);
    const again = await initialize(4);
    expect(again.status).toBe(200);
    expect(again.headers["mcp-session-id"]).not.toBe(session);
  });
});

/** A running `trestle mcp --http`: its URL and token. */
interface Served {
  url: string;
  token: string;
}

/**
 * One HTTP request to a server (the file's, unless `server`) with node:http (which sends any Host
 * and Origin), as `session` if given, with the token unless `headers` replaces it; reads the body
 * until `until` matches (then drops the connection, as a client losing its stream does) or the
 * response ends.
 */
function raw(options: {
  server?: Served;
  method: "POST" | "GET";
  session?: string;
  body?: unknown;
  headers?: Record<string, string>;
  until?: RegExp;
}) {
  const server = options.server ?? { url, token };
  const target = new URL(server.url);
  const headers: Record<string, string> = {
    host: target.host,
    authorization: `Bearer ${server.token}`,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    ...(options.session === undefined ? {} : { "mcp-session-id": options.session }),
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
    ...options.headers,
  };
  if (headers.authorization === "") delete headers.authorization;
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: options.method, headers },
        (res) => {
          let body = "";
          const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString("utf8");
            if (options.until?.test(body)) {
              done();
              req.destroy();
            }
          });
          res.on("end", done);
        },
      );
      req.on("error", reject);
      req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
    },
  );
}
