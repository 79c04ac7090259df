/**
 * Reading a public table without authorization (docs/SPEC.md §6.4): only a top-level table whose
 * config says `public: true`. Anyone reads the whole ledger as an owner reads it (every entry in
 * full, the originals of truncated bodies, the signed head), as the export, and follows it live on
 * a hibernatable public WebSocket that only receives. Nothing here writes to the ledger.
 */
import { exportText } from "../../src/protocol/export.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { LIMITS } from "../../src/protocol/limits.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import type { Entry } from "../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import type { ServerFrame } from "../../src/protocol/schemas/ws.js";
import { FRAME_BUDGET_CHARS, type Frames } from "./frames.js";
import type { Ledger } from "./ledger.js";
import type { TableLimits } from "./limits.js";
import { refusedUpgrade } from "../limits/refuse-socket.js";

/** The hibernation tag of public sockets; seat and owner sockets carry none. */
export const PUBLIC_TAG = "public";

/** What a public socket remembers across hibernation: the last seq it was sent. */
interface PublicAttachment {
  public: true;
  cursor: number;
}

/** Throws unless anyone may read this table: E_FORBIDDEN for a table not marked public, or a sub-table (its opener is a seat, not its owners). */
export function requirePublic(state: TableState): void {
  if (state.config.public !== true) throw new TrestleError("E_FORBIDDEN", `table ${state.table} is not public`);
  if (state.config.parent !== undefined) throw new TrestleError("E_FORBIDDEN", `table ${state.table} is a sub-table; sub-tables are never public`);
}

/** The export of a public table: every entry in full, each truncated entry's original, the `earlier` heads and the current `head`. */
export function publicExport(state: TableState, ledger: Pick<Ledger, "seq" | "all" | "originals">, head: SignedHead, earlier: readonly SignedHead[] = []): string {
  requirePublic(state);
  return exportText({ table: state.table, relay: state.relay }, ledger.all(), [...earlier, head], ledger.originals(1, ledger.seq));
}

/** What public sockets need from the table. */
export interface PublicHost {
  readonly state: TableState | null;
  /** The cap on public sockets (public_sockets_per_table). */
  readonly limits: TableLimits;
  /** Entries after `cursor` up to the newest, at most `limit`. */
  entriesAfter(cursor: number, limit: number): Entry[];
  currentHead(): Promise<SignedHead>;
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
export async function acceptPublic(ctx: DurableObjectState, request: Request, host: PublicHost): Promise<Response> {
  const state = host.state;
  if (!state) throw new TrestleError("E_TABLE_NOT_FOUND");
  requirePublic(state);
  const raw = new URL(request.url).searchParams.get("after") ?? "0";
  if (!/^[0-9]{1,15}$/.test(raw)) throw new TrestleError("E_SCHEMA", 'query parameter "after" must be a non-negative integer');
  const over = host.limits.capped("public_sockets_per_table", ctx.getWebSockets(PUBLIC_TAG).length, `table ${state.table}'s public view`);
  if (over) return refusedUpgrade(over);
  const pair = new WebSocketPair();
  const server = pair[1];
  ctx.acceptWebSocket(server, [PUBLIC_TAG]);
  server.serializeAttachment({ public: true, cursor: Math.min(Number(raw), state.seq) } satisfies PublicAttachment);
  sendPublicUpTo(server, await host.currentHead(), host);
  return new Response(null, { status: 101, webSocket: pair[0] });
}

/** A public socket only receives: anything it sends gets an E_FORBIDDEN error frame. */
export function refusePublicMessage(ws: WebSocket): void {
  send(ws, { type: "error", error: new TrestleError("E_FORBIDDEN", "a public socket only receives entries").toEnvelope().error });
}

/** Sends the batch of `frames` to every public socket: the whole view as built once when it was sent everything before it, else from SQLite up to `frames`' head. */
export function pushPublic(ctx: DurableObjectState, frames: Frames, host: PublicHost): void {
  for (const ws of ctx.getWebSockets(PUBLIC_TAG)) {
    try {
      const attachment = ws.deserializeAttachment() as PublicAttachment | null;
      if (!attachment?.public || attachment.cursor >= frames.last) continue;
      const text = attachment.cursor === frames.before ? frames.for(null) : null;
      if (text === null) {
        sendPublicUpTo(ws, frames.head, host);
        continue;
      }
      ws.send(text);
      ws.serializeAttachment({ ...attachment, cursor: frames.last } satisfies PublicAttachment);
    } catch {
      // A socket closing mid-send is dropped; its viewer reconnects from its own cursor.
    }
  }
}

/** Sends a public socket its entries in (cursor, head.seq], in frames of bounded size; synchronous, so no entry goes out twice. A closed table keeps its sockets: task work may follow the close. */
function sendPublicUpTo(ws: WebSocket, head: SignedHead, host: PublicHost): void {
  const attachment = ws.deserializeAttachment() as PublicAttachment | null;
  if (!attachment?.public || !host.state) return;
  let cursor = attachment.cursor;
  while (cursor < head.seq) {
    const batch = host.entriesAfter(cursor, LIMITS.page).filter((e) => e.seq <= head.seq);
    if (batch.length === 0) break;
    for (const frame of framesOf(batch)) send(ws, { type: "entries", items: frame, head });
    cursor = batch[batch.length - 1]!.seq;
  }
  if (cursor !== attachment.cursor) ws.serializeAttachment({ ...attachment, cursor } satisfies PublicAttachment);
}

/** Splits entries into runs whose JSON stays under the frame budget (an oversized entry goes alone). */
function framesOf(entries: readonly Entry[]): Entry[][] {
  const frames: Entry[][] = [[]];
  let size = 0;
  for (const entry of entries) {
    const length = JSON.stringify(entry).length;
    if (frames[frames.length - 1]!.length > 0 && size + length > FRAME_BUDGET_CHARS) {
      frames.push([]);
      size = 0;
    }
    frames[frames.length - 1]!.push(entry);
    size += length;
  }
  return frames.filter((f) => f.length > 0);
}

function send(ws: WebSocket, frame: ServerFrame): void {
  ws.send(JSON.stringify(frame));
}
