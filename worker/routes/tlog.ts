/**
 * A table as a C2SP tlog-tiles log (docs/SPEC.md §12): `GET /tables/:id/checkpoint` (the relay's
 * signed checkpoint note and the cosignatures it keeps for it; open as the head is) and
 * `GET /tables/:id/tile/...` (hash tiles, and entry bundles of public tables; read as the ledger is).
 * Full tiles never change, so they may be cached for good; partial ones only briefly.
 */
import { Hono } from "hono";
import { unwrap } from "../../durable-objects/result.js";
import { signedPath, tableStub, type AppContext } from "../http.js";

/** The /tables/:id/checkpoint and /tables/:id/tile/* routes. */
export const tlog = new Hono<{ Bindings: Env }>();

/** The relay host as this request reached it (lowercase, port only when not the default): a new table's log origin names it. */
export function requestHost(c: AppContext): string {
  return new URL(c.req.url).host.toLowerCase();
}

tlog.get("/:id/checkpoint", async (c) => {
  const note = unwrap(await tableStub(c, c.req.param("id")).checkpoint(requestHost(c)));
  return c.body(note, 200, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "access-control-allow-origin": "*",
  });
});

tlog.get("/:id/tile/*", async (c) => {
  const id = c.req.param("id");
  const pathname = new URL(c.req.url).pathname;
  const path = pathname.slice(pathname.indexOf("/tile/") + 1);
  const tile = unwrap(
    await tableStub(c, id).tile({ header: c.req.header("authorization") ?? null, path: signedPath(c) }, path),
  );
  const scope = tile.public ? "public" : "private";
  return c.body(new Uint8Array(tile.bytes), 200, {
    "content-type": "application/octet-stream",
    "cache-control": tile.immutable ? `${scope}, max-age=31536000, immutable` : `${scope}, max-age=10`,
    ...(tile.public ? { "access-control-allow-origin": "*" } : {}),
  });
});
