/**
 * A seat's WebSocket to its table (docs/SPEC.md §6.3), or an owner's session: answers the
 * challenge with the seat key (or the owner key: a live owner session, which counts as somebody who
 * can answer an approval, §5.6), resumes from the last verified seq, verifies every pushed entry's chain link and every head
 * against the pinned relay key (heads.ts, follow.ts), and reconnects with exponential backoff and
 * jitter after the connection drops; a close that refuses for good (4401, 4403, ...: refusal.ts) ends
 * the session with the relay's code instead. Writes go over the socket with the newest verified head as
 * `known_head`; a write not yet acknowledged is sent again after a reconnect with the same nonce,
 * which the relay answers with the same seq (retries are idempotent). A write refused over a rate
 * limit (E_RATE_LIMITED) is sent again once its wait has passed; a socket the relay closes over a
 * limit (an E_RATE_LIMITED error frame, then 4429) reconnects no sooner than that wait. Anything the relay sends
 * that contradicts the chain or a held head ends the session with the error (and evidence).
 * With `owner` instead of `seat`, the socket is an owner session (§6.3): the owner key answers the
 * challenge, every entry is pushed and verified the same way, and nothing can be submitted.
 */
import {
  PONG_FRAME,
  PING_FRAME,
  retryAfterOf,
  ServerFrameSchema,
  signOwnerSocketAuth,
  signSocketAuth,
  signSubmission,
  TrestleError,
  type ClientFrame,
  type DistributiveOmit,
  type Entry,
  type HiddenEntry,
  type ServerFrame,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type SubmitRequest,
} from "../protocol/index.js";
import { ChainFollower, GENESIS, type ChainPoint } from "./follow.js";
import { evidenceOf, type Evidence, type HeadTracker } from "./heads.js";
import { backoffDelay, DEFAULT_BACKOFF, type Backoff } from "./backoff.js";
import { randomNonce, systemRandom, type Random } from "./random.js";
import { refusalOf } from "./refusal.js";
import { connectWire, type WireConnect, type WireSocket } from "./websocket.js";

/** Connection states reported to `onStatus`. */
export type SocketStatus = "connecting" | "open" | "reconnecting" | "closed";

/** What a socket reports; every item and head passed to `onEntries` is already verified. */
export interface TableSocketHandlers {
  onEntries?(items: (Entry | HiddenEntry)[], head: SignedHead): void;
  onStatus?(status: SocketStatus, detail?: { attempt: number; delayMs: number }): void;
  /** The relay was caught forking or truncating; the session ends with E_FORK right after. */
  onEvidence?(evidence: Evidence): void;
}

/** Options for a TableSocket: a seat's socket (`seat`), or an owner's session (`owner`). */
export type TableSocketOptions = SocketCommonOptions &
  ({ seat: string; owner?: undefined } | { owner: string; seat?: undefined });

/** Options every TableSocket takes. */
export interface SocketCommonOptions {
  /** ws: or wss: URL of /tables/:id/ws (HttpClient.socketUrl). */
  url: string;
  table: string;
  /** The seat key (answers challenges and signs writes), or the owner key of an owner session. */
  signer: Signer;
  /** Heads are judged against its pinned relay key; shared with HTTP reads of the same table. */
  tracker: HeadTracker;
  /** Where the verified chain starts; default the genesis (every entry is sent and checked). */
  anchor?: ChainPoint;
  handlers?: TableSocketHandlers;
  connect?: WireConnect;
  backoff?: Backoff;
  random?: Random;
  /** Interval of keepalive pings; a connection silent for two intervals is dropped. Default 30 s. */
  pingMs?: number;
  /** A write refused over a rate limit is sent again after its wait when that wait is at most this long; else refused. Default 60 s. */
  maxRateWaitMs?: number;
}

/** How a session ended: closed by the caller, or by a fatal error (auth refused, evidence, bad frames). */
export type SocketEnd = { reason: "closed" } | { reason: "error"; error: TrestleError };

/** A submission as a seat writes it: table, seat and nonce are filled in by the socket. */
export type SeatSubmission = DistributiveOmit<SubmissionInput, "table" | "seat" | "nonce">;

interface Pending {
  request: SubmitRequest;
  resolve(value: { seq: number; head: SignedHead }): void;
  reject(error: TrestleError): void;
}

/** One seat's (or one owner's) live connection to one table. */
export class TableSocket {
  private readonly follower: ChainFollower;
  private readonly connect: WireConnect;
  private readonly backoff: Backoff;
  private readonly random: Random;
  private readonly pending = new Map<string, Pending>();
  private wire: WireSocket | null = null;
  private open = false;
  private stopped: SocketEnd | null = null;
  private attempt = 0;
  /** Counts connections: a frame, or a challenge answer still being signed, belongs to the connection it came on and is dropped once a newer one exists. */
  private connection = 0;
  private nextId = 1;
  private queue: Promise<void> = Promise.resolve();
  private heldAtConnect: SignedHead | null = null;
  private cursorSent = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private heard = true;
  /** The wait a rate-limit refusal of the socket itself named: the next reconnect waits at least this long. */
  private reconnectNoSooner = 0;
  private readonly resends = new Set<ReturnType<typeof setTimeout>>();
  private firstWelcome: { resolve(): void; reject(error: TrestleError): void } | null = null;
  private endResolve!: (end: SocketEnd) => void;
  /** Resolves once the session has ended for good. */
  readonly ended: Promise<SocketEnd>;

  constructor(private readonly options: TableSocketOptions) {
    this.follower = new ChainFollower(options.tracker, options.anchor ?? GENESIS);
    this.connect = options.connect ?? connectWire;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.random = options.random ?? systemRandom;
    this.ended = new Promise((resolve) => (this.endResolve = resolve));
  }

  /** The last verified seq and link: where a reconnect resumes. */
  get position(): ChainPoint {
    return this.follower.position;
  }

  /** Connects and authenticates; resolves at the first welcome. The first connection failing rejects (E_NETWORK); evidence already kept against the relay rejects at once (E_FORK). */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.firstWelcome = { resolve, reject };
      try {
        this.options.tracker.assertClean();
      } catch (error) {
        return this.fail(error);
      }
      void this.dial(true);
    });
  }

  /** Signs and sends a submission; resolves with its seq once the relay acknowledges it. An owner session has no seat to write as (E_FORBIDDEN). */
  async submit(input: SeatSubmission): Promise<{ seq: number; head: SignedHead }> {
    const { table, seat, signer } = this.options;
    if (seat === undefined) throw new TrestleError("E_FORBIDDEN", "an owner session does not speak for a seat");
    const request = await signSubmission(signer, { ...input, table, seat, nonce: randomNonce() } as SubmissionInput);
    return this.send(request);
  }

  /** Sends a signed request (resent after reconnects until acknowledged or refused). */
  send(request: SubmitRequest): Promise<{ seq: number; head: SignedHead }> {
    if (this.stopped) return Promise.reject(this.stoppedError());
    return new Promise((resolve, reject) => {
      const id = `w${this.nextId++}`;
      this.pending.set(id, { request, resolve, reject });
      if (this.open) this.transmit(id);
    });
  }

  /** Ends the session; pending writes are refused with E_NETWORK. */
  close(): void {
    this.finish({ reason: "closed" });
  }

  private async dial(first: boolean): Promise<void> {
    if (this.stopped) return;
    this.options.handlers?.onStatus?.("connecting");
    const connection = ++this.connection;
    try {
      this.wire = await this.connect(this.options.url, {
        onMessage: (text) => this.enqueue(text, connection),
        onClose: (code, reason) => this.dropped(code, reason),
      });
    } catch (error) {
      if (first)
        return this.finish({
          reason: "error",
          error: new TrestleError("E_NETWORK", `cannot open ${this.options.url}: ${messageOf(error)}`),
        });
      return this.retry();
    }
    if (this.stopped) return this.wire.close(1000, "closed");
    this.heard = true;
    const pingMs = this.options.pingMs ?? 30_000;
    this.pinger = setInterval(() => this.keepalive(), pingMs);
  }

  private keepalive(): void {
    if (!this.heard) return this.wire?.close(4000, "no answer to ping");
    this.heard = false;
    this.wire?.send(PING_FRAME);
  }

  private enqueue(text: string, connection: number): void {
    this.heard = true;
    if (text === PONG_FRAME) return;
    this.queue = this.queue.then(() => this.handle(text, connection)).catch((error: unknown) => this.fail(error));
  }

  private async handle(text: string, connection: number): Promise<void> {
    if (this.stopped || connection !== this.connection) return;
    const frame = ServerFrameSchema.safeParse(safeJson(text));
    if (!frame.success) throw new TrestleError("E_BAD_RESPONSE", "the relay sent a frame that is not a server frame");
    await this.onFrame(frame.data, connection);
  }

  private async onFrame(frame: ServerFrame, connection: number): Promise<void> {
    const { table, seat, owner, signer, tracker } = this.options;
    switch (frame.type) {
      case "challenge": {
        if (frame.table !== table)
          throw new TrestleError("E_BAD_RESPONSE", `the challenge is for table "${frame.table}"`);
        this.heldAtConnect = tracker.held;
        this.cursorSent = this.follower.position.seq;
        if (owner !== undefined) {
          const sig = await signOwnerSocketAuth(signer, { scope: "ws", table, owner, challenge: frame.challenge });
          if (connection !== this.connection) return;
          return this.write({ type: "owner_auth", owner, sig, cursor: this.cursorSent });
        }
        const sig = await signSocketAuth(signer, { scope: "ws", table, seat, challenge: frame.challenge });
        // Signed too late: that connection closed meanwhile, and its answer would not verify on the next.
        if (connection !== this.connection) return;
        return this.write({ type: "auth", seat, sig, cursor: this.cursorSent });
      }
      case "welcome":
      case "owner_welcome": {
        const answered = frame.type === "welcome" ? frame.seat === seat : frame.owner === owner;
        if (!answered)
          throw new TrestleError("E_BAD_RESPONSE", `the relay welcomed someone other than ${owner ?? seat}`);
        await tracker.observe(frame.head, this.heldAtConnect);
        if (frame.cursor !== this.cursorSent) {
          throw new TrestleError("E_BAD_RESPONSE", `resumed at ${frame.cursor}, not at ${this.cursorSent} as asked`);
        }
        this.open = true;
        this.attempt = 0;
        for (const id of this.pending.keys()) this.transmit(id);
        this.firstWelcome?.resolve();
        this.firstWelcome = null;
        this.options.handlers?.onStatus?.("open");
        return;
      }
      case "entries": {
        const items = this.follower.accept(frame.items);
        this.follower.checkHead(frame.head);
        await tracker.observe(frame.head);
        this.options.handlers?.onEntries?.(items, frame.head);
        return;
      }
      case "ack": {
        const pending = this.pending.get(frame.id);
        if (!pending) return;
        this.pending.delete(frame.id);
        await tracker.observe(frame.head);
        pending.resolve({ seq: frame.seq, head: frame.head });
        return;
      }
      case "error": {
        const error = new TrestleError(frame.error.code, frame.error.message, frame.error.details);
        const wait = retryAfterOf(error);
        const pending = frame.id === undefined ? undefined : this.pending.get(frame.id);
        if (pending && frame.id !== undefined) {
          if (wait !== null && wait <= (this.options.maxRateWaitMs ?? 60_000)) return this.resendAfter(frame.id, wait);
          this.pending.delete(frame.id);
          return pending.reject(error);
        }
        // The relay is closing this socket over a limit (4429 follows): reconnect after the wait.
        if (wait !== null) return void (this.reconnectNoSooner = wait);
        throw error;
      }
    }
  }

  /** Sends write `id` again after `waitMs` (same nonce: the relay applies it once), if it is still waiting and the socket is open. */
  private resendAfter(id: string, waitMs: number): void {
    const timer = setTimeout(() => {
      this.resends.delete(timer);
      if (this.open) this.transmit(id);
    }, waitMs);
    this.resends.add(timer);
  }

  private transmit(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    const known = this.options.tracker.knownHead();
    const request: SubmitRequest = known ? { ...pending.request, known_head: known } : pending.request;
    this.write({ type: "submit", id, request });
  }

  private write(frame: ClientFrame): void {
    this.wire?.send(JSON.stringify(frame));
  }

  private dropped(code: number, reason: string): void {
    this.open = false;
    this.wire = null;
    clearInterval(this.pinger);
    if (this.stopped) return;
    const who =
      this.options.owner === undefined ? `seat ${this.options.seat}'s socket` : `owner ${this.options.owner}'s session`;
    const refusal = refusalOf(code, reason, who);
    // After the frames that came before the close: a seat that left still gets its last entries.
    if (refusal) return void (this.queue = this.queue.then(() => this.fail(refusal)));
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    const delayMs = Math.max(backoffDelay(this.attempt, this.backoff, this.random), this.reconnectNoSooner);
    this.reconnectNoSooner = 0;
    this.options.handlers?.onStatus?.("reconnecting", { attempt: this.attempt + 1, delayMs });
    this.attempt += 1;
    this.timer = setTimeout(() => void this.dial(false), delayMs);
  }

  private fail(error: unknown): void {
    const err = error instanceof TrestleError ? error : new TrestleError("E_BAD_RESPONSE", messageOf(error));
    const evidence = evidenceOf(err);
    if (evidence) this.options.handlers?.onEvidence?.(evidence);
    this.finish({ reason: "error", error: err });
  }

  private finish(end: SocketEnd): void {
    if (this.stopped) return;
    this.stopped = end;
    this.open = false;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    for (const timer of this.resends) clearTimeout(timer);
    this.wire?.close(1000, "closed");
    this.wire = null;
    const error = this.stoppedError();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.firstWelcome?.reject(error);
    this.firstWelcome = null;
    this.options.handlers?.onStatus?.("closed");
    this.endResolve(end);
  }

  private stoppedError(): TrestleError {
    const end = this.stopped;
    return end?.reason === "error" ? end.error : new TrestleError("E_NETWORK", "the socket was closed");
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
