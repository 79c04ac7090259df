/**
 * One table in the principal window: an owner session (docs/SPEC.md §6.3, client/socket.ts) that
 * verifies every pushed entry's chain and every head against the pinned relay key and the held
 * head, the policy's fold of those entries (§3), and a verification of everything followed (§8.2),
 * run again after new entries (at most one run at a time). While it is open the relay counts the
 * owner as somebody who can answer approvals (§5.6). A session the relay refuses for good
 * (refusal.ts) or that catches the relay (E_FORK, with evidence kept) stops; one that cannot
 * connect at all is tried again with backoff. In an end-to-end encrypted room the sealed texts of
 * each batch are opened (room-texts.ts) before its entries are shown, one batch at a time, in order.
 */
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  systemRandom,
  type Evidence,
  type TableClient,
  type TableSocket,
} from "../client/index.js";
import {
  applyEntry,
  httpStatusOf,
  isEntry,
  openedState,
  TrestleError,
  type Entry,
  type HiddenEntry,
  type SignedHead,
  type Signer,
  type TableState,
  type VerifyReport,
} from "../protocol/index.js";
import { entryView } from "./entry-view.js";
import { RoomTexts } from "./room-texts.js";
import { ownsTable, tableSummary } from "./summary.js";
import type { EntryView, SessionStatus, TableSummary } from "./wire.js";

/** The owner this window speaks for. */
export interface Identity {
  name: string;
  signer: Signer;
}

/** What a watch reports. */
export interface WatchSink {
  /** The summary changed; `added` are new transcript entries (with `reset`, the whole transcript). */
  changed(watch: TableWatch, added: EntryView[], reset: boolean): void;
  /** The session caught the relay forking or truncating; the evidence is kept in the head store. */
  caught(evidence: Evidence): void;
  /** A sub-table that lists this owner (with this key) was opened here. */
  subtable(table: string): void;
}

/** Codes after which connecting again is pointless: refusals, and a relay caught or not the pinned one. */
const FINAL: ReadonlySet<string> = new Set(["E_FORK", "E_RELAY_KEY"]);

/** A live, verified owner session to one table, folded for the window. */
export class TableWatch {
  private items: (Entry | HiddenEntry)[] = [];
  private views: EntryView[] = [];
  private state: TableState | null = null;
  private head: SignedHead | null = null;
  private status: SessionStatus = "connecting";
  private problem: TrestleError | null = null;
  private report: VerifyReport | null = null;
  private socket: TableSocket | null = null;
  private closed = false;
  private dirty = false;
  private verifying = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | null = null;
  /** Batches are shown one after another: each waits for the one before (and for its texts to open). */
  private batches: Promise<void> = Promise.resolve();
  /** Counts new sessions: a batch of an earlier one is dropped. */
  private session = 0;
  /** The room's sealed texts, opened with this home's room key. */
  readonly texts: RoomTexts;

  constructor(
    readonly client: TableClient,
    private readonly me: Identity,
    private readonly sink: WatchSink,
    home: string,
  ) {
    this.texts = new RoomTexts(home, client.table);
  }

  /** The table state folded so far (null before the table's opening entry). */
  get folded(): TableState | null {
    return this.state;
  }

  /** The table's id. */
  get table(): string {
    return this.client.table;
  }

  /** Opens the session (and keeps it open until `close`). */
  start(): void {
    void this.run();
  }

  /** The summary as of now. */
  summary(): TableSummary {
    const entries = this.entries();
    const problem = this.problem ? { code: this.problem.code, message: this.problem.message } : null;
    // Before the session reached a head (or when it caught the relay first), the head this home holds.
    const head = this.head ?? this.client.tracker.held;
    return tableSummary({
      table: this.table,
      me: this.me.name,
      state: this.state,
      items: entries,
      status: this.status,
      problem,
      head,
      report: this.report,
    });
  }

  /** Every entry followed so far, verified as the summary's verification says, entry 1 first. */
  entries(): Entry[] {
    return this.items.filter(isEntry);
  }

  /** Every transcript entry so far. */
  transcript(): EntryView[] {
    return [...this.views];
  }

  /** Ends the session. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.wake?.();
    this.socket?.close();
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt += 1) {
      const socket = this.client.socket({
        owner: this.me.name,
        signer: this.me.signer,
        handlers: {
          onEntries: (items, head) => this.queue(items, head),
          onStatus: (status) => {
            if (status === "open" || status === "reconnecting")
              this.setStatus(status === "open" ? "live" : "reconnecting", null);
          },
          onEvidence: (evidence) => this.sink.caught(evidence),
        },
      });
      this.socket = socket;
      this.restart();
      await socket.start().catch(() => undefined); // the same error ends the session; `ended` reports it
      const end = await socket.ended;
      if (this.closed || end.reason === "closed") return;
      const { error } = end;
      if (FINAL.has(error.code)) return this.stop(error.code === "E_FORK" ? "caught" : "refused", error);
      const status = httpStatusOf(error.code);
      if (status < 500 && status !== 429) return this.stop("refused", error);
      this.setStatus("unreachable", error);
      await this.pause(backoffDelay(attempt, DEFAULT_BACKOFF, systemRandom));
    }
  }

  /** A new session starts from entry 1: what the page holds is replaced. */
  private restart(): void {
    this.session += 1;
    if (this.items.length === 0) return;
    this.items = [];
    this.views = [];
    this.state = null;
    this.head = null;
    this.sink.changed(this, [], true);
  }

  /** Shows a pushed batch after the ones before it, once its sealed texts are opened; a batch of an earlier session is dropped. */
  private queue(items: (Entry | HiddenEntry)[], head: SignedHead): void {
    const session = this.session;
    this.batches = this.batches.then(async () => {
      await this.texts.addEntries(items.filter(isEntry)).catch(() => undefined); // a text that does not open is shown as sealed
      if (session === this.session && !this.closed) this.accept(items, head);
    });
  }

  private accept(items: (Entry | HiddenEntry)[], head: SignedHead): void {
    const added: EntryView[] = [];
    for (const item of items) {
      this.items.push(item);
      if (!isEntry(item)) continue;
      this.fold(item);
      added.push(entryView(item, this.state, this.me.name, this.texts.open));
      if (
        item.kind === "system" &&
        item.subkind === "subtable_opened" &&
        ownsTable(item.data.config.owners, this.me.name, this.me.signer.publicKeyText)
      ) {
        this.sink.subtable(item.data.config.id);
      }
    }
    this.views.push(...added);
    if (head.seq <= this.items.length) this.head = head;
    this.sink.changed(this, added, false);
    this.verify();
  }

  /** The policy's fold, one entry at a time; an entry it cannot apply leaves the state where it was (verification says why). */
  private fold(entry: Entry): void {
    try {
      if (entry.kind === "system" && entry.subkind === "table_opened") this.state = openedState(entry);
      else if (this.state) applyEntry(this.state, entry);
    } catch (error) {
      this.problem = error instanceof TrestleError ? error : new TrestleError("E_BAD_RESPONSE", String(error));
    }
  }

  /** Verifies what was followed; entries arriving meanwhile mark it for one more run. */
  private verify(): void {
    this.dirty = true;
    if (this.verifying) return;
    this.verifying = true;
    void (async () => {
      while (this.dirty && !this.closed && this.head) {
        this.dirty = false;
        try {
          this.report = await this.client.verifyFollowed([...this.items], this.head);
        } catch (error) {
          // verifyLedger reports bad input rather than throwing; anything else is shown, not fatal.
          this.problem =
            error instanceof TrestleError
              ? error
              : new TrestleError("E_INTERNAL", `verification failed: ${String(error)}`);
        }
        this.sink.changed(this, [], false);
      }
      this.verifying = false;
    })();
  }

  private stop(status: SessionStatus, error: TrestleError): void {
    this.setStatus(status, error);
    if (status === "caught") this.verify();
  }

  private setStatus(status: SessionStatus, problem: TrestleError | null): void {
    this.status = status;
    this.problem = problem;
    this.sink.changed(this, [], false);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}
