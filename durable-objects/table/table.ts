/**
 * TableDO: one Durable Object per table. It totally orders the table's entries and signs its
 * heads. A thin shell: the ledger (ledger.ts), write path (writes.ts), reads (reads.ts), read
 * authorization (auth.ts), heads (heads.ts), sockets (sessions.ts), approvers (approvers.ts),
 * pause/resume (control.ts), chat approvals (chat-approvals.ts), notifications (notify.ts),
 * sub-tables (subtables.ts, results.ts), a room's invites, ejections and joins by invite (rooms.ts),
 * a seat's notes to its owner (notes.ts) and the one alarm for the watchdog, auctions and result delivery
 * (alarms.ts) do the work. The folded state lives in memory and is rebuilt from SQLite on every
 * wake, identically.
 */
import { DurableObject } from "cloudflare:workers";
import { TrestleError } from "../../src/protocol/errors.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import type {
  ApproveResponse,
  CreateResponse,
  EntriesResponse,
  JoinResponse,
  ProjectionResponse,
  SubmitResponse,
  TasksResponse,
} from "../../src/protocol/schemas/responses.js";
import { own } from "../../src/protocol/records.js";
import type { Entry } from "../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import { PING_FRAME, PONG_FRAME } from "../../src/protocol/schemas/ws.js";
import type { Env } from "../env.js";
import { relaySigner } from "../relay/relay-key.js";
import { errorResponse, guarded, type Result } from "../result.js";
import { authorizeRead } from "./auth.js";
import { Frames } from "./frames.js";
import { Heads } from "./heads.js";
import { Ledger } from "./ledger.js";
import { wakeState } from "./checkpoint.js";
import { readEntries, readExport, readProjection, readTasks } from "./reads.js";
import { refuseFrame, Sessions, type SessionHost } from "./sessions.js";
import { deliverResult, deliveryAt, type ResultHost } from "./results.js";
import { writeChildOpening, writeSubtableOpened, writeSubtableResult, type SubtableRegistration } from "./subtables.js";
import { writeApproval, writeCreate, writeJoin, writeSubmission, type WriteOutcome } from "./writes.js";
import { writeAttestedControl, writeControl, type AttestedControl } from "./control.js";
import { writeAttestedApproval, type AttestedApproval } from "./chat-approvals.js";
import { Notices, ownerNotify } from "./notify.js";
import { ownerChannels, type ChannelProbe } from "./approvers.js";
import { Alarm, auctionAt, runAuctions, runWatchdog, watchdogAt } from "./alarms.js";
import { acceptPublic, isPublicSocket, isPublicUpgrade, publicExport, pushPublic, refusePublicMessage } from "./public-read.js";
import { refuseInviteJoin, writeEject, writeInvite, writeInvitedJoin } from "./rooms.js";
import { sendOwnerNote } from "./notes.js";
import type { NoteResponse } from "../../src/protocol/schemas/room.js";
import type { Principal } from "../../src/protocol/schemas/auth.js";
import type { DeleteResponse } from "../../src/protocol/schemas/lifetime.js";
import { limitsOf } from "../limits/config.js";
import { closeOverLimit } from "../limits/refuse-socket.js";
import { TableLimits } from "./limits.js";
import { buryTable, canonicalRequest, claimCreation, deletedError, Expiry, readBurial, repeatedDelete, verifiedDelete, type Burial, type BurialHost } from "./lifetime.js";

/** A read request as the Worker saw it: the Authorization header and the signed path. */
export interface ReadAuth {
  header: string | null;
  path: string;
}

/** The Durable Object for one table. */
export class TableDO extends DurableObject<Env> {
  state: TableState | null = null;
  ledger: Ledger;
  /** Set once the table is deleted (lifetime.ts): every request then reads it as E_TABLE_DELETED. */
  burial: Burial | null;
  /** Rates and socket caps this table counts itself (limits.ts). */
  readonly limits: TableLimits;
  private readonly expiry: Expiry;
  private readonly sessions: Sessions;
  private heads: Heads | undefined;
  private pushes: Promise<void> = Promise.resolve();
  /** Entries appended and not pushed yet, oldest first; a push is queued while there are any. */
  private unpushed: Entry[] = [];
  private pushQueued = false;
  private handoffs: Promise<void> = Promise.resolve();
  private readonly alarms: Alarm;
  /** Owner notifications recorded with their entries and not yet handed over (notify.ts). */
  readonly notices: Notices;
  /** Whether an owner has a proven notification channel, for E_NO_APPROVER. */
  readonly channels: ChannelProbe;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
    this.sessions = new Sessions(ctx);
    this.ledger = new Ledger(ctx.storage);
    this.alarms = new Alarm(ctx.storage);
    this.notices = new Notices(ctx.storage.sql, (at) => this.alarms.armBy(at));
    this.channels = ownerChannels(env);
    this.limits = new TableLimits(() => limitsOf(env));
    this.expiry = new Expiry(() => this.ledger);
    this.burial = readBurial(ctx.storage.sql);
    this.state = this.burial ? null : wakeState(this.ledger);
  }

  now(): number {
    return Date.now();
  }

  /** Owners who can answer an approval now: live owner sessions and connected human seats. */
  answerers(): ReadonlySet<string> {
    return this.state ? this.sessions.answerers(this.state) : new Set();
  }

  /** POST /tables */
  async create(body: unknown): Promise<Result<CreateResponse>> {
    return guarded(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeCreate(this, body, signer.publicKeyText, (draft) => claimCreation(this.burialHost(), draft));
      return { table: outcome.primary.table, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/join (a join by invite is refused here: it needs the code, POST /invites/join). */
  async join(body: unknown): Promise<Result<JoinResponse>> {
    return guarded(async () => {
      refuseInviteJoin(body);
      return this.joinResponse(await writeJoin(this, body));
    });
  }

  /** POST /invites/join, after the invite directory resolved the code to `invite` of this room. */
  async joinInvited(body: unknown, invite: string): Promise<Result<JoinResponse>> {
    return guarded(async () => this.joinResponse(await writeInvitedJoin(this, body, invite)));
  }

  private async joinResponse(outcome: WriteOutcome): Promise<JoinResponse> {
    const primary = outcome.primary;
    const seat = primary.kind === "system" && primary.subkind === "seat_joined" ? primary.data.join.seat : "";
    return { seat, seq: primary.seq, head: await this.afterWrite(outcome) };
  }

  /** POST /tables/:id/invites: the creator's signed invite; the Worker then registers its code. */
  async issueInvite(body: unknown): Promise<Result<{ invite: string; expires: number; replaces?: string; seq: number; head: SignedHead }>> {
    return guarded(async () => {
      const outcome = await writeInvite(this, body);
      const primary = outcome.primary;
      if (primary.kind !== "system" || primary.subkind !== "invite_issued") throw new TrestleError("E_INTERNAL", "an invite write records an invite");
      const { invite, expires, replaces } = primary.data;
      return { invite, expires, ...(replaces === undefined ? {} : { replaces }), seq: primary.seq, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/eject: the creator's signed ejection of a seat. */
  async eject(body: unknown): Promise<Result<SubmitResponse>> {
    return guarded(async () => {
      const outcome = await writeEject(this, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/notes: a seat's note to its owner's chat channels; never an entry. */
  async noteOwner(body: unknown): Promise<Result<NoteResponse>> {
    return guarded(() => sendOwnerNote(this, this.ctx.storage, this.env, body));
  }

  /** POST /tables/:id/entries */
  async submit(body: unknown): Promise<Result<SubmitResponse>> {
    return guarded(() => this.submitUnguarded(body));
  }

  private async submitUnguarded(body: unknown): Promise<SubmitResponse> {
    const outcome = await writeSubmission(this, body);
    return { seq: outcome.primary.seq, truncated: "truncated" in outcome.primary && outcome.primary.truncated !== undefined, head: await this.afterWrite(outcome) };
  }

  /** POST /tables/:id/approvals */
  async approve(body: unknown): Promise<Result<ApproveResponse>> {
    return guarded(() => this.approveUnguarded(body));
  }

  private async approveUnguarded(body: unknown): Promise<ApproveResponse> {
    return this.approvalResponse(await writeApproval(this, body));
  }

  /** A relay-attested approval or rejection from a bound chat account (the Worker checked the binding, §5.6). */
  async approveAttested(input: AttestedApproval): Promise<Result<ApproveResponse>> {
    return guarded(() => this.approvalResponse(writeAttestedApproval(this, input)));
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
    for (const outcome of runWatchdog(this)) await this.afterWrite(outcome);
    for (const outcome of runAuctions(this)) await this.afterWrite(outcome);
    await deliverResult(this.resultHost());
    await this.notices.handOffDue(ownerNotify(this.env), () => this.now());
    await this.reschedule();
  }

  /** Arms the alarm at the earliest deadline of the watchdog, an auction's settlement, a pending result delivery, a notification not yet taken, a socket's authentication and the table's end of life. */
  private reschedule(): Promise<void> {
    if (this.burial) return Promise.resolve();
    const notices = this.state ? this.notices.nextAt() : null;
    const limits = this.limits.values;
    const ends = [this.sessions.authDeadline(limits.socket_auth_ms), this.expiry.at(this.state, limits)];
    return this.alarms.schedule([watchdogAt(this.state), auctionAt(this.state), deliveryAt(this.ctx.storage, this.state, this.now()), notices, ...ends]);
  }

  /** POST /tables/:id/delete: the creator's signed delete (lifetime.ts); the same request again gets the same answer. */
  async deleteTable(body: unknown): Promise<Result<DeleteResponse>> {
    return guarded(async () => {
      if (this.burial) return repeatedDelete(this.burial, canonicalRequest(body));
      const owner = await verifiedDelete(this.requireState(), body, this.now());
      return buryTable(this.burialHost(), { table: this.requireState().table, deleted_at: this.now(), reason: "owner", owner }, canonicalRequest(body));
    });
  }

  /** The alarm's deletion of a table whose lifetime ended; retried a minute later when it cannot finish. */
  private async expire(): Promise<void> {
    try {
      await buryTable(this.burialHost(), { table: this.requireState().table, deleted_at: this.now(), reason: "expired" }, null);
    } catch (error) {
      console.error("deleting an expired table failed; the alarm retries", error);
      this.alarms.armBy(this.now() + 60_000);
    }
  }

  /** The principal a signed read is made as, counted against its read rate. */
  private async reader(auth: ReadAuth): Promise<Principal> {
    const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
    this.limits.read(principal, this.now());
    return principal;
  }

  /** POST /tables/:id/control (owner-signed pause or resume) */
  async control(body: unknown): Promise<Result<SubmitResponse>> {
    return guarded(async () => {
      const outcome = await writeControl(this, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** A relay-attested pause or resume from a bound chat account (the Worker checked the binding). */
  async controlAttested(input: AttestedControl): Promise<Result<SubmitResponse>> {
    return guarded(async () => {
      const outcome = writeAttestedControl(this, input);
      return { seq: outcome.primary.seq, truncated: false, head: await this.afterWrite(outcome) };
    });
  }

  /** Resolves when every owner notification recorded so far has been offered to its OwnerDO. */
  noticesSettled(): Promise<void> {
    return this.handoffs;
  }

  /** Hands the notifications a write recorded to their owners' objects, then re-arms the alarm for any not taken. */
  private async handOff(): Promise<void> {
    if (this.burial) return;
    try {
      await this.notices.handOffFresh(ownerNotify(this.env), () => this.now());
      await this.reschedule();
    } catch (error) {
      // A table deleted meanwhile took its notifications with it: nothing is left to retry.
      if (!this.burial) console.error("owner notification hand-off failed; the alarm retries", error);
    }
  }

  /** POST /tables/:parent/subtables, on the child's object: opens this table through its parent. */
  async openSubtable(parent: string, body: unknown): Promise<Result<CreateResponse>> {
    return guarded(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeChildOpening(this, parent, body, { parent: this.table(parent), relayKey: signer.publicKeyText });
      return { table: outcome.primary.table, head: await this.afterWrite(outcome) };
    });
  }

  /** RPC from a child's object: records its opening here and returns the carried joins. */
  async registerSubtable(body: unknown): Promise<Result<SubtableRegistration>> {
    return guarded(async () => {
      const { outcome, registration } = await writeSubtableOpened(this, body);
      await this.afterWrite(outcome);
      return registration;
    });
  }

  /** RPC from a closed child's object: records its relay-signed result here, once. */
  async reportSubtable(body: unknown): Promise<Result<{ seq: number }>> {
    return guarded(async () => {
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
      return readExport(this.requireState(), this.ledger, principal, head);
    });
  }

  /** GET /tables/:id/public/export: no authorization, public tables only (public-read.ts). */
  async publicExport(): Promise<Result<string>> {
    return guarded(async () => publicExport(this.requireState(), this.ledger, await this.currentHead()));
  }

  /** GET /tables/:id/ws and /tables/:id/public/ws (upgrades) */
  override async fetch(request: Request): Promise<Response> {
    try {
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
        throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
      }
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

  private sessionHost(): SessionHost {
    const table = this;
    return {
      get state() {
        return table.state;
      },
      limits: this.limits,
      now: () => this.now(),
      entriesAfter: (cursor, limit) => this.ledger.range(cursor + 1, this.ledger.seq, limit),
      currentHead: () => this.currentHead(),
      submit: (body) => this.submitUnguarded(body),
      approve: (request) => this.approveUnguarded(request),
    };
  }

  private table(id: string): DurableObjectStub<TableDO> {
    return this.env.TABLES.get(this.env.TABLES.idFromName(id));
  }

  private burialHost(): BurialHost {
    const table = this;
    return {
      env: this.env,
      storage: this.ctx.storage,
      get state() {
        return table.state;
      },
      get burial() {
        return table.burial;
      },
      sockets: () => this.ctx.getWebSockets(),
      forget: (burial) => {
        this.burial = burial;
        this.state = null;
        this.ledger = new Ledger(this.ctx.storage);
        this.heads = undefined;
        this.unpushed = [];
        this.alarms.fired();
      },
    };
  }

  private resultHost(): ResultHost {
    const table = this;
    return {
      get state() {
        return table.state;
      },
      ledger: this.ledger,
      storage: this.ctx.storage,
      now: () => this.now(),
      signer: () => relaySigner(this.env),
      parent: (id) => this.table(id),
      reschedule: () => this.reschedule(),
    };
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // Already closed by the runtime.
    }
  }

  /** The signed head of the ledger as it is now: reads get the head of exactly the state they were computed from. */
  async currentHead(): Promise<SignedHead> {
    return this.headSigner().at({ seq: this.ledger.seq, link: this.ledger.link });
  }

  private headSigner(): Heads {
    this.heads ??= new Heads(this.requireState().table, () => relaySigner(this.env), () => ({ seq: this.ledger.seq, link: this.ledger.link }));
    return this.heads;
  }

  private requireState(): TableState {
    if (this.burial) throw deletedError(this.burial.tombstone);
    if (!this.state) throw new TrestleError("E_TABLE_NOT_FOUND");
    return this.state;
  }

  /**
   * After a write: a head at or after its entries (one signature shared by the writes meanwhile,
   * heads.ts), the owner notifications it recorded handed over, the push queued, the alarm moved.
   */
  private async afterWrite(outcome: WriteOutcome): Promise<SignedHead> {
    if (outcome.appended.length === 0) return this.currentHead();
    const head = this.headSigner().current();
    if (this.notices.pending) this.ctx.waitUntil((this.handoffs = this.handoffs.then(() => this.handOff())));
    this.queuePush(outcome.appended);
    await this.reschedule();
    if (this.state?.config.parent && outcome.appended.some((e) => e.kind === "system" && e.subkind === "table_closed")) {
      await head;
      // The close is committed whatever happens here; a delivery that fails is retried by the alarm.
      await deliverResult(this.resultHost()).catch((error: unknown) => console.error("sub-table result delivery failed", error));
    }
    return head;
  }

  /**
   * Queues entries for the next push, which runs once the answers to the writes so far have gone
   * out (a writer's ack before the fan-out) and sends everything queued meanwhile as one batch, in
   * ledger order.
   */
  private queuePush(entries: readonly Entry[]): void {
    this.unpushed.push(...entries);
    if (this.pushQueued) return;
    this.pushQueued = true;
    setTimeout(() => {
      this.pushQueued = false;
      this.pushes = this.pushes.then(() => this.flushPush());
    }, 0);
  }

  private async flushPush(): Promise<void> {
    const batch = this.unpushed.splice(0);
    if (batch.length === 0 || !this.state) return;
    try {
      const frames = new Frames(this.state, batch, await this.headSigner().current());
      this.sessions.push(frames, this.sessionHost());
      pushPublic(this.ctx, frames, this.sessionHost());
    } catch (error) {
      console.error("push failed", error);
    }
  }
}
