/**
 * A seat's verified transcript kept from its own socket (docs/ROOMS.md "Mandates", decision 0495),
 * for an agent that writes often: instead of reading and verifying the whole export before every
 * write (transcript.ts, one request and the whole ledger each time), the seat's socket brings every
 * entry once, its chain and heads judged as it arrives (socket.ts), and the entries a signed head
 * covers are verified as an export is (every recorded signature, nonces, the policy replayed:
 * `extendLedger`) when the guards next ask, from where the last verification ended. Writes go over
 * the same socket. The transcript is REFUTED from the first entry that does not verify; a view
 * that cannot be checked live (an entry hidden from the seat, a cut body without its original) is
 * read as an export from then on, as transcript.ts reads it. Nothing here trusts the relay more
 * than an export read does: a relay's socket is attacker-controlled input like its export.
 */
import type { Reader, TableClient, TableSocket, WireConnect } from "../client/index.js";
import {
  EMPTY_TIP,
  extendLedger,
  isEntry,
  LIMITS,
  nonceKeyOf,
  recordedStatements,
  Refuted,
  TrestleError,
  type Coverage,
  type Entry,
  type EntryChecker,
  type EntryDraft,
  type HashFunction,
  type HiddenEntry,
  type ReplicaTip,
  type SignedHead,
  type Signer,
  type SubmitRequest,
  type VerifyReport,
} from "../protocol/index.js";
import { readTranscript, type Transcript } from "./transcript.js";

/** How a live transcript is opened: the table's client, the seat it reads and writes as, and what it hears. */
export interface LiveTranscriptOptions {
  client: TableClient;
  seat: string;
  /** The seat key. */
  signer: Signer;
  /** Called with every batch of entries as it arrives (chain and head judged, not yet verified), with its arrival time (performance.now()). */
  onArrival?(items: readonly (Entry | HiddenEntry)[], at: number): void;
  /** How the socket connects (default: the runtime's WebSocket, websocket.ts). */
  connect?: WireConnect;
  /** Who checks the arrived entries' leaves and signatures, and the links' SHA-256 (defaults: the protocol's own; in Node, verify-pool.ts and node-sha256.ts). */
  checker?: EntryChecker;
  sha256?: HashFunction;
}

/** A write the socket acknowledged: its entry's seq, the head that holds it, and whether its body was cut. */
export interface LiveSent {
  seq: number;
  head: SignedHead;
  truncated: boolean;
}

/** One seat's transcript, verified from its socket; one per seat and table, closed when done. */
export class LiveTranscript {
  private readonly pending: (Entry | HiddenEntry)[] = [];
  private readonly entries: Entry[] = [];
  private readonly nonces = new Set<string>();
  private tip: ReplicaTip = EMPTY_TIP;
  private signatures = 0;
  private refuted: { seq: number | null; reason: string } | null = null;
  /** Set once the view cannot be checked live: the export is read instead, as transcript.ts does. */
  private exportOnly = false;
  /** The newest seq a transcript must reach before it is handed out: the head at the welcome, then this seat's last write. */
  private written = 0;
  private verifying: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];
  /** The newest seq handed to this transcript by the socket (the socket's own position moves before its handler runs). */
  private arrivedSeq = 0;
  private end: TrestleError | null = null;

  private constructor(
    private readonly options: LiveTranscriptOptions,
    private readonly socket: TableSocket,
  ) {}

  /** Connects the seat's socket from entry 1 and resolves at its welcome; E_NETWORK when it cannot connect, the relay's refusal when it refuses the seat. */
  static async open(options: LiveTranscriptOptions): Promise<LiveTranscript> {
    let live: LiveTranscript | null = null;
    const socket = options.client.socket({
      seat: options.seat,
      signer: options.signer,
      ...(options.connect ? { connect: options.connect } : {}),
      handlers: { onEntries: (items) => live?.arrived(items) },
    });
    live = new LiveTranscript(options, socket);
    void socket.ended.then((end) =>
      live.ended(
        end.reason === "error"
          ? end.error
          : new TrestleError("E_NETWORK", `the socket of seat ${options.seat} at ${options.client.table} was closed`),
      ),
    );
    await socket.start();
    live.written = options.client.tracker.held?.seq ?? 0;
    return live;
  }

  /** The table. */
  get table(): string {
    return this.options.client.table;
  }

  /** The newest seq whose entry arrived (verified or not yet). */
  get seq(): number {
    return this.arrivedSeq;
  }

  /**
   * The verified transcript up to the newest signed head the socket reached, and at least up to
   * this seat's last write; REFUTED from the first entry that does not verify. Throws how the
   * socket ended (E_FORK with evidence, a refusal, E_NETWORK once closed).
   */
  async transcript(): Promise<Transcript> {
    if (this.exportOnly) return readTranscript(this.options.client, this.reader());
    while (this.covered() < this.written && !this.refuted && !this.exportOnly) await this.next();
    if (this.exportOnly) return readTranscript(this.options.client, this.reader());
    await this.verify();
    if (this.exportOnly) return readTranscript(this.options.client, this.reader());
    if (this.refuted) {
      this.options.client.tracker.assertClean();
      return { report: this.report("REFUTED"), entries: [...this.entries], state: null };
    }
    if (this.end && this.entries.length === 0) throw this.end;
    return {
      report: this.report(this.entries.length > 0 ? "CLEAN" : "INCONCLUSIVE"),
      entries: [...this.entries],
      state: this.tip.state,
    };
  }

  /** Resolves once an entry after `seq` arrived (or at once if one has); rejects how the socket ended. */
  async after(seq: number): Promise<void> {
    while (this.seq <= seq) await this.next();
  }

  /** Sends a signed request over the socket; resolves at the relay's answer with its seq, once the transcript holds it. */
  async submit(request: SubmitRequest): Promise<LiveSent> {
    const { seq, head } = await this.socket.send(request);
    this.written = Math.max(this.written, seq);
    const transcript = await this.transcript();
    const entry = transcript.entries.find((e) => e.seq === seq);
    const truncated =
      entry !== undefined && entry.kind !== "system" && entry.kind !== "approval" && entry.truncated !== undefined;
    return { seq, head, truncated };
  }

  /** Closes the socket; the transcript then ends (E_NETWORK). */
  close(): void {
    this.socket.close();
  }

  private reader(): Reader {
    return { signer: this.options.signer, as: { seat: this.options.seat } };
  }

  private arrived(items: (Entry | HiddenEntry)[]): void {
    this.options.onArrival?.(items, performance.now());
    this.pending.push(...items);
    this.arrivedSeq = items[items.length - 1]?.seq ?? this.arrivedSeq;
    this.wake();
  }

  private ended(error: TrestleError): void {
    this.end = error;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }

  /** Waits for the next arrival; rejects once the socket has ended. */
  private next(): Promise<void> {
    if (this.end) return Promise.reject(this.end);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The newest seq both arrived and covered by a head the socket's tracker adopted on this chain. */
  private covered(): number {
    return Math.min(this.seq, this.options.client.tracker.held?.seq ?? 0);
  }

  /** Verifies, one run at a time, the arrived entries a head covers, from where the last run ended. */
  private verify(): Promise<void> {
    this.verifying = this.verifying.then(async () => {
      if (this.refuted || this.exportOnly) return;
      const upTo = this.covered();
      const batch = this.pending.filter((item) => item.seq <= upTo);
      if (batch.length === 0) return;
      if (
        !batch.every(isEntry) ||
        batch.some((e) => e.kind !== "system" && e.kind !== "approval" && e.truncated !== undefined)
      ) {
        this.exportOnly = true;
        return;
      }
      try {
        const extended = await extendLedger(this.tip, batch, {
          originals: new Map(),
          requireOriginals: false,
          maxEntries: this.options.client.maxEntries ?? LIMITS.entries,
          ...(this.options.checker ? { checker: this.options.checker } : {}),
          ...(this.options.sha256 ? { hash: this.options.sha256 } : {}),
        });
        this.pending.splice(0, batch.length);
        this.entries.push(...batch);
        for (const entry of batch) {
          const key = nonceKeyOf(entry as EntryDraft);
          if (key !== null) this.nonces.add(key);
          this.signatures += recordedStatements(entry).length;
        }
        this.tip = {
          state: extended.state,
          link: extended.links[extended.links.length - 1]!,
          nonceUsed: (key) => this.nonces.has(key),
        };
      } catch (error) {
        if (!(error instanceof Refuted)) throw error;
        this.refuted = { seq: error.seq, reason: error.reason };
        this.socket.close();
      }
    });
    return this.verifying;
  }

  private report(verdict: VerifyReport["verdict"]): VerifyReport {
    const held = this.entries.length;
    const coverage: Coverage = {
      entries: held,
      by_content: held,
      by_hash: 0,
      signatures: this.signatures,
      heads: held > 0 ? 1 : 0,
      truncated_checked: 0,
      truncated_unchecked: 0,
      head_seq: held > 0 ? held : null,
      relay_key_pinned: true,
      policy_replay: held > 0 ? "full" : "skipped",
    };
    return {
      verdict,
      table: this.table,
      last_seq: held,
      unchecked: held > 0 ? [] : ["the ledger is empty"],
      coverage,
      ...(this.refuted ? { refuted: this.refuted } : {}),
    };
  }
}
