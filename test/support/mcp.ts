/**
 * MCP test support: the official SDK v2 client (`@modelcontextprotocol/client`) connected to the
 * trestle MCP server, in process over a linked transport pair (fast, for the many small cases, the
 * 2025-11-25 revision), over a real stdio process (`node bin/trestle.mjs mcp`) or over Streamable
 * HTTP (`trestle mcp --http`), in either revision; the v1 SDK client over HTTP; a home directory
 * with owner and seat key files; the owner in the principal window (what its page sends when they
 * click, decisions by URL, decision 0480); and helpers that read a tool result's text blocks.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { createKeyFile } from "../../src/client/node.js";
import type { McpSettings } from "../../src/mcp/config.js";
import { createHost, createServer, type ServerOptions } from "../../src/mcp/server.js";
import { McpSession } from "../../src/mcp/session.js";
import { seatFiles, setMandate, type MandateFields } from "../../src/owner/index.js";
import type { CapabilityCard, Signer } from "../../src/protocol/index.js";
import type { DecisionViewWire } from "../../src/view/wire.js";

const BIN = fileURLToPath(new URL("../../bin/trestle.mjs", import.meta.url));

/** The revisions a test client speaks: 2025-11-25 opens with initialize; 2026-07-28 is stateless. */
export type Revision = "2025-11-25" | "2026-07-28";

/** How the test client answers elicitation requests; null: it does not declare the capability. */
export type Elicitor = ((request: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>) | null;

/** A connected client and the call helper. */
export interface Mcp {
  client: Client;
  /** Every elicitation request the client received. */
  asked: ElicitRequest["params"][];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}
/** An owner's home: their owner key and their seat's key, a card file, and settings pointing at them. */
export interface Home {
  dir: string;
  owner: Signer;
  seat: Signer;
  settings: McpSettings;
}

/** Creates a home for `owner` with a seat `seat` at `url`: key files (0600), a card file, an instructions file. */
export async function makeHome(
  url: string,
  owner: string,
  seat: string,
  card: CapabilityCard = { role: "bot", summary: `${seat} for ${owner}` },
): Promise<Home> {
  const dir = mkdtempSync(join(tmpdir(), "trestle-mcp-"));
  const ownerKeyFile = join(dir, "owners", `${owner}.json`);
  const seatKeyFile = join(dir, "seats", `${seat}.json`);
  const cardFile = join(dir, "card.json");
  const instructionsFile = join(dir, "instructions.md");
  const ownerKey = await createKeyFile(ownerKeyFile, "owner", owner);
  const seatKey = await createKeyFile(seatKeyFile, "seat", seat);
  writeFileSync(cardFile, JSON.stringify(card));
  writeFileSync(instructionsFile, `Argue for ${owner}'s side; never agree to spend money.`);
  return {
    dir,
    owner: ownerKey.signer,
    seat: seatKey.signer,
    settings: { url, home: dir, owner, ownerKeyFile, seat, seatKeyFile, cardFile, instructionsFile },
  };
}

/** The elicitation modes a client declares: both (a link and a form), or only forms. */
export type Modes = "link" | "form";

function testClient(
  elicit: Elicitor,
  asked: ElicitRequest["params"][],
  modes: Modes = "link",
  revision: Revision = "2025-11-25",
): Client {
  const elicitation = modes === "link" ? { form: {}, url: {} } : { form: {} };
  const negotiation = revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {};
  const client = new Client(
    { name: "trestle-test", version: "1.0.0" },
    { capabilities: (elicit ? { elicitation } : {}) as ClientCapabilities, ...negotiation },
  );
  if (elicit) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params);
      return elicit(request.params);
    });
  }
  return client;
}

/** A person's calls wait this long at most: the owner clicks in the window while a call waits. */
const CALL_TIMEOUT_MS = 60_000;

function wrap(client: Client, asked: ElicitRequest["params"][], close: () => Promise<void>): Mcp {
  return {
    client,
    asked,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as CallToolResult,
    close,
  };
}

/** The server in this process (2025-11-25), connected to an SDK client over a linked in-memory transport pair. */
export async function inProcess(
  settings: McpSettings,
  elicit: Elicitor = null,
  logs: string[] = [],
  options: Omit<ServerOptions, "host"> & { modes?: Modes } = {},
): Promise<Mcp & { session: McpSession }> {
  const log = (text: string) => void logs.push(text);
  const session = new McpSession(settings, { log });
  const host = createHost(log);
  const { server } = createServer(session, { ...options, host });
  server.onclose = () => session.close();
  const asked: ElicitRequest["params"][] = [];
  const client = testClient(elicit, asked, options.modes);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { ...wrap(client, asked, async () => void (await Promise.all([client.close(), host.close()]))), session };
}

/** `trestle mcp` as a real child process over stdio, with `env` as its whole environment (plus PATH). */
export async function overStdio(
  env: Record<string, string>,
  elicit: Elicitor = null,
  revision: Revision = "2025-11-25",
): Promise<Mcp & { stderr: () => string }> {
  const asked: ElicitRequest["params"][] = [];
  const client = testClient(elicit, asked, "link", revision);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  await client.connect(transport);
  return { ...wrap(client, asked, () => client.close()), stderr: () => stderr };
}

/** The SDK's Streamable HTTP client connected to a running `trestle mcp --http` at `url` with the bearer `token`, in `revision`. */
export async function overHttp(
  url: string,
  token: string,
  elicit: Elicitor = null,
  revision: Revision = "2025-11-25",
): Promise<Mcp & { transport: StreamableHTTPClientTransport }> {
  const asked: ElicitRequest["params"][] = [];
  const client = testClient(elicit, asked, "link", revision);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { ...wrap(client, asked, () => client.close()), transport };
}

/** The header the window's page sends a decision's credential in (src/view/access.ts). */
const DECISION_HEADER = "x-trestle-decision";

/** What the page opened at a decision's link sends: its credential from the fragment, and the page's own Origin. */
function pageRequest(link: string): { api: string; headers: Record<string, string> } {
  const url = new URL(link);
  const credential = /^#decision=(.+)$/.exec(url.hash)?.[1];
  if (!credential) throw new Error(`not a decision link: ${link}`);
  return {
    api: `${url.origin}/api/decision`,
    headers: {
      [DECISION_HEADER]: credential,
      origin: url.origin,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
  };
}

/** The decision a link opens, as the window's page reads it. */
export async function readDecision(link: string): Promise<DecisionViewWire> {
  const { api, headers } = pageRequest(link);
  const response = await fetch(api, { headers });
  if (!response.ok) throw new Error(`the window refused: ${response.status} ${await response.text()}`);
  return (await response.json()) as DecisionViewWire;
}

/** The owner's click in the window opened at `link`: Approve (the key signs) or Decline; what the page shows after. */
export async function clickDecision(link: string, verdict: "approve" | "decline"): Promise<DecisionViewWire> {
  const { api, headers } = pageRequest(link);
  const response = await fetch(api, { method: "POST", headers, body: JSON.stringify({ verdict }) });
  if (!response.ok) throw new Error(`the window refused: ${response.status} ${await response.text()}`);
  return (await response.json()) as DecisionViewWire;
}

/**
 * The owner: opens each link their client shows and clicks `verdict` in the principal window
 * (keeping what they saw in `seen`), and answers the client that they opened it; a form is declined.
 */
export function ownerInWindow(verdict: "approve" | "decline" = "approve", seen: DecisionViewWire[] = []): Elicitor {
  return (request) => {
    if (request.mode !== "url") return { action: "decline" };
    void readDecision(request.url).then(async (view) => {
      seen.push(view);
      await clickDecision(request.url, verdict);
    });
    return { action: "accept" };
  };
}

/** The owner approves every decision in the window. */
export const ownerApproves: Elicitor = ownerInWindow("approve");

/** Every text block of a result, joined by blank lines. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n\n");
}

/** The text blocks of a result, in order. */
export function blocksOf(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
}

/** A client that answers every elicitation, a link or a form, with accept and `confirm: true` without anyone looking: what must never sign. */
export const confirmYes: Elicitor = () => ({ action: "accept", content: { confirm: true } });

/** Signs `home`'s seat's mandate at `table` with its owner key, as the owner does with `trestle mandate set`. */
export async function seatMandate(home: Home, table: string, over: Partial<MandateFields>): Promise<void> {
  const seat = home.settings.seat!;
  const fields: MandateFields = {
    table,
    seat,
    owner: home.settings.owner!,
    never_disclose: [],
    require_confirm: [],
    paused: false,
    ...over,
  };
  await setMandate(seatFiles(home.dir, table, seat).mandate, home.owner, fields, { now: Date.now() });
}
