/**
 * The A2A agent behind a seat (src/owner/a2a-agent.ts, docs/AGENTS.md "--a2a") against real A2A
 * servers made with @a2a-js/sdk's own server classes on 127.0.0.1, and real HTTP servers that
 * redirect: an agent that speaks A2A v0.3 (its card names a `url` and a `protocolVersion`) answers
 * a turn as a v1.0 agent does; a redirect within the agent's origin is followed (a bounded number
 * of times), and one to another origin is refused with E_AGENT before anything is sent there.
 */
import type { AddressInfo, Server } from "node:net";
import express from "express";
import { Message } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { afterAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../src/client/node.js";
import { a2aAgent } from "../../../src/owner/a2a-agent.js";
import { agentTurn } from "../../../src/owner/agent-turn.js";
import { OwnerWords } from "../../../src/owner/index.js";
import { debaterCard } from "../../support/a2a-card.js";
import { unitProjection } from "../../support/agent-turn.js";
import { keyOf } from "../../support/table-fixture.js";
import { refusal } from "../../support/refused.js";

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

/** An express app listening on a port of its own (so an origin of its own), set up by `routes` with its URL. */
async function serve(routes: (app: express.Express, url: string) => void): Promise<string> {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes(app, url);
  return url;
}

/** Every turn an agent received, by the agent's name. */
const received: string[] = [];

/** An A2A agent `name` that answers each turn with the say "`name` answers". */
function executor(name: string): AgentExecutor {
  return {
    async execute(context, bus) {
      received.push(name);
      bus.publish(
        AgentEvent.message(
          Message.fromJSON({
            messageId: crypto.randomUUID(),
            contextId: context.contextId,
            role: "ROLE_AGENT",
            parts: [{ text: `${name} answers` }],
          }),
        ),
      );
      bus.finished();
    },
    async cancelTask() {},
  };
}

/** Mounts agent `name` (the SDK's handler) at `path` of `app`, with its v1.0 card at the well-known path unless `served` is false. */
function mountAgent(
  app: express.Express,
  url: string,
  name: string,
  path: string,
  options: { served?: boolean; legacy?: boolean } = {},
): void {
  const agentCard = debaterCard(`${url}${path}`, options.legacy ? "0.3" : "1.0");
  const handler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), executor(name));
  if (options.served !== false)
    app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: async () => agentCard }));
  app.use(
    path,
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      ...(options.legacy ? { legacyCompat: { enabled: true } } : {}),
    }),
  );
}

/** Redirects `from` on `app` to `to` (relative or absolute) with `status`. */
function redirect(app: express.Express, from: string, to: string, status = 307): void {
  app.all(from, (_req, res) => res.redirect(status, to));
}

/** The agent at `url` as a seat's agent; the relay it would ask the owner through is never reached in these turns. */
async function connect(url: string) {
  return a2aAgent({
    url,
    timeoutMs: 20_000,
    http: new HttpClient({ url: "http://127.0.0.1:9" }),
    table: "t-unit",
    seat: "bot-tao",
    signer: await keyOf("seat:bot-tao"),
    words: await OwnerWords.at("/nonexistent-trestle-home", "t-unit"),
    clock: Date.now,
    boundary: () => "B".repeat(24),
  });
}

const turn = agentTurn("bot-tao", "open", unitProjection("open"));
const stop = new AbortController().signal;

/** The agent that a cross-origin redirect would reach: it must never get a turn. */
const elsewhere = await serve((app, url) => mountAgent(app, url, "elsewhere", "/a2a/jsonrpc"));

describe("an A2A v0.3 agent", () => {
  it("is reached through its v0.3 card (url and protocolVersion) and answers the turn over v0.3 JSON-RPC", async () => {
    const url = await serve((app, url) => {
      mountAgent(app, url, "legacy", "/a2a/jsonrpc", { served: false, legacy: true });
      const v03 = {
        protocolVersion: "0.3.0",
        name: "debater",
        description: "argues one side",
        url: `${url}/a2a/jsonrpc`,
        preferredTransport: "JSONRPC",
        version: "1.0.0",
        capabilities: { streaming: false },
        defaultInputModes: ["text/plain", "application/json"],
        defaultOutputModes: ["text/plain", "application/json"],
        skills: [{ id: "debate", name: "debate", description: "argues one side", tags: ["debate"] }],
      };
      app.get("/.well-known/agent-card.json", (_req, res) => res.json(v03));
    });
    const agent = await connect(url);
    expect(await agent.turn(turn, stop)).toEqual({ text: "legacy answers" });
  });
});

describe("a redirect", () => {
  it("within the agent's origin is followed, and the turn answered", async () => {
    const url = await serve((app, url) => {
      mountAgent(app, url, "moved", "/a2a/jsonrpc", { served: false });
      app.use(
        "/.well-known/agent-card.json",
        agentCardHandler({ agentCardProvider: async () => debaterCard(`${url}/old/jsonrpc`) }),
      );
      redirect(app, "/old/jsonrpc", "/a2a/jsonrpc", 308);
    });
    expect(await (await connect(url)).turn(turn, stop)).toEqual({ text: "moved answers" });
  });

  describe("when it leaves the agent's origin", () => {
    it("refuses the turn with E_AGENT and sends nothing to the other origin", async () => {
      const url = await serve((app, url) => {
        app.use(
          "/.well-known/agent-card.json",
          agentCardHandler({ agentCardProvider: async () => debaterCard(`${url}/a2a/jsonrpc`) }),
        );
        redirect(app, "/a2a/jsonrpc", `${elsewhere}/a2a/jsonrpc`);
      });
      const agent = await connect(url);
      const error = await refusal(() => agent.turn(turn, stop));
      expect(error).toMatchObject({ code: "E_AGENT", details: { reason: "redirected", to: elsewhere } });
      expect(error.message).toBe(
        `the A2A agent at ${url} redirected the request to another origin, ${elsewhere}; nothing was sent there and nothing was written (give --a2a that agent's own URL if you trust it)`,
      );
      expect(received).not.toContain("elsewhere");
    });

    it("refuses the agent card's redirect too, before any turn", async () => {
      const url = await serve((app) =>
        redirect(app, "/.well-known/agent-card.json", `${elsewhere}/.well-known/agent-card.json`, 302),
      );
      const error = await refusal(() => connect(url));
      expect(error).toMatchObject({ code: "E_AGENT", details: { reason: "redirected", to: elsewhere } });
    });
  });

  describe("when it never ends", () => {
    it("refuses the turn with E_AGENT after a bounded number of redirects", async () => {
      const url = await serve((app, url) => {
        app.use(
          "/.well-known/agent-card.json",
          agentCardHandler({ agentCardProvider: async () => debaterCard(`${url}/loop`) }),
        );
        redirect(app, "/loop", "/loop");
      });
      const error = await refusal(async () => (await connect(url)).turn(turn, stop));
      expect(error).toMatchObject({ code: "E_AGENT", details: { reason: "redirected", redirects: 5 } });
    });
  });
});
