/**
 * TableDO: one Durable Object per table. It totally orders the table's entries and signs its
 * heads. A thin shell: the ledger (ledger.ts), write path (writes.ts), reads (reads.ts), read
 * authorization (auth.ts), heads (heads.ts), sockets (sessions.ts), approvers (approvers.ts),
 * pause/resume (control.ts), chat approvals (chat-approvals.ts), notifications (notify.ts),
 * sub-tables (subtables.ts, results.ts), a room's invites, ejections and joins by invite (rooms.ts),
 * a seat's notes to its owner (notes.ts), the one alarm for the watchdog and result delivery
 * (alarms.ts), and a table held as a read-only replica and taken into custody here (replica.ts,
 * custody.ts) do the work. The folded state lives in memory and is rebuilt from SQLite on every
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
import { Sessions, type SessionHost } from "./sessions.js";
import { deliverResult, deliveryAt, type ResultHost } from "./results.js";
import { writeChildOpening, writeSubtableOpened, writeSubtableResult, type SubtableRegistration } from "./subtables.js";
import { writeApproval, writeCreate, writeJoin, writeSubmission, type WriteOutcome } from "./writes.js";
import { writeAttestedControl, writeControl, type AttestedControl } from "./control.js";
import { writeAttestedApproval, type AttestedApproval } from "./chat-approvals.js";
import { Notices, ownerNotify } from "./notify.js";
import { ownerChannels, type ChannelProbe } from "./approvers.js";
import { Alarm, runWatchdog, watchdogAt } from "./alarms.js";
import { acceptPublic, isPublicSocket, isPublicUpgrade, publicExport, pushPublic, refusePublicMessage } from "./public-read.js";
import { refuseInviteJoin, writeEject, writeInvite, writeInvitedJoin } from "./rooms.js";
import { sendOwnerNote } from "./notes.js";
import type { NoteResponse } from "../../src/protocol/schemas/room.js";
import { exportHeadPoints } from "../../src/protocol/export.js";
import { LIMITS } from "../../src/protocol/limits.js";
import type { CustodyResponse } from "../../src/protocol/schemas/custody.js";
import type { ReplicaStatus } from "../../src/protocol/schemas/replica.js";
import { acceptPage, Replica } from "./replica.js";
import { writeCustody } from "./custody.js";

/** A read request as the Worker saw it: the Authorization header and the signed path. */
export interface ReadAuth {
  header: string | null;
  path: string;
}

/** The Durable Object for one table. */
export class TableDO extends DurableObject<Env> {
  state: TableState | null = null;
  readonly ledger: Ledger;
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
  /** Whether the table is a read-only mirror here, and the heads and evidence it keeps (replica.ts). */
  readonly replica: Replica;
  /** The ledger limit this relay publishes (LIMITS.entries); a replica's pages are judged with it. */
  readonly maxEntries = LIMITS.entries;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
    this.sessions = new Sessions(ctx);
    this.ledger = new Ledger(ctx.storage);
    this.replica = new Replica(ctx.storage.sql);
    this.alarms = new Alarm(ctx.storage);
    this.notices = new Notices(ctx.storage.sql, (at) => this.alarms.armBy(at));
    this.channels = ownerChannels(env);
    this.state = wakeState(this.ledger);
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
    return this.writing(async () => {
      const signer = await relaySigner(this.env);
      const outcome = await writeCreate(this, body, signer.publicKeyText);
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

  private async submitUnguarded(body: unknown): Promise<SubmitResponse> {
    this.refuseMirror();
    const outcome = await writeSubmission(this, body);
    return { seq: outcome.primary.seq, truncated: "truncated" in outcome.primary && outcome.primary.truncated !== undefined, head: await this.afterWrite(outcome) };
  }

  /** POST /tables/:id/approvals */
  async approve(body: unknown): Promise<Result<ApproveResponse>> {
    return this.writing(() => this.approveUnguarded(body));
  }

  private async approveUnguarded(body: unknown): Promise<ApproveResponse> {
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
      const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
      // Read and head in one synchronous step: no write can land between them.
      const head = this.currentHead();
      const page = readTasks(this.requireState(), after, principal);
      return { ...page, head: await head };
    });
  }

  /** The table's alarm (alarms.ts): the task watchdog, any pending sub-table result delivery, owner notifications not yet taken. At least once: a repeated run appends nothing. */
  override async alarm(): Promise<void> {
    this.alarms.fired();
    // A mirror runs no jobs: its relay's watchdog, results and notifications are that relay's.
    if (this.replica.mirror) return;
    for (const outcome of runWatchdog(this)) await this.afterWrite(outcome);
    await deliverResult(this.resultHost());
    await this.notices.handOffDue(ownerNotify(this.env), () => this.now());
    await this.reschedule();
  }

  /** Arms the alarm at the earliest deadline of the watchdog, a pending result delivery and a notification not yet taken. */
  private reschedule(): Promise<void> {
    if (this.replica.mirror) return this.alarms.schedule([]);
    const notices = this.state ? this.notices.nextAt() : null;
    return this.alarms.schedule([watchdogAt(this.state), deliveryAt(this.ctx.storage, this.state, this.now()), notices]);
  }

  /** POST /tables/:id/control (owner-signed pause or resume) */
  async control(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeControl(this, body);
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

  /** Resolves when every owner notification recorded so far has been offered to its OwnerDO. */
  noticesSettled(): Promise<void> {
    return this.handoffs;
  }

  /** Hands the notifications a write recorded to their owners' objects, then re-arms the alarm for any not taken. */
  private async handOff(): Promise<void> {
    try {
      await this.notices.handOffFresh(ownerNotify(this.env), () => this.now());
      await this.reschedule();
    } catch (error) {
      console.error("owner notification hand-off failed; the alarm retries", error);
    }
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
      const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
      // Read and head in one synchronous step: no write can land between them.
      const head = this.currentHead();
      const projection = readProjection(this.requireState(), this.ledger, principal, after);
      return { ...projection, head: await head };
    });
  }

  /** GET /tables/:id/entries?from=&to= */
  async entries(auth: ReadAuth, from: number, to: number): Promise<Result<EntriesResponse>> {
    return guarded(async () => {
      const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
      const head = await this.currentHead();
      return readEntries(this.requireState(), this.ledger, principal, { from, to: Math.min(to, head.seq) }, head);
    });
  }

  /** GET /tables/:id/export */
  async exportLedger(auth: ReadAuth): Promise<Result<string>> {
    return guarded(async () => {
      const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
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

  /** GET /tables/:id/ws and /tables/:id/public/ws (upgrades) */
  override async fetch(request: Request): Promise<Response> {
    try {
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
        throw new TrestleError("E_SCHEMA", "this route needs a WebSocket upgrade");
      }
      if (isPublicUpgrade(request)) return await acceptPublic(this.ctx, request, this.sessionHost());
      return this.sessions.accept(this.requireState().table, this.now());
    } catch (error) {
      return errorResponse(error);
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (isPublicSocket(this.ctx, ws)) return refusePublicMessage(ws);
    await this.sessions.message(ws, message, this.sessionHost());
  }

  private sessionHost(): SessionHost {
    const table = this;
    return {
      get state() {
        return table.state;
      },
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

  /**
   * The signed head of the ledger as it is now: reads get the head of exactly the state they were
   * computed from. A mirror serves the head of the relay holding the table, over its last entry.
   */
  async currentHead(): Promise<SignedHead> {
    const kept = this.replica.mirror ? this.replica.newest() : null;
    return kept ?? this.headSigner().at({ seq: this.ledger.seq, link: this.ledger.link });
  }

  /**
   * The heads an export carries before `current` (§8.1): those kept from the relays that held the
   * table before (or the one a mirror follows), and this relay's own after each run of
   * LIMITS.export_head_bytes since it took custody.
   */
  private async earlierHeads(current: SignedHead): Promise<SignedHead[]> {
    const kept = this.replica.heads().filter((h) => h.sig !== current.sig);
    if (this.replica.mirror) return kept;
    const points = exportHeadPoints(this.ledger.all(), this.ledger.originals(1, this.ledger.seq), this.requireState().custody ?? 1);
    return [...kept, ...(await Promise.all(points.map((p) => this.headSigner().at(p))))];
  }

  /** GET /tables/:id/replica: whether the table is a mirror here, the relay holding it, its tip and head, evidence kept. */
  async replicaStatus(): Promise<Result<ReplicaStatus>> {
    return guarded(() => this.statusNow());
  }

  /** POST /tables/:id/replica: a verified chain extension for the replica (replica.ts); pushed to readers once stored. */
  async replicate(body: unknown): Promise<Result<ReplicaStatus>> {
    return guarded(async () => {
      const appended = await acceptPage(this, body);
      if (appended.length > 0) this.queuePush(appended);
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

  private async statusNow(): Promise<ReplicaStatus> {
    const state = this.requireState();
    return { table: state.table, mirror: this.replica.mirror, relay: state.relay, seq: this.ledger.seq, link: this.ledger.link, head: await this.currentHead(), evidence: this.replica.evidence() };
  }

  /** A write: refused while the table is a read-only mirror here (E_MIRROR), else run as any guarded call. */
  private writing<T>(fn: () => T | Promise<T>): Promise<Result<T>> {
    return guarded(() => {
      this.refuseMirror();
      return fn();
    });
  }

  private refuseMirror(): void {
    if (!this.replica.mirror) return;
    const relay = this.state?.relay ?? "";
    throw new TrestleError("E_MIRROR", `this relay holds table ${this.state?.table ?? ""} as a read-only mirror of relay ${relay}: write to that relay, or promote this mirror`, { relay });
  }

  private headSigner(): Heads {
    this.heads ??= new Heads(this.requireState().table, () => relaySigner(this.env), () => ({ seq: this.ledger.seq, link: this.ledger.link }));
    return this.heads;
  }

  private requireState(): TableState {
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
      const head = this.replica.mirror ? await this.currentHead() : await this.headSigner().current();
      const frames = new Frames(this.state, batch, head);
      this.sessions.push(frames, this.sessionHost());
      pushPublic(this.ctx, frames, this.sessionHost());
    } catch (error) {
      console.error("push failed", error);
    }
  }
}
