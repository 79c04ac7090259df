/**
 * Public-table routes (docs/SPEC.md §6.4): no authorization, answered only for tables whose config
 * says `public: true` (E_FORBIDDEN otherwise). The export and a receive-only WebSocket.
 */
import { Hono } from "hono";
import { TrestleError } from "../../src/protocol/errors.js";
import { unwrap } from "../../durable-objects/result.js";
import { tableStub } from "../http.js";

/** The /tables/:id/public routes. */
export const publicTables = new Hono<{ Bindings: Env }>();

publicTables.get("/:id/public/export", async (c) => {
  const text = unwrap(await tableStub(c, c.req.param("id")).publicExport());
  return c.body(text, 200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "access-control-allow-origin": "*",
    "cache-control": "no-store",
  });
});

publicTables.get("/:id/public/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
  }
  return tableStub(c, c.req.param("id")).fetch(c.req.raw);
});
