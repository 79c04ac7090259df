/**
 * Reading a public table without authorization (docs/SPEC.md §6.4): only a top-level table whose
 * config says `public: true`. Anyone reads the whole ledger as an owner reads it (every entry in
 * full, the originals of truncated bodies, the signed head), as the export, and follows it live on
 * a hibernatable public WebSocket that only receives. Nothing here writes to the ledger.
 */
import { exportText } from "../../../src/protocol/ledger/export.js";
import { TrestleError } from "../../../src/protocol/errors.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import type { TableContext } from "../context.js";
import { attach } from "../sockets/attachment.js";
import { catchUp, send } from "../sockets/fan-out.js";
import type { Ledger } from "../storage/ledger.js";
import { refusedUpgrade } from "../../limits/refuse-socket.js";

/** The hibernation tag of public sockets; seat and owner sockets carry none. */
export const PUBLIC_TAG = "public";

/** Throws unless anyone may read this table: E_FORBIDDEN for a table not marked public, or a sub-table (its opener is a seat, not its owners). */
export function requirePublic(state: TableState): void {
  if (state.config.public !== true) throw new TrestleError("E_FORBIDDEN", `table ${state.table} is not public`);
  if (state.config.parent !== undefined)
    throw new TrestleError("E_FORBIDDEN", `table ${state.table} is a sub-table; sub-tables are never public`);
}

/** The export of a public table: every entry in full, each truncated entry's original, the `earlier` heads and the current `head`. */
export function publicExport(
  state: TableState,
  ledger: Pick<Ledger, "seq" | "all" | "originals">,
  head: SignedHead,
  earlier: readonly SignedHead[] = [],
): string {
  requirePublic(state);
  return exportText(
    { table: state.table, relay: state.relay },
    ledger.all(),
    [...earlier, head],
    ledger.originals(1, ledger.seq),
  );
}

/** Whether an upgrade request is for the public socket (the Worker forwards /tables/:id/public/ws as is). */
export function isPublicUpgrade(request: Request): boolean {
  return new URL(request.url).pathname.endsWith("/public/ws");
}

/** Whether `ws` is a public socket. */
export function isPublicSocket(ctx: DurableObjectState, ws: WebSocket): boolean {
  return ctx.getTags(ws).includes(PUBLIC_TAG);
}

/**
 * Accepts a public socket that starts after entry `after` (the `after` query parameter, clamped to
 * the ledger) and sends it everything up to the current head at once; past the cap, a socket that
 * only carries the refusal (4429).
 */
export async function acceptPublic(t: TableContext, request: Request): Promise<Response> {
  const state = t.state;
  if (!state) throw new TrestleError("E_TABLE_NOT_FOUND");
  requirePublic(state);
  const raw = new URL(request.url).searchParams.get("after") ?? "0";
  if (!/^[0-9]{1,15}$/.test(raw))
    throw new TrestleError("E_SCHEMA", 'query parameter "after" must be a non-negative integer');
  const over = t.limits.capped(
    "public_sockets_per_table",
    t.ctx.getWebSockets(PUBLIC_TAG).length,
    `table ${state.table}'s public view`,
  );
  if (over) return refusedUpgrade(over);
  const pair = new WebSocketPair();
  const server = pair[1];
  t.ctx.acceptWebSocket(server, [PUBLIC_TAG]);
  attach(server, { public: true, cursor: Math.min(Number(raw), state.seq) });
  await catchUp(server, await t.currentHead(), t);
  return new Response(null, { status: 101, webSocket: pair[0] });
}

/** A public socket only receives: anything it sends gets an E_FORBIDDEN error frame. */
export function refusePublicMessage(ws: WebSocket): void {
  send(ws, {
    type: "error",
    error: new TrestleError("E_FORBIDDEN", "a public socket only receives entries").toEnvelope().error,
  });
}
