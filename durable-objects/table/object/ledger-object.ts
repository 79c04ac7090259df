/**
 * The ledger machine's Durable Object: what every object holding a table's signed ledger does,
 * whatever its kind's own routes. It holds the one context (composed-context.ts) and answers the
 * routes of the ledger itself: its head, checkpoint and tiles, its entries and export, its mirror
 * and custody, its sockets (the upgrade, every frame, the fan-out), its alarm and its deletion. A
 * kind's object (TableDO, table.ts) extends it with its routes and the jobs its alarm runs.
 */
import { DurableObject } from "cloudflare:workers";
import { TrestleError } from "../../../src/protocol/errors.js";
import { PING_FRAME, PONG_FRAME } from "../../../src/protocol/schemas/ws.js";
import type { EntriesResponse } from "../../../src/protocol/schemas/responses.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import type { DeleteResponse } from "../../../src/protocol/schemas/lifetime.js";
import type { CustodyResponse } from "../../../src/protocol/schemas/custody.js";
import type { ReplicaStatus } from "../../../src/protocol/schemas/replica.js";
import { errorResponse, asResult, type Result } from "../../result.js";
import { closeOverLimit, refusedUpgrade } from "../../limits/refuse-socket.js";
import { ownerNotify } from "../storage/notices.js";
import { deletedError, repeatedDelete } from "../storage/tombstone.js";
import type { ReadAuth } from "../context.js";
import { readEntries, readExport } from "../reading/reads.js";
import {
  acceptPublic,
  isPublicSocket,
  isPublicUpgrade,
  publicExport,
  refusePublicMessage,
} from "../reading/public-read.js";
import { readTile, signedCheckpoint, type TileBody } from "../reading/tlog.js";
import { acceptPage } from "../writing/replica-page.js";
import { writeCustody } from "../writing/custody.js";
import { ComposedContext } from "./composed-context.js";
import { buryTable, canonicalRequest, claimCreation, verifiedDelete } from "./lifetime.js";
import { refuseFrame } from "./sessions.js";

/** A Durable Object holding one table's ledger; its kind's routes and alarm jobs are its subclass's. */
export abstract class LedgerObject extends DurableObject<Env> {
  /** The table's one context: every role module is handed this (as the TableContext of context.ts). */
  readonly table: ComposedContext;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
    this.table = new ComposedContext(ctx, env);
  }

  /** The jobs of the kind that the alarm runs before the ledger's own (notifications, witnesses); each repeated run appends nothing. */
  protected abstract alarmJobs(): Promise<void>;

  /**
   * The table's alarm: sockets past their authentication deadline, the table's end of life, the
   * kind's jobs (alarmJobs), owner notifications not yet taken, the checkpoint for the witnesses.
   * At least once: a repeated run appends nothing.
   */
  override async alarm(): Promise<void> {
    this.table.alarms.fired();
    if (this.table.burial) return;
    const limits = this.table.limits.values;
    this.table.sessions.expireUnauthenticated(this.table.now(), limits.socket_auth_ms);
    const expiry = this.table.expiry.at(this.table.state, limits);
    if (expiry !== null && expiry <= this.table.now()) return this.table.expire();
    // A mirror runs no jobs but its own lifetime here: its relay's watchdog, results and notifications are that relay's.
    if (this.table.replica.mirror) return this.table.reschedule();
    await this.alarmJobs();
    await this.table.notices.handOffDue(ownerNotify(this.env), () => this.table.now());
    await this.table.witness();
    await this.table.reschedule();
  }

  /** POST /tables/:id/delete: the creator's signed delete (lifetime.ts); the same request again gets the same answer. */
  async deleteTable(body: unknown): Promise<Result<DeleteResponse>> {
    return asResult(async () => {
      if (this.table.burial) return repeatedDelete(this.table.burial, canonicalRequest(body));
      const owner = await verifiedDelete(this.table.requireState(), body, this.table.now());
      return buryTable(
        this.table,
        { table: this.table.requireState().table, deleted_at: this.table.now(), reason: "owner", owner },
        canonicalRequest(body),
      );
    });
  }

  /** GET /tables/:id/head */
  async head(): Promise<Result<SignedHead>> {
    return asResult(() => this.table.currentHead());
  }

  /** GET /tables/:id/checkpoint: the signed checkpoint note and the cosignatures kept for it (reading/tlog.ts). */
  async checkpoint(host: string): Promise<Result<string>> {
    return asResult(() => signedCheckpoint(this.table, host));
  }

  /** GET /tables/:id/tile/...: a hash tile or entry bundle, read as the ledger is (reading/tlog.ts). */
  async tile(auth: ReadAuth, path: string): Promise<Result<TileBody>> {
    return asResult(() => readTile(this.table, path, auth));
  }

  /** GET /tables/:id/entries?from=&to= */
  async entries(auth: ReadAuth, from: number, to: number): Promise<Result<EntriesResponse>> {
    return asResult(async () => {
      const principal = await this.table.reader(auth);
      const head = await this.table.currentHead();
      return readEntries(
        this.table.requireState(),
        this.table.ledger,
        principal,
        { from, to: Math.min(to, head.seq) },
        head,
      );
    });
  }

  /** GET /tables/:id/export */
  async exportLedger(auth: ReadAuth): Promise<Result<string>> {
    return asResult(async () => {
      const principal = await this.table.reader(auth);
      const head = await this.table.currentHead();
      return readExport(
        this.table.requireState(),
        this.table.ledger,
        principal,
        head,
        await this.table.earlierHeads(head),
      );
    });
  }

  /** GET /tables/:id/public/export: no authorization, public tables only (reading/public-read.ts). */
  async publicExport(): Promise<Result<string>> {
    return asResult(async () => {
      const head = await this.table.currentHead();
      return publicExport(this.table.requireState(), this.table.ledger, head, await this.table.earlierHeads(head));
    });
  }

  /** GET /view/:id asks this before serving the viewer's page: E_TABLE_DELETED for a deleted table, else ok (unknown and private tables are the page's to show). */
  async notDeleted(): Promise<Result<null>> {
    return asResult(() => {
      if (this.table.burial) throw deletedError(this.table.burial.tombstone);
      return null;
    });
  }

  /** GET /tables/:id/ws and /tables/:id/public/ws (upgrades); a deleted table's socket carries only its refusal (E_TABLE_DELETED, then 4410), which a browser can read. */
  override async fetch(request: Request): Promise<Response> {
    try {
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
        throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
      }
      if (this.table.burial) return refusedUpgrade(deletedError(this.table.burial.tombstone));
      if (isPublicUpgrade(request)) return await acceptPublic(this.table, request);
      const { response, deadline } = this.table.sessions.open(
        this.table.requireState().table,
        this.table.now(),
        this.table.limits,
      );
      if (deadline !== null) this.table.alarms.armBy(deadline);
      return response;
    } catch (error) {
      return errorResponse(error);
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (this.table.burial) return closeOverLimit(ws, deletedError(this.table.burial.tombstone));
    const frame = this.table.limits.frame(ws, this.table.now());
    if (frame.verdict === "close") return closeOverLimit(ws, frame.error);
    if (frame.verdict === "refuse") return refuseFrame(ws, message, frame.error);
    if (isPublicSocket(this.ctx, ws)) return refusePublicMessage(ws);
    await this.table.sessions.message(ws, message, this.table);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // Already closed by the runtime.
    }
  }

  /** GET /tables/:id/replica: whether the table is a mirror here, the relay holding it, its tip and head, evidence kept. */
  async replicaStatus(): Promise<Result<ReplicaStatus>> {
    return asResult(() => this.table.statusNow());
  }

  /** POST /tables/:id/replica: a verified chain extension for the replica (replica.ts); pushed to readers once stored. */
  async replicate(body: unknown): Promise<Result<ReplicaStatus>> {
    return asResult(async () => {
      const appended = await acceptPage(this.table, body, (draft) => claimCreation(this.table, draft));
      if (appended.length > 0) {
        this.table.pushQueue.queue(appended);
        await this.table.reschedule();
      }
      return this.table.statusNow();
    });
  }

  /** POST /tables/:id/custody: the owners' custody statement; this relay takes the table over (custody.ts). */
  async takeCustody(body: unknown): Promise<Result<CustodyResponse>> {
    return asResult(async () => {
      const outcome = await writeCustody(this.table, body, await this.table.signer());
      return { seq: outcome.primary.seq, head: await this.table.afterWrite(outcome) };
    });
  }

  /** A write: refused while the table is a read-only mirror here (E_MIRROR), else run as any asResult call. */
  protected writing<T>(fn: () => T | Promise<T>): Promise<Result<T>> {
    return asResult(() => {
      this.table.refuseMirror();
      return fn();
    });
  }
}
