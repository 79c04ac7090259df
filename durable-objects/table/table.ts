/**
 * TableDO: one Durable Object per table. It totally orders the table's entries and signs its
 * heads. A thin shell of routes over its core (table-core.ts: state, heads, what follows a write,
 * pushes in push-queue.ts): the ledger (ledger.ts), write path (writes.ts), reads (reads.ts), read
 * authorization (auth.ts), heads (heads.ts), sockets (sessions.ts), approvers (approvers.ts),
 * pause/resume (control.ts), a seat's revocation by its owner (revoke.ts), chat approvals (chat-approvals.ts), notifications (notify.ts),
 * sub-tables (subtables.ts, results.ts), a room's invites, ejections and joins by invite (rooms.ts),
 * a seat's notes to its owner (notes.ts), the one alarm for the watchdog, auctions and result
 * delivery (alarms.ts), and a table held as a read-only replica and taken into custody here
 * (replica.ts, custody.ts) do the work. The folded state lives in memory and is rebuilt from
 * SQLite on every wake, identically.
 */
import { TrestleError } from "../../src/protocol/errors.js";
import type { ApproveResponse, CreateResponse, EntriesResponse, JoinResponse, ProjectionResponse, SubmitResponse, TasksResponse } from "../../src/protocol/schemas/responses.js";
import { own } from "../../src/protocol/records.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import { relaySigner } from "../relay/relay-key.js";
import { errorResponse, guarded, type Result } from "../result.js";
import { readEntries, readExport, readProjection, readTasks } from "./reads.js";
import { refuseFrame } from "./sessions.js";
import { deliverResult } from "./results.js";
import { writeChildOpening, writeSubtableOpened, writeSubtableResult, type SubtableRegistration } from "./subtables.js";
import { writeApproval, writeCreate, writeJoin, writeSubmission, type WriteOutcome } from "./writes.js";
import { writeAttestedControl, writeControl, type AttestedControl } from "./control.js";
import { writeRevoke } from "./revoke.js";
import { writeAttestedApproval, type AttestedApproval } from "./chat-approvals.js";
import { ownerNotify } from "./notify.js";
import { runAuctions, runWatchdog } from "./alarms.js";
import { acceptPublic, isPublicSocket, isPublicUpgrade, publicExport, refusePublicMessage } from "./public-read.js";
import { refuseInviteJoin, writeEject, writeInvite, writeInvitedJoin } from "./rooms.js";
import { sendOwnerNote } from "./notes.js";
import type { NoteResponse } from "../../src/protocol/schemas/room.js";
import type { DeleteResponse } from "../../src/protocol/schemas/lifetime.js";
import { closeOverLimit, refusedUpgrade } from "../limits/refuse-socket.js";
import { buryTable, canonicalRequest, claimCreation, deletedError, repeatedDelete, verifiedDelete } from "./lifetime.js";
import type { CustodyResponse } from "../../src/protocol/schemas/custody.js";
import type { ReplicaStatus } from "../../src/protocol/schemas/replica.js";
import { acceptPage } from "./replica.js";
import { writeCustody } from "./custody.js";

import { TableCore, type ReadAuth } from "./table-core.js";

export type { ReadAuth } from "./table-core.js";

/** The Durable Object for one table. */
export class TableDO extends TableCore {
  /** POST /tables */
  async create(body: unknown): Promise<Result<CreateResponse>> {
    return this.writing(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeCreate(this, body, signer.publicKeyText, (draft) => claimCreation(this.burialHost(), draft));
      return { table: outcome.primary.table, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/join (a join by invite is refused here: it needs the code, POST /invites/join). */
  async join(body: unknown): Promise<Result<JoinResponse>> {
    return this.writing(async () => {
      refuseInviteJoin(body);
      return this.joinResponse(await writeJoin(this, body));
    });
  }

  /** POST /invites/join, after the invite directory resolved the code to `invite` of this room. */
  async joinInvited(body: unknown, invite: string): Promise<Result<JoinResponse>> {
    return this.writing(async () => this.joinResponse(await writeInvitedJoin(this, body, invite)));
  }

  private async joinResponse(outcome: WriteOutcome): Promise<JoinResponse> {
    const primary = outcome.primary;
    const seat = primary.kind === "system" && primary.subkind === "seat_joined" ? primary.data.join.seat : "";
    return { seat, seq: primary.seq, head: await this.afterWrite(outcome) };
  }

  /** POST /tables/:id/invites: the creator's signed invite; the Worker then registers its code. */
  async issueInvite(body: unknown): Promise<Result<{ invite: string; expires: number; replaces?: string; seq: number; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = await writeInvite(this, body);
      const primary = outcome.primary;
      if (primary.kind !== "system" || primary.subkind !== "invite_issued") throw new TrestleError("E_INTERNAL", "an invite write records an invite");
      const { invite, expires, replaces } = primary.data;
      return { invite, expires, ...(replaces === undefined ? {} : { replaces }), seq: primary.seq, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/eject: the creator's signed ejection of a seat. */
  async eject(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeEject(this, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/notes: a seat's note to its owner's chat channels; never an entry. */
  async noteOwner(body: unknown): Promise<Result<NoteResponse>> {
    return this.writing(() => sendOwnerNote(this, this.ctx.storage, this.env, body));
  }

  /** POST /tables/:id/entries */
  async submit(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(() => this.submitUnguarded(body));
  }

  protected override async submitUnguarded(body: unknown): Promise<SubmitResponse> {
    this.refuseMirror();
    const outcome = await writeSubmission(this, body);
    return { seq: outcome.primary.seq, truncated: "truncated" in outcome.primary && outcome.primary.truncated !== undefined, head: await this.afterWrite(outcome) };
  }

  /** POST /tables/:id/approvals */
  async approve(body: unknown): Promise<Result<ApproveResponse>> {
    return this.writing(() => this.approveUnguarded(body));
  }

  protected override async approveUnguarded(body: unknown): Promise<ApproveResponse> {
    this.refuseMirror();
    return this.approvalResponse(await writeApproval(this, body));
  }

  /** A relay-attested approval or rejection from a bound chat account (the Worker checked the binding, §5.6). */
  async approveAttested(input: AttestedApproval): Promise<Result<ApproveResponse>> {
    return this.writing(() => this.approvalResponse(writeAttestedApproval(this, input)));
  }

  private async approvalResponse(outcome: WriteOutcome): Promise<ApproveResponse> {
    const head = await this.afterWrite(outcome);
    const id = outcome.primary.kind === "approval" ? outcome.primary.task : "";
    const task = own(this.requireState().tasks, id);
    if (!task) throw new TrestleError("E_INTERNAL", "an approval entry always names a task");
    return { seq: outcome.primary.seq, task: task.id, state: task.state, head };
  }

  /** GET /tables/:id/tasks?after=, with the head the task states were computed at (§7). */
  async tasks(auth: ReadAuth, after: number): Promise<Result<TasksResponse>> {
    return guarded(async () => {
      const principal = await this.reader(auth);
      // Read and head in one synchronous step: no write can land between them.
      const head = this.currentHead();
      const page = readTasks(this.requireState(), after, principal);
      return { ...page, head: await head };
    });
  }

  /**
   * The table's alarm (alarms.ts): sockets past their authentication deadline, the table's end of
   * life, the task watchdog, auctions due to settle, any pending sub-table result delivery, owner
   * notifications not yet taken. At least once: a repeated run appends nothing.
   */
  override async alarm(): Promise<void> {
    this.alarms.fired();
    if (this.burial) return;
    const limits = this.limits.values;
    this.sessions.expireUnauthenticated(this.now(), limits.socket_auth_ms);
    const expiry = this.expiry.at(this.state, limits);
    if (expiry !== null && expiry <= this.now()) return this.expire();
    // A mirror runs no jobs but its own lifetime here: its relay's watchdog, results and notifications are that relay's.
    if (this.replica.mirror) return this.reschedule();
    for (const outcome of runWatchdog(this)) await this.afterWrite(outcome);
    for (const outcome of runAuctions(this)) await this.afterWrite(outcome);
    await deliverResult(this.resultHost());
    await this.notices.handOffDue(ownerNotify(this.env), () => this.now());
    await this.reschedule();
  }

  /** POST /tables/:id/delete: the creator's signed delete (lifetime.ts); the same request again gets the same answer. */
  async deleteTable(body: unknown): Promise<Result<DeleteResponse>> {
    return guarded(async () => {
      if (this.burial) return repeatedDelete(this.burial, canonicalRequest(body));
      const owner = await verifiedDelete(this.requireState(), body, this.now());
      return buryTable(this.burialHost(), { table: this.requireState().table, deleted_at: this.now(), reason: "owner", owner }, canonicalRequest(body));
    });
  }

  /** POST /tables/:id/control (owner-signed pause or resume) */
  async control(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeControl(this, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/revoke: an owner's signed revocation of one of its seats; the seat's open sockets close at once (E_REVOKED). */
  async revoke(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeRevoke(this, body);
      this.sessions.closeRevoked(this.requireState());
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** A relay-attested pause or resume from a bound chat account (the Worker checked the binding). */
  async controlAttested(input: AttestedControl): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = writeAttestedControl(this, input);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:parent/subtables, on the child's object: opens this table through its parent. */
  async openSubtable(parent: string, body: unknown): Promise<Result<CreateResponse>> {
    return this.writing(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeChildOpening(this, parent, body, { parent: this.table(parent), relayKey: signer.publicKeyText });
      return { table: outcome.primary.table, head: await this.afterWrite(outcome) };
    });
  }

  /** RPC from a child's object: records its opening here and returns the carried joins. */
  async registerSubtable(body: unknown): Promise<Result<SubtableRegistration>> {
    return this.writing(async () => {
      const { outcome, registration } = await writeSubtableOpened(this, body);
      await this.afterWrite(outcome);
      return registration;
    });
  }

  /** RPC from a closed child's object: records its relay-signed result here, once. */
  async reportSubtable(body: unknown): Promise<Result<{ seq: number }>> {
    return this.writing(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeSubtableResult(this, body, signer.publicKeyText);
      await this.afterWrite(outcome);
      return { seq: outcome.primary.seq };
    });
  }

  /** GET /tables/:id/head */
  async head(): Promise<Result<SignedHead>> {
    return guarded(() => this.currentHead());
  }

  /** GET /tables/:id/projection?after=, with the head it was computed at (§7). */
  async projection(auth: ReadAuth, after: number): Promise<Result<ProjectionResponse>> {
    return guarded(async () => {
      const principal = await this.reader(auth);
      // Read and head in one synchronous step: no write can land between them.
      const head = this.currentHead();
      const projection = readProjection(this.requireState(), this.ledger, principal, after);
      return { ...projection, head: await head };
    });
  }

  /** GET /tables/:id/entries?from=&to= */
  async entries(auth: ReadAuth, from: number, to: number): Promise<Result<EntriesResponse>> {
    return guarded(async () => {
      const principal = await this.reader(auth);
      const head = await this.currentHead();
      return readEntries(this.requireState(), this.ledger, principal, { from, to: Math.min(to, head.seq) }, head);
    });
  }

  /** GET /tables/:id/export */
  async exportLedger(auth: ReadAuth): Promise<Result<string>> {
    return guarded(async () => {
      const principal = await this.reader(auth);
      const head = await this.currentHead();
      return readExport(this.requireState(), this.ledger, principal, head, await this.earlierHeads(head));
    });
  }

  /** GET /tables/:id/public/export: no authorization, public tables only (public-read.ts). */
  async publicExport(): Promise<Result<string>> {
    return guarded(async () => {
      const head = await this.currentHead();
      return publicExport(this.requireState(), this.ledger, head, await this.earlierHeads(head));
    });
  }

  /** GET /view/:id asks this before serving the viewer's page: E_TABLE_DELETED for a deleted table, else ok (unknown and private tables are the page's to show). */
  async notDeleted(): Promise<Result<null>> {
    return guarded(() => {
      if (this.burial) throw deletedError(this.burial.tombstone);
      return null;
    });
  }

  /** GET /tables/:id/ws and /tables/:id/public/ws (upgrades); a deleted table's socket carries only its refusal (E_TABLE_DELETED, then 4410), which a browser can read. */
  override async fetch(request: Request): Promise<Response> {
    try {
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
        throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
      }
      if (this.burial) return refusedUpgrade(deletedError(this.burial.tombstone));
      if (isPublicUpgrade(request)) return await acceptPublic(this.ctx, request, this.sessionHost());
      const { response, deadline } = this.sessions.open(this.requireState().table, this.now(), this.limits);
      if (deadline !== null) this.alarms.armBy(deadline);
      return response;
    } catch (error) {
      return errorResponse(error);
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (this.burial) return closeOverLimit(ws, deletedError(this.burial.tombstone));
    const frame = this.limits.frame(ws, this.now());
    if (frame.verdict === "close") return closeOverLimit(ws, frame.error);
    if (frame.verdict === "refuse") return refuseFrame(ws, message, frame.error);
    if (isPublicSocket(this.ctx, ws)) return refusePublicMessage(ws);
    await this.sessions.message(ws, message, this.sessionHost());
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
    return guarded(() => this.statusNow());
  }

  /** POST /tables/:id/replica: a verified chain extension for the replica (replica.ts); pushed to readers once stored. */
  async replicate(body: unknown): Promise<Result<ReplicaStatus>> {
    return guarded(async () => {
      const appended = await acceptPage(this, body, (draft) => claimCreation(this.burialHost(), draft));
      if (appended.length > 0) {
        this.pushQueue.queue(appended);
        await this.reschedule();
      }
      return this.statusNow();
    });
  }

  /** POST /tables/:id/custody: the owners' custody statement; this relay takes the table over (custody.ts). */
  async takeCustody(body: unknown): Promise<Result<CustodyResponse>> {
    return guarded(async () => {
      const outcome = await writeCustody(this, body, await relaySigner(this.env));
      return { seq: outcome.primary.seq, head: await this.afterWrite(outcome) };
    });
  }
}
