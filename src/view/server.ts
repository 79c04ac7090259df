/**
 * The principal window's local HTTP server (docs/VIEW.md), on 127.0.0.1 only: the page's static
 * files, the live stream of events (`GET /api/stream`, one JSON object per line) and the page's
 * actions (`POST /api/approve`, `/api/control`, `/api/revoke`, `/api/gate`, the owner in the loop's
 * `/api/answer`, `/api/instruct`, `/api/deal`, and a market's `/api/market-room` and
 * `/api/reconcile`), which the owner key signs (or the owner's home answers) here; and, for
 * `trestle mcp`, one decision an agent asked the owner for at a time (`/api/decision`,
 * decisions.ts). Every request passes access.ts first; no response carries a CORS header, and the
 * page may load nothing and connect nowhere but here (Content-Security-Policy). Refusals use the
 * protocol's error codes and envelope.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { randomBytes } from "../client/index.js";
import { concatBytes, httpStatusOf, schemaError, toBase64url, TrestleError } from "../protocol/index.js";
import type { Asset } from "./assets.js";
import type { Decisions } from "./decisions.js";
import {
  apiRefusal,
  DECISION_HEADER,
  decisionRefusal,
  pageRefusal,
  TOKEN_HEADER,
  type RequestFacts,
  type WindowIdentity,
} from "./access.js";
import type { OwnerWindow } from "./owner-window.js";
import {
  AnswerBodySchema,
  ApproveBodySchema,
  ControlBodySchema,
  DealBodySchema,
  GateBodySchema,
  InstructBodySchema,
  MarketRoomBodySchema,
  ReconcileBodySchema,
  RevokeBodySchema,
  DecisionBodySchema,
  type ActionResult,
  type DecisionViewWire,
  type GateResult,
  type LoopResult,
  type ViewEvent,
} from "./wire.js";

/** What the server serves: the principal's events and actions. */
export type WindowBackend = Pick<
  OwnerWindow,
  "subscribe" | "approve" | "control" | "revoke" | "gate" | "answer" | "instruct" | "deal" | "enterRoom" | "reconcile"
>;

/** Options for serveWindow. */
export interface ServeOptions {
  /** The whole window's events and actions (`trestle view`); none: the window serves only `decisions`. */
  backend?: WindowBackend;
  /** Decisions agents asked the owner for, each opened at its own link (`trestle mcp`, decisions.ts). */
  decisions?: Decisions<unknown>;
  assets: ReadonlyMap<string, Asset>;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Interval of the stream's keepalive lines; default 20 s. */
  pingMs?: number;
}

/** A running window. */
export interface WindowServer {
  /** The URL to open: this server with the token in its fragment (never sent in a request line). */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const BODY_LIMIT = 4096;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Starts the window's server on 127.0.0.1 with a fresh random token. */
export async function serveWindow(options: ServeOptions): Promise<WindowServer> {
  const identity: WindowIdentity = { port: 0, token: toBase64url(randomBytes(32)) };
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void handle(req, res, options, identity, streams).catch((error: unknown) => refuse(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  identity.port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${identity.port}/#${identity.token}`,
    port: identity.port,
    token: identity.token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of streams) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: ServeOptions,
  identity: WindowIdentity,
  streams: Set<ServerResponse>,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://window").pathname;
  const facts = factsOf(req);
  const asset = req.method === "GET" ? options.assets.get(path) : undefined;
  if (asset) {
    const refusal = pageRefusal(facts, identity);
    if (refusal) return refuse(res, refusal);
    res.writeHead(200, { ...SECURITY_HEADERS, "content-type": asset.type, "cache-control": asset.cache });
    return void res.end(asset.body);
  }
  if (!path.startsWith("/api/")) return refuse(res, new TrestleError("E_NOT_FOUND", `no ${path} here`));
  if (path === "/api/decision" && options.decisions) return decision(req, res, options.decisions, facts, identity);
  const refusal = apiRefusal(facts, identity);
  if (refusal) return refuse(res, refusal);
  const backend = options.backend;
  if (!backend)
    return refuse(
      res,
      new TrestleError(
        "E_NOT_FOUND",
        "this window shows only the decisions your agent asked you for; run trestle view for the whole window",
      ),
    );
  if (req.method === "GET" && path === "/api/stream") return stream(req, res, backend, options.pingMs, streams);
  if (req.method === "POST" && path === "/api/approve")
    return answer(res, await backend.approve(await body(req, ApproveBodySchema)));
  if (req.method === "POST" && path === "/api/control")
    return answer(res, await backend.control(await body(req, ControlBodySchema)));
  if (req.method === "POST" && path === "/api/revoke")
    return answer(res, await backend.revoke(await body(req, RevokeBodySchema)));
  if (req.method === "POST" && path === "/api/gate")
    return answer(res, await backend.gate(await body(req, GateBodySchema)));
  if (req.method === "POST" && path === "/api/answer")
    return answer(res, await backend.answer(await body(req, AnswerBodySchema)));
  if (req.method === "POST" && path === "/api/instruct")
    return answer(res, await backend.instruct(await body(req, InstructBodySchema)));
  if (req.method === "POST" && path === "/api/deal")
    return answer(res, await backend.deal(await body(req, DealBodySchema)));
  if (req.method === "POST" && path === "/api/market-room")
    return answer(res, await backend.enterRoom(await body(req, MarketRoomBodySchema)));
  if (req.method === "POST" && path === "/api/reconcile")
    return answer(res, await backend.reconcile(await body(req, ReconcileBodySchema)));
  refuse(res, new TrestleError("E_NOT_FOUND", `no ${req.method} ${path} here`));
}

/** `GET /api/decision` shows the decision the credential names; `POST` answers it (Approve signs). */
async function decision(
  req: IncomingMessage,
  res: ServerResponse,
  decisions: Decisions<unknown>,
  facts: RequestFacts,
  identity: WindowIdentity,
): Promise<void> {
  const refusal = decisionRefusal(facts, identity);
  if (refusal) return refuse(res, refusal);
  const credential = facts.decision!;
  if (req.method === "GET") return answer(res, decisions.view(credential));
  if (req.method === "POST")
    return answer(res, await decisions.answer(credential, (await body(req, DecisionBodySchema)).verdict));
  refuse(res, new TrestleError("E_NOT_FOUND", `no ${req.method} /api/decision here`));
}

function factsOf(req: IncomingMessage): RequestFacts {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === "string" ? value : undefined;
  };
  return {
    method: req.method ?? "GET",
    host: header("host"),
    origin: header("origin"),
    fetchSite: header("sec-fetch-site"),
    token: header(TOKEN_HEADER),
    decision: header(DECISION_HEADER),
  };
}

/** The live stream: everything as of now, then each change, and a keepalive line now and then. */
function stream(
  req: IncomingMessage,
  res: ServerResponse,
  backend: WindowBackend,
  pingMs: number | undefined,
  streams: Set<ServerResponse>,
): void {
  res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "application/x-ndjson; charset=utf-8" });
  streams.add(res);
  const send = (event: ViewEvent) => {
    if (!res.destroyed && !res.writableEnded) res.write(`${JSON.stringify(event)}\n`);
  };
  const unsubscribe = backend.subscribe(send);
  const ping = setInterval(() => send({ type: "ping" }), pingMs ?? 20_000);
  req.once("close", () => {
    clearInterval(ping);
    unsubscribe();
    streams.delete(res);
  });
}

/** A JSON body of at most BODY_LIMIT bytes, sent as application/json, parsed by `schema`. */
async function body<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.infer<S>> {
  if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json"))
    throw new TrestleError("E_SCHEMA", "the body must be application/json");
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > BODY_LIMIT) throw new TrestleError("E_TOO_LARGE", `bodies are limited to ${BODY_LIMIT} bytes`);
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(concatBytes(...chunks)));
  } catch {
    throw new TrestleError("E_SCHEMA", "the body is not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw schemaError(parsed.error.issues, "the body");
  return parsed.data;
}

function answer(res: ServerResponse, result: ActionResult | GateResult | LoopResult | DecisionViewWire): void {
  res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "application/json" });
  res.end(JSON.stringify(result));
}

/** The error envelope with the code's status; anything that is not a TrestleError is E_INTERNAL without detail. */
function refuse(res: ServerResponse, error: unknown): void {
  const err = error instanceof TrestleError ? error : new TrestleError("E_INTERNAL", "the window failed unexpectedly");
  if (res.headersSent) return void res.end();
  res.writeHead(httpStatusOf(err.code), { ...SECURITY_HEADERS, "content-type": "application/json" });
  res.end(JSON.stringify(err.toEnvelope()));
}
