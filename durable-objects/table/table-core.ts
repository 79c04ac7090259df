/**
 * The core of a table's Durable Object: its folded state, ledger, heads, alarm schedule, pushes
 * and tombstone, what follows every write (afterWrite), and the views of the object that its parts
 * work through (sessions.ts, lifetime.ts, results.ts, push-queue.ts). TableDO (table.ts) adds the
 * routes, the alarm and the socket handlers on top.
 */
import { DurableObject } from "cloudflare:workers";
import { TrestleError } from "../../src/protocol/errors.js";
import type { TableState } from "../../src/protocol/policy/state.js";
import type { ApproveResponse, SubmitResponse } from "../../src/protocol/schemas/responses.js";
import { own } from "../../src/protocol/records.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import { PING_FRAME, PONG_FRAME } from "../../src/protocol/schemas/ws.js";
import type { Env } from "../env.js";
import { relaySigner } from "../relay/relay-key.js";
import { guarded, type Result } from "../result.js";
import { authorizeRead } from "./auth.js";
import { Heads } from "./heads.js";
import { Ledger } from "./ledger.js";
import { wakeState } from "./checkpoint.js";
import { Sessions, type SessionHost } from "./sessions.js";
import { deliverResult, deliveryAt, type ResultHost } from "./results.js";
import type { WriteOutcome } from "./writes.js";
import { Notices, ownerNotify } from "./notify.js";
import { ownerChannels, type ChannelProbe } from "./approvers.js";
import { Alarm, auctionAt, watchdogAt } from "./alarms.js";
import { push } from "./fan-out.js";
import type { Principal } from "../../src/protocol/schemas/auth.js";
import { limitsOf } from "../limits/config.js";
import { TableLimits } from "./limits.js";
import { buryTable, deletedError, Expiry, readBurial, type Burial, type BurialHost } from "./lifetime.js";
import { exportHeadPoints } from "../../src/protocol/export.js";
import { LIMITS } from "../../src/protocol/limits.js";
import type { ReplicaStatus } from "../../src/protocol/schemas/replica.js";
import { Replica } from "./replica.js";
import { PushQueue, type PushHost } from "./push-queue.js";
import type { TableDO } from "./table.js";

/** A read request as the Worker saw it: the Authorization header and the signed path. */
export interface ReadAuth {
  header: string | null;
  path: string;
}

/** What every part of the table object shares; TableDO (table.ts) is the object. */
export abstract class TableCore extends DurableObject<Env> {
  state: TableState | null = null;
  ledger: Ledger;
  /** Set once the table is deleted (lifetime.ts): every request then reads it as E_TABLE_DELETED. */
  burial: Burial | null;
  /** Rates and socket caps this table counts itself (limits.ts). */
  readonly limits: TableLimits;
  protected readonly expiry: Expiry;
  protected readonly sessions: Sessions;
  private heads: Heads | undefined;
  protected readonly pushQueue: PushQueue;
  protected handoffs: Promise<void> = Promise.resolve();
  protected readonly alarms: Alarm;
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
    this.limits = new TableLimits(() => limitsOf(env));
    this.expiry = new Expiry(() => this.ledger);
    this.pushQueue = new PushQueue(this.pushHost());
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

  /** Arms the alarm at the earliest deadline of the watchdog, an auction's settlement, a pending result delivery, a notification not yet taken, a socket's authentication and the table's end of life. */
  protected reschedule(): Promise<void> {
    if (this.burial) return Promise.resolve();
    const limits = this.limits.values;
    const ends = [this.sessions.authDeadline(limits.socket_auth_ms), this.expiry.at(this.state, limits)];
    if (this.replica.mirror) return this.alarms.schedule(ends);
    const notices = this.state ? this.notices.nextAt() : null;
    return this.alarms.schedule([watchdogAt(this.state), auctionAt(this.state), deliveryAt(this.ctx.storage, this.state, this.now()), notices, ...ends]);
  }

  /** The alarm's deletion of a table whose lifetime ended; retried a minute later when it cannot finish. */
  protected async expire(): Promise<void> {
    try {
      await buryTable(this.burialHost(), { table: this.requireState().table, deleted_at: this.now(), reason: "expired" }, null);
    } catch (error) {
      console.error("deleting an expired table failed; the alarm retries", error);
      this.alarms.armBy(this.now() + 60_000);
    }
  }

  /** The principal a signed read is made as, counted against its read rate. */
  protected async reader(auth: ReadAuth): Promise<Principal> {
    const principal = await authorizeRead(this.requireState(), auth.header, "GET", auth.path, this.now());
    this.limits.read(principal, this.now());
    return principal;
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

  protected sessionHost(): SessionHost {
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

  private pushHost(): PushHost {
    const table = this;
    return {
      get state() {
        return table.state;
      },
      head: () => (this.replica.mirror ? this.currentHead() : this.headSigner().current()),
      send: (frames) => push(this.ctx.getWebSockets(), frames, this.sessionHost()),
    };
  }

  protected table(id: string): DurableObjectStub<TableDO> {
    return this.env.TABLES.get(this.env.TABLES.idFromName(id));
  }

  protected burialHost(): BurialHost {
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
        this.pushQueue.clear();
        this.alarms.fired();
      },
    };
  }

  protected resultHost(): ResultHost {
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
  protected async earlierHeads(current: SignedHead): Promise<SignedHead[]> {
    const kept = this.replica.heads().filter((h) => h.sig !== current.sig);
    if (this.replica.mirror) return kept;
    const points = exportHeadPoints(this.ledger.all(), this.ledger.originals(1, this.ledger.seq), this.requireState().custody ?? 1);
    return [...kept, ...(await Promise.all(points.map((p) => this.headSigner().at(p))))];
  }

  protected async statusNow(): Promise<ReplicaStatus> {
    const state = this.requireState();
    return { table: state.table, mirror: this.replica.mirror, relay: state.relay, seq: this.ledger.seq, link: this.ledger.link, head: await this.currentHead(), evidence: this.replica.evidence(), refused: this.replica.refusals() };
  }

  /** A write: refused while the table is a read-only mirror here (E_MIRROR), else run as any guarded call. */
  protected writing<T>(fn: () => T | Promise<T>): Promise<Result<T>> {
    return guarded(() => {
      this.refuseMirror();
      return fn();
    });
  }

  protected refuseMirror(): void {
    if (!this.replica.mirror) return;
    const relay = this.state?.relay ?? "";
    throw new TrestleError("E_MIRROR", `this relay holds table ${this.state?.table ?? ""} as a read-only mirror of relay ${relay}: write to that relay, or promote this mirror`, { relay });
  }

  protected headSigner(): Heads {
    this.heads ??= new Heads(this.requireState().table, () => relaySigner(this.env), () => ({ seq: this.ledger.seq, link: this.ledger.link }));
    return this.heads;
  }

  protected requireState(): TableState {
    if (this.burial) throw deletedError(this.burial.tombstone);
    if (!this.state) throw new TrestleError("E_TABLE_NOT_FOUND");
    return this.state;
  }

  /**
   * After a write: a head at or after its entries (one signature shared by the writes meanwhile,
   * heads.ts), the owner notifications it recorded handed over, the push queued, the alarm moved.
   */
  protected async afterWrite(outcome: WriteOutcome): Promise<SignedHead> {
    if (outcome.appended.length === 0) return this.currentHead();
    const head = this.headSigner().current();
    if (this.notices.pending) this.ctx.waitUntil((this.handoffs = this.handoffs.then(() => this.handOff())));
    this.pushQueue.queue(outcome.appended);
    await this.reschedule();
    if (this.state?.config.parent && outcome.appended.some((e) => e.kind === "system" && e.subkind === "table_closed")) {
      await head;
      // The close is committed whatever happens here; a delivery that fails is retried by the alarm.
      await deliverResult(this.resultHost()).catch((error: unknown) => console.error("sub-table result delivery failed", error));
    }
    return head;
  }

  /** A seat's submission (HTTP or socket), refused on a mirror; the route's body outside the guard. */
  protected abstract submitUnguarded(body: unknown): Promise<SubmitResponse>;

  /** An owner's signed approval or rejection (HTTP or socket), refused on a mirror. */
  protected abstract approveUnguarded(body: unknown): Promise<ApproveResponse>;
}
