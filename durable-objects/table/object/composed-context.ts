/**
 * The one context of a table's Durable Object (LedgerObject, ledger-object.ts, holds it), as the object composes
 * it: it builds the lower parts (storage and env, the folded state, the ledger, the tombstone, the
 * relay key, the heads, the alarm, the owner notifications, the sockets and the push queue) and
 * wires the steps that need role modules (what follows every write, the alarm's schedule, a
 * lifetime's end, a signed read's reader, the hand-over of notifications). Role modules are handed
 * this object as the TableContext they see (context.ts); none is given an adapter of it. The folded
 * state lives in memory and is rebuilt from SQLite on every wake, identically.
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { Signer } from "../../../src/protocol/signing/crypto.js";
import type { Entry, HeadRef } from "../../../src/protocol/schemas/entry.js";
import type { SignedHead } from "../../../src/protocol/schemas/head.js";
import { relaySigner } from "../../relay/relay-key.js";
import { authorizeRead } from "../signing/auth.js";
import { Heads } from "../signing/heads.js";
import { Ledger } from "../storage/ledger.js";
import { wakeState } from "../storage/checkpoint.js";
import { Sessions } from "./sessions.js";
import { deliverResult, deliveryAt } from "../writing/results.js";
import { requireTable } from "../writing/writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import { Notices, ownerNotify } from "../storage/notices.js";
import { ownerChannels, type ChannelProbe } from "../approvers.js";
import { Alarm, settlementAt, watchdogAt } from "../writing/alarms.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import { limitsOf } from "../../settings.js";
import { TableLimits } from "../limits.js";
import { buryTable, Expiry } from "./lifetime.js";
import { readBurial, type Burial } from "../storage/tombstone.js";
import { exportHeadPoints } from "../../../src/protocol/ledger/export.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { ReplicaStatus } from "../../../src/protocol/schemas/replica.js";
import { Replica } from "../storage/replica.js";
import { PushQueue } from "../sockets/push-queue.js";
import type { ReadAuth, TableContext } from "../context.js";
import { submitToWitnesses, witnessesBehind, WITNESS_BATCH_MS, WITNESS_RETRY_MS } from "../writing/witnessing.js";
import { fetchWitness, type WitnessSubmit } from "../writing/witness-submit.js";
import { hasDoneDeal } from "../market/market-deals.js";
import { dealStatementsOf } from "../../../src/protocol/signing/deal.js";
import { unwrap } from "../../result.js";
import { tableObject } from "../../stubs.js";

/** Everything one table's object holds; one per object, built when it wakes. */
export class ComposedContext implements TableContext {
  state: TableState | null = null;
  ledger: Ledger;
  /** Set once the table is deleted (storage/tombstone.ts): every request then reads it as E_TABLE_DELETED. */
  burial: Burial | null;
  readonly storage: DurableObjectStorage;
  /** Rates and socket caps this table counts itself (limits.ts). */
  readonly limits: TableLimits;
  readonly expiry: Expiry;
  /** The seat and owner sockets' sessions (object/sessions.ts). */
  readonly sessions: Sessions;
  /** Appended entries waiting for the next push to the sockets (sockets/push-queue.ts). */
  readonly pushQueue: PushQueue;
  readonly alarms: Alarm;
  /** Owner notifications recorded with their entries and not yet handed over (storage/notices.ts). */
  readonly notices: Notices;
  /** Whether an owner has a proven notification channel, for E_NO_APPROVER. */
  readonly channels: ChannelProbe;
  /** Whether the table is a read-only mirror here, and the heads and evidence it keeps (storage/replica.ts). */
  readonly replica: Replica;
  /** The ledger limit this relay publishes (LIMITS.entries); a replica's pages are judged with it. */
  readonly maxEntries = LIMITS.entries;
  /** How checkpoints reach the table's witnesses (writing/witness-submit.ts); tests swap it. */
  witnessSubmit: WitnessSubmit = fetchWitness;
  /** When the alarm next submits the checkpoint to the witnesses behind it; null while none is (kept in memory: a wake finds them behind again). */
  private witnessDue: number | null = null;
  private heads: Heads | undefined;
  private handoffs: Promise<void> = Promise.resolve();

  constructor(
    /** The Durable Object's own state: storage, sockets, waitUntil. */
    readonly ctx: DurableObjectState,
    readonly env: Env,
  ) {
    this.storage = ctx.storage;
    this.sessions = new Sessions(ctx);
    this.ledger = new Ledger(ctx.storage);
    this.replica = new Replica(ctx.storage.sql);
    this.alarms = new Alarm(ctx.storage);
    this.notices = new Notices(ctx.storage.sql, (at) => this.alarms.armBy(at));
    this.channels = ownerChannels(env);
    this.limits = new TableLimits(() => limitsOf(env));
    this.expiry = new Expiry(() => this.ledger);
    this.pushQueue = new PushQueue(this);
    this.burial = readBurial(ctx.storage.sql);
    this.state = this.burial ? null : wakeState(this.ledger);
  }

  /** The clock every write and deadline of this table reads (tests move it). */
  now(): number {
    return Date.now();
  }

  /** This relay's signing key (its heads, results and custody signatures). */
  signer(): Promise<Signer> {
    return relaySigner(this.env);
  }

  /** The object of another table on this relay (a parent or a child). */
  table(id: string): ReturnType<Env["TABLES"]["get"]> {
    return tableObject(this.env, id);
  }

  /** Every socket of the table: seat, owner and public. */
  sockets(): WebSocket[] {
    return this.ctx.getWebSockets();
  }

  /** Entries after `cursor` up to the newest, at most `limit`. */
  entriesAfter(cursor: number, limit: number): Entry[] {
    return this.ledger.range(cursor + 1, this.ledger.seq, limit);
  }

  /** Owners who can answer an approval now: live owner sessions and connected human seats. */
  answerers(): ReadonlySet<string> {
    return this.state ? this.sessions.answerers(this.state) : new Set();
  }

  /** Arms the alarm at the earliest deadline of the watchdog, an auction's or sealed listing's settlement, a pending result delivery, a notification not yet taken, a checkpoint for the witnesses, a socket's authentication and the table's end of life. */
  reschedule(): Promise<void> {
    if (this.burial) return Promise.resolve();
    const limits = this.limits.values;
    const ends = [this.sessions.authDeadline(limits.socket_auth_ms), this.expiry.at(this.state, limits)];
    if (this.replica.mirror) return this.alarms.schedule(ends);
    const notices = this.state ? this.notices.nextAt(this.now()) : null;
    if (this.witnessDue === null && witnessesBehind(this)) this.witnessDue = this.now() + WITNESS_BATCH_MS;
    return this.alarms.schedule([
      watchdogAt(this.state),
      settlementAt(this.state),
      deliveryAt(this.storage, this.state, this.now()),
      notices,
      this.witnessDue,
      ...ends,
    ]);
  }

  /** The alarm's submission of the checkpoint to the witnesses behind it, once due (writing/witnessing.ts); retried later when one fails. */
  async witness(): Promise<void> {
    if (this.witnessDue === null || this.witnessDue > this.now()) return;
    this.witnessDue = null;
    if (!(await submitToWitnesses(this, this.witnessSubmit))) this.witnessDue = this.now() + WITNESS_RETRY_MS;
  }

  /** The alarm's deletion of a table whose lifetime ended; retried a minute later when it cannot finish. */
  async expire(): Promise<void> {
    try {
      await buryTable(this, { table: this.requireState().table, deleted_at: this.now(), reason: "expired" }, null);
    } catch (error) {
      console.error("deleting an expired table failed; the alarm retries", error);
      this.alarms.armBy(this.now() + 60_000);
    }
  }

  /** Forgets everything the object holds in memory, keeping `burial` (the table was deleted). */
  forget(burial: Burial): void {
    this.burial = burial;
    this.state = null;
    this.ledger = new Ledger(this.storage);
    this.heads = undefined;
    this.pushQueue.clear();
    this.alarms.fired();
  }

  /** The principal a signed read is made as, counted against its read rate. */
  async reader(auth: ReadAuth): Promise<Principal> {
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

  /**
   * The signed head of the ledger as it is now: reads get the head of exactly the state they were
   * computed from. A mirror serves the head of the relay holding the table, over its last entry.
   */
  async currentHead(): Promise<SignedHead> {
    const kept = this.replica.mirror ? this.replica.newest() : null;
    return kept ?? this.headSigner().at({ seq: this.ledger.seq, link: this.ledger.link });
  }

  /** A head at or after every entry appended so far, for a push: one signature shared by the writes meanwhile (signing/heads.ts). */
  pushHead(): Promise<SignedHead> {
    return this.replica.mirror ? this.currentHead() : this.headSigner().current();
  }

  /** This relay's signed head at exactly `point` (E_MIRROR on a mirror, which signs nothing of the table). */
  headAt(point: HeadRef): Promise<SignedHead> {
    this.refuseMirror();
    return this.headSigner().at(point);
  }

  /**
   * The heads an export carries before `current` (§8.1): those kept from the relays that held the
   * table before (or the one a mirror follows), and this relay's own after each run of
   * LIMITS.export_head_bytes since it took custody.
   */
  async earlierHeads(current: SignedHead): Promise<SignedHead[]> {
    const kept = this.replica.heads().filter((h) => h.sig !== current.sig);
    if (this.replica.mirror) return kept;
    const points = exportHeadPoints(
      this.ledger.all(),
      this.ledger.originals(1, this.ledger.seq),
      this.requireState().custody ?? 1,
    );
    return [...kept, ...(await Promise.all(points.map((p) => this.headSigner().at(p))))];
  }

  /** Whether the table is a mirror here, the relay holding it, its tip and head, evidence kept. */
  async statusNow(): Promise<ReplicaStatus> {
    const state = this.requireState();
    return {
      table: state.table,
      mirror: this.replica.mirror,
      relay: state.relay,
      seq: this.ledger.seq,
      link: this.ledger.link,
      head: await this.currentHead(),
      evidence: this.replica.evidence(),
      refused: this.replica.refusals(),
    };
  }

  /** E_MIRROR while the table is a read-only mirror here: every write is refused. */
  refuseMirror(): void {
    if (!this.replica.mirror) return;
    const relay = this.state?.relay ?? "";
    throw new TrestleError(
      "E_MIRROR",
      `this relay holds table ${this.state?.table ?? ""} as a read-only mirror of relay ${relay}: write to that relay, or promote this mirror`,
      { relay },
    );
  }

  private headSigner(): Heads {
    this.heads ??= new Heads(
      this.requireState().table,
      () => this.signer(),
      () => ({ seq: this.ledger.seq, link: this.ledger.link }),
    );
    return this.heads;
  }

  /** The live state; E_TABLE_DELETED for a deleted table, E_TABLE_NOT_FOUND before it exists. */
  requireState(): TableState {
    return requireTable(this);
  }

  /**
   * After a write: a head at or after its entries (one signature shared by the writes meanwhile,
   * signing/heads.ts), the owner notifications it recorded handed over, the push queued, the alarm moved.
   */
  async afterWrite(outcome: WriteOutcome): Promise<SignedHead> {
    if (outcome.appended.length === 0) return this.currentHead();
    const head = this.headSigner().current();
    if (this.notices.pending) this.ctx.waitUntil((this.handoffs = this.handoffs.then(() => this.handOff())));
    this.pushQueue.queue(outcome.appended);
    await this.reschedule();
    const match = this.state?.config.room?.match;
    if (match && outcome.appended.some((e) => dealStatementsOf(e).length > 0) && hasDoneDeal(this.state)) {
      // The deal is committed whatever happens here; a record that fails is asked for again by a client (POST /tables/:market/deals).
      const room = this.state!.table;
      this.ctx.waitUntil(
        this.table(match.market)
          .recordDeal({ room })
          .then((r) => void unwrap(r))
          .catch((error: unknown) =>
            console.error(`recording the deal of ${room} in market ${match.market} failed`, error),
          ),
      );
    }
    if (
      this.state?.config.parent &&
      outcome.appended.some((e) => e.kind === "system" && e.subkind === "table_closed")
    ) {
      await head;
      // The close is committed whatever happens here; a delivery that fails is retried by the alarm.
      await deliverResult(this).catch((error: unknown) => console.error("sub-table result delivery failed", error));
    }
    return head;
  }
}
