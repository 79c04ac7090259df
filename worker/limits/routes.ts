/**
 * The per-address limits in front of the routes (docs/SPEC.md §10.1, decision 0260), registered on
 * the app before the routes they guard, so the route files stay as they are: table creation
 * (`POST /tables`, sub-tables, a table taken into custody), joins (by seat or by invite code),
 * socket upgrades and replica pages are counted by the client's CounterDO;
 * unsigned reads that reach a table (its head, a public export, the viewer's page, a public market's listings and matches) by Cloudflare's rate-limiting
 * binding. Refused HTTP requests get 429 with `Retry-After`; a refused upgrade gets a socket
 * that carries the refusal and closes 4429. On a public demo, chat apps, mirrors and imports are off
 * unless the operator allows them: their webhooks, bind codes, replica pages and custody requests are refused.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { TrestleError } from "../../src/protocol/errors.js";
import { rateLimited } from "../../src/protocol/limits/rate-limited.js";
import { clientCounters } from "../../durable-objects/stubs.js";
import type { ClientLimit } from "../../durable-objects/counters/counters.js";
import { chatAppsAllowed, limitsOf, mirrorsAllowed } from "../../durable-objects/settings.js";
import { refusedUpgrade } from "../../durable-objects/limits/refuse-socket.js";
import { unwrap } from "../../durable-objects/result.js";
import { clientAddress } from "./client-address.js";

type Middleware = MiddlewareHandler<{ Bindings: Env }>;

/** Counts the request against the client's `limit` in its CounterDO before the route runs. */
function counted(limit: ClientLimit): Middleware {
  return async (c, next) => {
    unwrap(await clientCounters(c.env, clientAddress(c.req.raw)).take(limit));
    await next();
  };
}

/** Counts a WebSocket upgrade; a refusal is answered on a socket of its own (refuse-socket.ts). Other requests pass to the route. */
const upgrade: Middleware = async (c, next) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") return next();
  try {
    unwrap(await clientCounters(c.env, clientAddress(c.req.raw)).take("client_connects_per_min"));
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_RATE_LIMITED") return refusedUpgrade(error);
    throw error;
  }
  return next();
};

/** Counts an unsigned read at the edge (approximate, per location); the binding gives no wait, so a refusal asks for its period. */
const edgeRead: Middleware = async (c, next) => {
  const perMin = limitsOf(c.env).edge_reads_per_min;
  if (perMin > 0 && c.env.EDGE_READS) {
    const { success } = await c.env.EDGE_READS.limit({ key: clientAddress(c.req.raw) });
    if (!success)
      throw rateLimited(
        "edge_reads_per_min",
        60_000,
        `too many unsigned reads from this address (edge_reads_per_min: ${perMin}); retry in a minute`,
      );
  }
  await next();
};

/** Counts a read at the edge when it carries no signed authorization (a public market's listings and matches); a signed read is counted by its table. */
const unsignedRead: Middleware = (c, next) => (c.req.header("authorization") ? next() : edgeRead(c, next));

/** Refuses chat-app routes on a public demo that does not allow chat apps (TRESTLE_DEMO_CHAT_APPS). */
const chatApps: Middleware = async (c, next) => {
  if (!chatAppsAllowed(c.env)) throw new TrestleError("E_FORBIDDEN", "chat apps are off on this public demo relay");
  await next();
};

/** Refuses feeding a mirror and taking custody on a public demo that does not allow it (TRESTLE_DEMO_MIRRORS). */
const mirrors: Middleware = async (c, next) => {
  if (!mirrorsAllowed(c.env))
    throw new TrestleError("E_FORBIDDEN", "mirrors and imports are off on this public demo relay");
  await next();
};

/** Registers the limits on `app`; call before mounting the routes. */
export function applyLimits(app: Hono<{ Bindings: Env }>): void {
  app.post("/tables", counted("client_tables_per_hour"));
  app.post("/tables/:id/subtables", counted("client_tables_per_hour"));
  app.post("/tables/:id/custody", mirrors, counted("client_tables_per_hour"));
  app.post("/tables/:id/join", counted("client_joins_per_min"));
  app.post("/invites/join", counted("client_joins_per_min"));
  app.post("/tables/:id/replica", mirrors, counted("client_pages_per_hour"));
  app.get("/tables/:id/ws", upgrade);
  app.get("/tables/:id/public/ws", upgrade);
  app.get("/tables/:id/head", edgeRead);
  app.get("/tables/:id/public/export", edgeRead);
  app.get("/view/:id", edgeRead);
  app.get("/tables/:id/listings", unsignedRead);
  app.get("/tables/:id/matches/:seq", unsignedRead);
  app.use("/hooks/*", chatApps);
  app.post("/owners/:key/bind-codes", chatApps);
  app.post("/tables/:id/group-codes", chatApps);
}
