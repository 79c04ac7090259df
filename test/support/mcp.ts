/**
 * MCP test support: the official SDK client connected to the trestle MCP server, in process over
 * a linked transport pair (fast, for the many small cases), over a real stdio process
 * (`node bin/trestle.mjs mcp`) or over Streamable HTTP (`trestle mcp --http`); a home directory with owner and seat key files; and helpers that
 * read a tool result's text blocks.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createKeyFile } from "../../src/client/node.js";
import type { McpSettings } from "../../src/mcp/config.js";
import { createServer, type ServerOptions } from "../../src/mcp/server.js";
import { McpSession } from "../../src/mcp/session.js";
import { seatFiles, setMandate, type MandateFields } from "../../src/owner/index.js";
import type { CapabilityCard, Signer } from "../../src/protocol/index.js";

const BIN = fileURLToPath(new URL("../../bin/trestle.mjs", import.meta.url));

/** How the test client answers elicitation requests; null: it does not declare the capability. */
export type Elicitor = ((request: ElicitRequest) => ElicitResult | Promise<ElicitResult>) | null;

/** A connected client and the call helper. */
export interface Mcp {
  client: Client;
  /** Every elicitation request the client received. */
  asked: ElicitRequest[];
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
export async function makeHome(url: string, owner: string, seat: string, card: CapabilityCard = { role: "bot", summary: `${seat} for ${owner}` }): Promise<Home> {
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

function testClient(elicit: Elicitor, asked: ElicitRequest[]): Client {
  const client = new Client({ name: "trestle-test", version: "1.0.0" }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return elicit(request);
    });
  }
  return client;
}

function wrap(client: Client, asked: ElicitRequest[], close: () => Promise<void>): Mcp {
  return {
    client,
    asked,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close,
  };
}

/** The server in this process, connected to an SDK client over a linked in-memory transport pair. */
export async function inProcess(settings: McpSettings, elicit: Elicitor = null, logs: string[] = [], options: ServerOptions = {}): Promise<Mcp & { session: McpSession }> {
  const session = new McpSession(settings, { log: (text) => logs.push(text) });
  const { server } = createServer(session, options);
  const asked: ElicitRequest[] = [];
  const client = testClient(elicit, asked);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { ...wrap(client, asked, () => client.close()), session };
}

/** `trestle mcp` as a real child process over stdio, with `env` as its whole environment (plus PATH). */
export async function overStdio(env: Record<string, string>, elicit: Elicitor = null): Promise<Mcp & { stderr: () => string }> {
  const asked: ElicitRequest[] = [];
  const client = testClient(elicit, asked);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  await client.connect(transport);
  return { ...wrap(client, asked, () => client.close()), stderr: () => stderr };
}

/** The SDK's Streamable HTTP client connected to a running `trestle mcp --http` at `url` with the bearer `token`. */
export async function overHttp(url: string, token: string, elicit: Elicitor = null): Promise<Mcp & { transport: StreamableHTTPClientTransport }> {
  const asked: ElicitRequest[] = [];
  const client = testClient(elicit, asked);
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { ...wrap(client, asked, () => client.close()), transport };
}

/** Every text block of a result, joined by blank lines. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n\n");
}

/** The text blocks of a result, in order. */
export function blocksOf(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
}

/** Accepts an elicitation with `confirm: true`. */
export const confirmYes: Elicitor = () => ({ action: "accept", content: { confirm: true } });

/** Signs `home`'s seat's mandate at `table` with its owner key, as the owner does with `trestle mandate set`. */
export async function seatMandate(home: Home, table: string, over: Partial<MandateFields>): Promise<void> {
  const seat = home.settings.seat!;
  const fields: MandateFields = { table, seat, owner: home.settings.owner!, never_disclose: [], require_confirm: [], paused: false, ...over };
  await setMandate(seatFiles(home.dir, table, seat).mandate, home.owner, fields, { now: Date.now() });
}
