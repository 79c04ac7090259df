/**
 * A WebSocket test client for the relay inside workerd: opens /tables/:id/ws through a fetch,
 * answers the challenge with a seat key, and collects server frames for assertions.
 */
import { signSocketAuth, type ServerFrame, type Signer } from "../../src/protocol/index.js";
import type { Fetch } from "./relay-http.js";

/** An open, possibly authenticated, socket with its received frames. */
export class TestSocket {
  readonly frames: ServerFrame[] = [];
  private waiters: { test: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }[] = [];
  closed: { code: number; reason: string } | null = null;
  private closeWaiters: ((closed: { code: number; reason: string }) => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as ServerFrame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.test(frame) ? (w.resolve(frame), false) : true));
    });
    ws.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      for (const resolve of this.closeWaiters.splice(0)) resolve(this.closed);
    });
  }

  /** Resolves with the close code and reason once the relay closed the socket (at once if it already did). */
  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  /** Opens /tables/:table/<route> (the seat socket `ws`, or `public/ws?after=N`). */
  static async open(fetch: Fetch, table: string, route = "ws"): Promise<TestSocket> {
    const res = await fetch(`https://relay.test/tables/${table}/${route}`, { headers: { upgrade: "websocket" } });
    const ws = (res as Response & { webSocket: WebSocket | null }).webSocket;
    if (!ws) throw new Error(`no websocket: ${res.status} ${await res.text()}`);
    ws.accept();
    return new TestSocket(ws);
  }

  /** Resolves with the first frame (already received or future) that passes `test`. */
  next<T extends ServerFrame["type"]>(type: T, test: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true) {
    const match = (f: ServerFrame) => f.type === type && test(f as Extract<ServerFrame, { type: T }>);
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen as Extract<ServerFrame, { type: T }>);
    return new Promise<Extract<ServerFrame, { type: T }>>((resolve) => {
      this.waiters.push({ test: match, resolve: resolve as (f: ServerFrame) => void });
    });
  }

  /** Sends the challenge answer as `seat`, signed with `key`. */
  async answer(table: string, seat: string, key: Signer, cursor?: number): Promise<void> {
    const challenge = await this.next("challenge");
    const sig = await signSocketAuth(key, { scope: "ws", table, seat, challenge: challenge.challenge });
    this.send({ type: "auth", seat, sig, ...(cursor === undefined ? {} : { cursor }) });
  }

  /** Answers the challenge as `seat`; resolves with the welcome frame. */
  async auth(table: string, seat: string, key: Signer, cursor?: number) {
    await this.answer(table, seat, key, cursor);
    return this.next("welcome");
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Seqs of every entry received so far, in arrival order. */
  seqs(): number[] {
    return this.frames.flatMap((f) => (f.type === "entries" ? f.items.map((i) => i.seq) : []));
  }

  /** Waits until an entry with `seq` has arrived. */
  async until(seq: number): Promise<void> {
    if (this.seqs().includes(seq)) return;
    await this.next("entries", (f) => f.items.some((i) => i.seq === seq));
  }
}
