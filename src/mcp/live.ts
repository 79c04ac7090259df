/**
 * The MCP server's live connections to one table, both verified TableSockets sharing the table
 * client's HeadTracker (docs/SPEC.md §6.3):
 * - the seat's socket, opened by the first `trestle_wait`: every push bumps a version that waiters
 *   block on, so `wait` reads the projection again only when the table moved;
 * - an owner session, held while the connected MCP client can hand its human a link to the
 *   principal window, which makes this server a live approver for E_NO_APPROVER (§5.6).
 * A push on either also tells every `onPush` listener (the live resources, ./resources.ts).
 * Both reconnect by themselves; a socket that ends for good (refused, or the relay caught forking)
 * is dropped, its error kept for the next caller, and opened again on the next call.
 */
import type { TableClient, TableSocket } from "../client/index.js";
import { TrestleError, type Signer } from "../protocol/index.js";

/** A socket and the promise of its first welcome. */
interface Held {
  socket: TableSocket;
  started: Promise<void>;
}

/** The live sockets of one table in one MCP session. */
export class LiveTable {
  private seat: Held | null = null;
  private owner: Held | null = null;
  private pushes = 0;
  private failure: TrestleError | null = null;
  private readonly waiters = new Set<() => void>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly client: TableClient,
    private readonly log: (text: string) => void,
  ) {}

  /** How many pushes the seat's socket has delivered; `next` waits for this to grow. */
  get version(): number {
    return this.pushes;
  }

  /** Opens the seat's socket once (resolves at its welcome); rethrows why the last one ended, once. */
  async watch(seat: string, signer: Signer): Promise<void> {
    const failure = this.takeFailure();
    if (failure) throw failure;
    this.seat ??= this.open({ seat }, signer, (error) => {
      this.failure = error;
      this.seat = null;
      this.wake();
    });
    await this.seat.started;
  }

  /** Resolves true once a push arrives after `version`, false when `ms` pass or `signal` aborts first. */
  next(version: number, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.pushes > version || this.failure) return Promise.resolve(this.pushes > version);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve(this.pushes > version);
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** The error that ended the seat's socket, if it ended since this was last asked; reported once. */
  takeFailure(): TrestleError | null {
    const failure = this.failure;
    this.failure = null;
    return failure;
  }

  /** Holds an owner session for `owner` (once); true when it is live. A refusal is logged, not thrown. */
  async holdOwner(owner: string, signer: Signer): Promise<boolean> {
    this.owner ??= this.open({ owner }, signer, (error) => {
      this.log(`owner session for ${owner} at ${this.client.table} ended: ${error.code} ${error.message}`);
      this.owner = null;
    });
    const held = this.owner;
    try {
      await held.started;
      return true;
    } catch (error) {
      if (this.owner === held) this.owner = null;
      this.log(
        `no owner session for ${owner} at ${this.client.table}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }

  /** Whether an owner session is open right now. */
  get ownerLive(): boolean {
    return this.owner !== null;
  }

  /** Calls `listener` on every push either socket delivers from now on; returns how to stop. */
  onPush(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Whether either socket is open (or opening): pushes reach the listeners. */
  get watching(): boolean {
    return this.seat !== null || this.owner !== null;
  }

  /** Closes both sockets. */
  close(): void {
    this.seat?.socket.close();
    this.owner?.socket.close();
    this.seat = null;
    this.owner = null;
    this.wake();
  }

  private open(
    who: { seat: string } | { owner: string },
    signer: Signer,
    onError: (error: TrestleError) => void,
  ): Held {
    const held = this.client.tracker.held;
    const socket = this.client.socket({
      ...who,
      signer,
      ...(held ? { anchor: { seq: held.seq, link: held.link } } : {}),
      handlers: { onEntries: () => this.pushed() },
    });
    void socket.ended.then((end) => {
      if (end.reason === "error") onError(end.error);
    });
    return { socket, started: socket.start() };
  }

  private pushed(): void {
    this.pushes += 1;
    this.wake();
    for (const listener of [...this.listeners]) listener();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
