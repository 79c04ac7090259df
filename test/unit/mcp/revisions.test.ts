/**
 * Both MCP revisions from one `trestle mcp --http` (decision 0481), against a local relay: an SDK v2
 * client pinned to 2026-07-28 (no initialize, no session: `table` and `cursor` are arguments) and
 * an SDK v1 client speaking 2025-11-25 each list the tools, read a table's live resource and hear
 * of a new entry without polling (a `subscriptions/listen` stream; `resources/subscribe`), and get
 * an approval signed only after the owner's click in the principal window their link opens (an
 * input-required result carrying it; URL-mode elicitation). A 2026-07-28 retry whose request state
 * was tampered with, or sealed for another call, is refused before anything runs.
 */
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableClient } from "../../../src/client/index.js";
import { settingsEnv } from "../../../src/mcp/print-config.js";
import { profileTools } from "../../../src/mcp/profiles.js";
import { isEntry, type Signer } from "../../../src/protocol/index.js";
import type { DecisionViewWire } from "../../../src/view/wire.js";
import { cli, type CliProcess } from "../../support/cli.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import {
  clickDecision,
  makeHome,
  overHttp,
  overStdio,
  ownerInWindow,
  readDecision,
  textOf,
  type Home,
  type Mcp,
} from "../../support/mcp.js";
import { keyOf } from "../../support/table-fixture.js";

let relay: LocalRelay;
let home: Home;
let server: CliProcess;
let url = "";
let token = "";
let modern: Mcp;
let harness: TableClient;
let jenny: Signer;
let botJenny: Signer;
const table = uniqueTable("mcp-rev");
/** What the owner saw in the principal window. */
const seen: DecisionViewWire[] = [];
const EFFECT = { owner: "tao", resource: "taskboard", action: "create_card", args: { title: "both revisions" } };

beforeAll(async () => {
  relay = await sharedRelay();
  home = await makeHome(relay.url, "tao", "bot-tao");
  jenny = await keyOf("owner:jenny");
  botJenny = await keyOf("seat:bot-jenny");
  server = cli(home.dir, relay.url).start(["mcp", "--http"], { env: settingsEnv(home.settings) });
  url = (await server.printed(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp);/))[1]!;
  token = (await server.printed(/bearer token (\S+) \(printed once/))[1]!;
  modern = await overHttp(url, token, ownerInWindow("approve", seen), "2026-07-28");
  const config = {
    id: table,
    topic: "One server, two revisions",
    owners: {
      tao: { public_key: home.owner.publicKeyText },
      jenny: { public_key: jenny.publicKeyText, approvals: "async" },
    },
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
    topology: { kind: "open" },
    termination: { any: ["decision", { max_entries: 500 }] },
  };
  expect(textOf(await modern.call("trestle_create_table", { config }))).toContain(`pass table ${table} on each call`);
  expect(textOf(await modern.call("trestle_join", { table }))).toMatch(/^Seat bot-tao joined table /);
  harness = await tableClient(relay.url, table);
  await harness.join(jenny, {
    seat: "bot-jenny",
    owner: "jenny",
    seatKey: botJenny.publicKeyText,
    card: { summary: "jenny's bot" },
    expires: Date.now() + 60_000,
  });
}, 60_000);
afterAll(async () => {
  await modern?.close();
  server?.child.kill("SIGTERM");
  await server?.done;
});

/** The next `notifications/resources/updated` naming `uri` that `client` hears. */
function updated(client: Mcp["client"], uri: string): Promise<string> {
  return new Promise((resolve) =>
    client.setNotificationHandler("notifications/resources/updated", (notification) => {
      if (notification.params.uri === uri) resolve(notification.params.uri);
    }),
  );
}

describe("a 2026-07-28 client (SDK v2, pinned): stateless", { timeout: 30_000 }, () => {
  it("discovers the server without initialize or session, and lists the profile's tools, the role prompts and the table's resources", async () => {
    expect(modern.client.getProtocolEra()).toBe("modern");
    expect((modern as Mcp & { transport: { sessionId?: string } }).transport.sessionId).toBeUndefined();
    expect((await modern.client.listTools()).tools.map((t) => t.name)).toEqual(
      profileTools("table").map((t) => t.name),
    );
    expect((await modern.client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      "trestle_debater",
      "trestle_reviewer",
    ]);
    const templates = (await modern.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual(
      ["seat", "room", "pending", "listings", "matches"].map((kind) => `trestle://tables/{table}/${kind}`),
    );
  });

  it("completes a table id for a role prompt and a resource template from the tables it knows", async () => {
    const prompt = await modern.client.complete({
      ref: { type: "ref/prompt", name: "trestle_debater" },
      argument: { name: "table", value: table.slice(0, 8) },
    });
    expect(prompt.completion.values).toContain(table);
    const template = await modern.client.complete({
      ref: { type: "ref/resource", uri: "trestle://tables/{table}/seat" },
      argument: { name: "table", value: "no-such-prefix" },
    });
    expect(template.completion.values).toEqual([]);
  });

  it("mirrors the table in Mcp-Param-Table and refuses a call whose header says another table (400, -32020)", async () => {
    const mismatched = await rawModern(
      "tools/call",
      { name: "trestle_read", arguments: { table } },
      { "mcp-param-table": "another-table" },
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('the Mcp-Param-Table header decodes to "another-table"'),
    });
    const missing = await rawModern("tools/call", { name: "trestle_read", arguments: { table } }, {});
    expect(missing.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining("the Mcp-Param-Table header is absent"),
    });
    const agreed = await rawModern(
      "tools/call",
      { name: "trestle_read", arguments: { table } },
      { "mcp-param-table": `=?base64?${Buffer.from(table).toString("base64")}?=` },
    );
    expect(agreed.status).toBe(200);
    expect(agreed.result).toMatchObject({ structuredContent: { table } });
  });

  it("remembers no read: the cursor and prefix hash come back in the result and go in the next call", async () => {
    const first = await modern.call("trestle_read", { table });
    const { cursor, prefix_sha256 } = first.structuredContent as { cursor: number; prefix_sha256: string };
    expect(textOf(first)).toContain(`Next time pass cursor ${cursor} and prefix_sha256 ${prefix_sha256}`);
    const next = await modern.call("trestle_read", { table, cursor, prefix_sha256 });
    expect(next.structuredContent).toMatchObject({ cursor, entries: 0 });
    expect(textOf(next)).toContain("The prefix is unchanged since your last read");
    const again = await modern.call("trestle_read", { table });
    expect(textOf(again)).toContain(
      "The table's prefix (topic, rules, seats and their cards, decisions in force) is below: first read.",
    );
  });

  it("reads the seat's live resource and hears of a new entry on its listen stream, without polling", async () => {
    const uri = `trestle://tables/${table}/seat`;
    const read = await modern.client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: "text/plain" });
    expect((read.contents[0] as { text: string }).text).toContain(`table ${table}: you are seat bot-tao.`);
    const heard = updated(modern.client, uri);
    const subscription = await modern.client.listen({ resourceSubscriptions: [uri] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
    await harness.submit(botJenny, "bot-jenny", { kind: "say", body: "news for the listen stream" });
    expect(await heard).toBe(uri);
    expect(((await modern.client.readResource({ uri })).contents[0] as { text: string }).text).toContain(
      "news for the listen stream",
    );
    await subscription.close();
  });

  it("asks the owner by an input-required result carrying the link, and signs after their click in the window", async () => {
    const proposed = textOf(await modern.call("trestle_propose", { table, text: "a card", effects: [EFFECT] }));
    const task = /It opened a task: (\d+\.tao)/.exec(proposed)![1]!;
    const pending = await modern.client.readResource({ uri: `trestle://tables/${table}/pending` });
    expect((pending.contents[0] as { text: string }).text).toContain(`  task ${task} awaits approval`);
    const approved = await modern.call("trestle_approve", { table, task });
    expect(textOf(approved)).toContain(`task ${task} approved`);
    expect(modern.asked.at(-1)).toMatchObject({
      mode: "url",
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#decision=/),
    });
    expect(seen.at(-1)!.lines.join("\n")).toContain('create_card on taskboard with title = "both revisions"');
    const approval = (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items
      .filter(isEntry)
      .find((e) => e.kind === "approval");
    expect(approval).toMatchObject({
      owner: "tao",
      task,
      verdict: "approve",
      author: { key: home.owner.publicKeyText },
    });
  });

  describe("when a 2026-07-28 request lacks the token or comes from elsewhere", () => {
    it.each([
      ["no token", 401, { authorization: "" }],
      ["a foreign Origin", 403, { origin: "http://evil.example" }],
      ["a foreign Host", 403, { host: "evil.example" }],
    ] as const)(
      "refuses %s with %i before MCP, and the write never reaches the ledger",
      async (what, status, headers) => {
        const refused = await rawNode({ name: "trestle_say", arguments: { table, text: `refused: ${what}` } }, headers);
        expect(refused.status).toBe(status);
        expect(refused.body).not.toContain(token);
        const seen = (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items.filter(isEntry);
        expect(seen.some((e) => e.kind === "say" && e.body === `refused: ${what}`)).toBe(false);
      },
    );
  });

  describe("when a retry brings back request state that is not this server's, for this call", () => {
    it("refuses it before the tool runs: tampered (-32602, the SDK's words), or sealed for another call", async () => {
      const proposed = textOf(await modern.call("trestle_propose", { table, text: "another card", effects: [EFFECT] }));
      const task = /It opened a task: (\d+\.tao)/.exec(proposed)![1]!;
      const first = await rawModern("tools/call", { name: "trestle_approve", arguments: { table, task } });
      expect(first.result).toMatchObject({
        resultType: "input_required",
        inputRequests: { owner: { method: "elicitation/create", params: { mode: "url" } } },
      });
      const state = String((first.result as { requestState: string }).requestState);
      const accepted = { owner: { action: "accept" } };
      const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
      const refused = await rawModern("tools/call", {
        name: "trestle_approve",
        arguments: { table, task },
        inputResponses: accepted,
        requestState: tampered,
      });
      expect(refused.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
      const elsewhere = await rawModern("tools/call", {
        name: "trestle_reject",
        arguments: { table, task },
        inputResponses: accepted,
        requestState: state,
      });
      expect(elsewhere.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("this requestState belongs to another call"),
      });
      const link = String(
        (first.result as { inputRequests: { owner: { params: { url: string } } } }).inputRequests.owner.params.url,
      );
      expect((await readDecision(link)).state).toBe("pending");
      expect(
        (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items
          .filter(isEntry)
          .filter((e) => e.kind === "approval" && e.task === task),
      ).toEqual([]);
    });
  });
});

describe("a 2025-11-25 client (SDK v1): initialize and a session", { timeout: 30_000 }, () => {
  let v1: V1Client;
  const asked: string[] = [];
  beforeAll(async () => {
    v1 = new V1Client({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } } });
    v1.setRequestHandler(ElicitRequestSchema, (request) => {
      const link = request.params.mode === "url" ? request.params.url : "";
      asked.push(link);
      void readDecision(link).then(() => clickDecision(link, "approve"));
      return { action: "accept" };
    });
    await v1.connect(new V1Transport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  });
  afterAll(() => v1?.close());

  it("lists the tools, reads the seat's resource, and hears of a new entry after resources/subscribe", async () => {
    expect((await v1.listTools()).tools.map((t) => t.name)).toEqual(profileTools("table").map((t) => t.name));
    const uri = `trestle://tables/${table}/seat`;
    expect(JSON.stringify((await v1.readResource({ uri })).contents)).toContain(
      `table ${table}: you are seat bot-tao.`,
    );
    const heard = new Promise<string>((resolve) =>
      v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await v1.subscribeResource({ uri });
    await harness.submit(botJenny, "bot-jenny", { kind: "say", body: "news for the subscriber" });
    expect(await heard).toBe(uri);
  });

  it("gets an approval signed only after the owner's click in the window its URL elicitation opened", async () => {
    const proposed = await v1.callTool({
      name: "trestle_propose",
      arguments: { table, text: "a v1 card", effects: [EFFECT] },
    });
    const task = /It opened a task: (\d+\.tao)/.exec(JSON.stringify(proposed))![1]!;
    const approved = await v1.callTool({ name: "trestle_approve", arguments: { table, task } }, undefined, {
      timeout: 60_000,
    });
    expect(JSON.stringify(approved)).toContain(`task ${task} approved`);
    expect(asked.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#decision=/);
  });
});

describe("a 2026-07-28 client over stdio", { timeout: 30_000 }, () => {
  it("serves the stateless revision on stdio too: the seat's resource and its listen stream", async () => {
    const stdio = await overStdio(settingsEnv(home.settings), null, "2026-07-28");
    try {
      expect(stdio.client.getProtocolEra()).toBe("modern");
      const uri = `trestle://tables/${table}/seat`;
      expect(JSON.stringify((await stdio.client.readResource({ uri })).contents)).toContain("you are seat bot-tao");
      const heard = updated(stdio.client, uri);
      await stdio.client.listen({ resourceSubscriptions: [uri] });
      await harness.submit(botJenny, "bot-jenny", { kind: "say", body: "news on stdio" });
      expect(await heard).toBe(uri);
    } finally {
      await stdio.close();
    }
  });
});

/** A 2026-07-28 tools/call sent with node:http (which sends any Host and Origin), with the token unless `headers` replaces it. */
function rawNode(
  params: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const all: Record<string, string> = {
    host: target.host,
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": String(params.name),
    "mcp-param-table": table,
    ...headers,
  };
  if (all.authorization === "") delete all.authorization;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: all },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: envelope } }));
  });
}

/** One 2026-07-28 request, as a client writes it by hand: the envelope, the standard headers (the table's Mcp-Param-Table unless `extra` replaces it) and the token. */
async function rawModern(
  method: string,
  params: Record<string, unknown>,
  extra?: Record<string, string>,
): Promise<{ status: number; result?: unknown; error?: { code: number; message: string } }> {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
  };
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": String(params.name),
      ...(extra ??
        (params.arguments && typeof (params.arguments as { table?: unknown }).table === "string"
          ? { "mcp-param-table": String((params.arguments as { table: string }).table) }
          : {})),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope } }),
  });
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (/^data: (.*)$/m.exec(
        text
          .split("\n\n")
          .filter((e) => e.includes('"id":1'))
          .at(-1) ?? "",
      )?.[1] ?? "{}");
  return {
    status: response.status,
    ...(JSON.parse(json) as { result?: unknown; error?: { code: number; message: string } }),
  };
}
