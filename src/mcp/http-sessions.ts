/**
 * The MCP sessions one `trestle mcp --http` holds (docs/MCP.md "Over HTTP"): at most `max` at
 * once, so an initialize past that is refused rather than holding more relay sockets and owner
 * sessions without bound; and each session closed once it has gone `idleMs` with no request open
 * (no call answered, no stream held), so a client that went away without a DELETE frees its slot.
 * A closed session's client gets 404 for it and initializes again, as the MCP transport says.
 */
import type { ServerResponse } from "node:http";

/** How many sessions may be open at once, and how long one may sit with no request open. */
export interface SessionLimits {
  max: number;
  idleMs: number;
}

/** The defaults: a few agents' sessions on one machine, and half an hour without a call or a stream. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { max: 16, idleMs: 30 * 60_000 };

/** What the table closes: a session's transport. */
interface Closable {
  close(): Promise<void>;
}

interface Held<T extends Closable> {
  transport: T;
  /** Requests of this session whose response is still open (a call, a stream). */
  open: number;
  timer: NodeJS.Timeout | undefined;
}

/** The open sessions by Mcp-Session-Id, with their idle timers. */
export class HttpSessions<T extends Closable> {
  private readonly held = new Map<string, Held<T>>();
  private opening = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly closedIdle: (id: string) => void,
  ) {}

  /** Whether an initialize must be refused: `max` sessions are open or opening. */
  get full(): boolean {
    return this.held.size + this.opening >= this.limits.max;
  }

  /** Runs `initialize` (which opens a session and answers its initialize) counted against `max` while it runs. */
  async opened(initialize: () => Promise<void>): Promise<void> {
    this.opening += 1;
    try {
      await initialize();
    } finally {
      this.opening -= 1;
    }
  }

  /** Adds the session `id` (its initialize answered); it is idle from now. */
  add(id: string, transport: T): void {
    const held: Held<T> = { transport, open: 0, timer: undefined };
    this.held.set(id, held);
    this.idleFrom(id, held);
  }

  /** The session `id`'s transport, counting `res` as open on it until it closes; undefined when there is no such session. */
  serving(id: string, res: ServerResponse): T | undefined {
    const held = this.held.get(id);
    if (!held) return undefined;
    held.open += 1;
    clearTimeout(held.timer);
    res.once("close", () => {
      held.open -= 1;
      if (held.open === 0 && this.held.get(id) === held) this.idleFrom(id, held);
    });
    return held.transport;
  }

  /** Forgets the session `id` (its transport closed: a DELETE, the idle timer, or the shutdown). */
  remove(id: string): void {
    clearTimeout(this.held.get(id)?.timer);
    this.held.delete(id);
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const all = [...this.held.values()];
    for (const held of all) clearTimeout(held.timer);
    await Promise.allSettled(all.map((held) => held.transport.close()));
  }

  /** Starts `held`'s idle timer: at its end the session is closed and `closedIdle` told. */
  private idleFrom(id: string, held: Held<T>): void {
    clearTimeout(held.timer);
    held.timer = setTimeout(() => {
      this.remove(id);
      void held.transport.close().finally(() => this.closedIdle(id));
    }, this.limits.idleMs);
    held.timer.unref();
  }
}
