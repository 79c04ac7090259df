/**
 * The principal window's state on the owner's machine: the owner key, one verified owner session
 * per table (table-watch.ts), the evidence this home keeps against the relay and the owner's
 * notification channels (window-reads.ts). It turns all of it into the page's events (wire.ts) and
 * signs the page's actions with the owner key, exactly as the CLI does: an approval, a revocation
 * and an answer to a message the commitment gate holds (window-actions.ts), a pause or resume
 * through OwnerClient.control, and the owner in the loop (table-reads.ts, owner-loop.ts): its seats'
 * questions with the answers it signs, its instructions to them, and the room's deals it signs; and
 * its markets (markets.ts): its listings, its matches with their rooms (entering one as `trestle
 * market room` does) and its allowance across them (reconciled as `trestle allowance reconcile`).
 * The tables followed are those named at start, every table this home holds a head for at this
 * relay (looked at again every `pollMs`, with the evidence, the seats' private journals and the
 * channels), and each sub-table opened at one of them that lists this owner.
 */
import {
  FileHeadStore,
  openOwner,
  openTable,
  pinRelay,
  PinStore,
  systemClock,
  type Clock,
  type Evidence,
  type HttpClient,
  type OwnerClient,
} from "../client/node.js";
import { TrestleError } from "../protocol/index.js";
import { JournalReader } from "./journal-reader.js";
import { heldWords } from "./held-words.js";
import { enterRoom, reconcile, readMarket, type MarketContext } from "./markets.js";
import { answer, instruct, readLoop, signDealHere, type LoopContext } from "./owner-loop.js";
import { TableReads } from "./table-reads.js";
import { TableWatch, type Identity, type WatchSink } from "./table-watch.js";
import { answerGate, approveTask, revokeOwnSeat } from "./window-actions.js";
import { channelsEvent, evidenceViews } from "./window-reads.js";
import type {
  ActionResult,
  AnswerBody,
  ApproveBody,
  ControlBody,
  DealBody,
  GateBody,
  GateResult,
  InstructBody,
  LoopEvent,
  LoopResult,
  MarketEvent,
  MarketRoomBody,
  ReconcileBody,
  RevokeBody,
  SessionStatus,
  ViewEvent,
} from "./wire.js";

/** What the window is opened with. */
export interface OwnerWindowOptions {
  relay: HttpClient;
  home: string;
  owner: Identity;
  /** Tables to follow besides those the home holds heads for. */
  tables?: readonly string[];
  clock?: Clock;
  /** How often the home (new tables, evidence) and the channels are read again; default 15 s. */
  pollMs?: number;
  /** Called once when the relay was pinned just now (first use). */
  onFirstUse?(url: string, relayKey: string): void;
}

/** A listener of the page's events. */
export type ViewListener = (event: ViewEvent) => void;

/** Session states in which the table's seats are still to come. */
const LEARNING: ReadonlySet<SessionStatus> = new Set(["connecting", "live", "reconnecting"]);

/** The events a new page gets the latest of. */
type Kept = "channels" | "evidence" | "local";

/** The owner's window onto every table they have at one relay. */
export class OwnerWindow implements WatchSink {
  private readonly watches = new Map<string, TableWatch>();
  private readonly opening = new Set<string>();
  private readonly listeners = new Set<ViewListener>();
  private readonly store: FileHeadStore;
  private readonly clock: Clock;
  private readonly journals: JournalReader;
  private readonly loops: TableReads<LoopEvent>;
  private readonly markets: TableReads<MarketEvent>;
  private readonly loopCtx: LoopContext;
  private readonly marketCtx: MarketContext;
  private last: Record<Kept, ViewEvent | null> = { channels: null, evidence: null, local: null };
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private journalReads: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: OwnerWindowOptions,
    readonly relayKey: string,
    private readonly owners: OwnerClient,
  ) {
    this.clock = options.clock ?? systemClock;
    this.store = new FileHeadStore(options.home, this.clock);
    this.journals = new JournalReader(options.home);
    this.loopCtx = { home: options.home, owner: options.owner, clock: this.clock };
    this.marketCtx = { ...this.loopCtx, relay: options.relay, watchOf: (table) => this.watches.get(table) };
    this.loops = new TableReads(
      (watch) => readLoop(this.loopCtx, watch),
      (event) => this.emit(event),
    );
    this.markets = new TableReads(
      (watch) => readMarket(this.marketCtx, watch),
      (event) => this.emit(event),
    );
  }

  /** Pins the relay (trust on first use, as every command does), opens every table's session and starts reading the home and channels. */
  static async open(options: OwnerWindowOptions): Promise<OwnerWindow> {
    const clock = options.clock ?? systemClock;
    const { relayKey, firstUse } = await pinRelay(options.relay, new PinStore(options.home), clock);
    if (firstUse) options.onFirstUse?.(options.relay.url, relayKey);
    const owners = await openOwner({ relay: options.relay, signer: options.owner.signer, home: options.home, clock });
    const principal = new OwnerWindow(options, relayKey, owners);
    await principal.refresh();
    principal.timer = setInterval(() => void principal.refresh(), options.pollMs ?? 15_000);
    return principal;
  }

  /** Sends `listener` everything as of now, then every change; returns the unsubscribe. */
  subscribe(listener: ViewListener): () => void {
    const { name, signer } = this.options.owner;
    listener({
      type: "hello",
      owner: name,
      owner_key: signer.publicKeyText,
      relay: this.options.relay.url,
      relay_key: this.relayKey,
    });
    for (const watch of this.watches.values()) {
      listener({ type: "table", summary: watch.summary() });
      listener({ type: "entries", table: watch.table, reset: true, items: watch.transcript() });
    }
    for (const event of Object.values(this.last)) if (event) listener(event);
    for (const event of this.loops.events()) listener(event);
    for (const event of this.markets.events()) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Signs `verdict` on this owner's task with the owner key, over the proposal read from the verified ledger (as `trestle approve`). */
  async approve({ table, ...body }: ApproveBody): Promise<ActionResult> {
    return approveTask(this.options.owner, this.followed(table), body).catch((error: unknown) => this.caughtBy(error));
  }

  /** Signs a pause of `table` as this owner, or lifts this owner's own pause (as the MCP `close` tool does). */
  async control({ table, action }: ControlBody): Promise<ActionResult> {
    this.followed(table);
    const me = this.options.owner.name;
    const { seq } = await this.owners.control(table, me, action);
    return {
      ok: true,
      seq,
      message: `${action === "pause" ? `table ${table} paused` : `${me}'s pause on table ${table} lifted`} with ${me}'s key (entry #${seq})`,
    };
  }

  /**
   * Signs a revocation of `seat` at `table` with the owner key, over the key the verified ledger
   * says holds it (as `trestle revoke`); a seat that is not this owner's is refused before sending.
   */
  async revoke({ table, seat }: RevokeBody): Promise<ActionResult> {
    return revokeOwnSeat(this.options.owner, this.followed(table), seat).catch((error: unknown) =>
      this.caughtBy(error),
    );
  }

  /**
   * Signs this owner's answer to held message `message_sha256` of `seat`, one of this owner's seats by
   * the table's ledger, into the seat's journal (as `trestle gate approve|reject`: the same
   * answerHeld, over the transcript read and verified as this owner). It sends nothing: the seat does.
   */
  async gate({ table, ...body }: GateBody): Promise<GateResult> {
    const result = await answerGate(this.loopCtx, this.followed(table), body);
    await this.readJournals();
    return result;
  }

  /** Signs this owner's answer to one of its seats' questions with the owner key and sends it (as `trestle answer`). */
  async answer(body: AnswerBody): Promise<LoopResult> {
    return this.inLoop(body.table, (watch) => answer(this.loopCtx, watch, body));
  }

  /** Signs an instruction to one of this owner's seats with the owner key and sends it (as `trestle instruct`). */
  async instruct({ table, seat, text }: InstructBody): Promise<LoopResult> {
    return this.inLoop(table, (watch) => instruct(this.loopCtx, watch, seat, text));
  }

  /** Signs the deal on an accepted offer with the owner key; this owner's seat in it records the signature (as `trestle deal sign`). */
  async deal({ table, offer }: DealBody): Promise<LoopResult> {
    return this.inLoop(table, (watch) =>
      signDealHere(this.loopCtx, watch, offer).catch((error: unknown) => this.caughtBy(error)),
    );
  }

  /**
   * Opens the room of this owner's match `match` in market `table`, or enters the one the other side
   * opened, seating its bot there with its market seat's mandate carried (as `trestle market room`),
   * and follows the room from then on.
   */
  async enterRoom({ table, match }: MarketRoomBody): Promise<LoopResult> {
    const watch = this.followed(table);
    const { room, message } = await enterRoom(this.marketCtx, watch, match).catch((error: unknown) =>
      this.caughtBy(error),
    );
    await this.follow(room);
    await this.markets.read(watch);
    return { ok: true, message };
  }

  /** Brings this owner's allowance in market `table` up to date from its rooms' verified ledgers (as `trestle allowance reconcile`). */
  async reconcile({ table }: ReconcileBody): Promise<LoopResult> {
    const watch = this.followed(table);
    const message = await reconcile(this.marketCtx, watch);
    await this.markets.read(watch);
    return { ok: true, message };
  }

  /** Ends every session and stops reading the home. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const watch of this.watches.values()) watch.close();
    this.listeners.clear();
  }

  changed(watch: TableWatch, added: Parameters<WatchSink["changed"]>[1], reset: boolean): void {
    this.emit({ type: "table", summary: watch.summary() });
    if (reset || added.length > 0) this.emit({ type: "entries", table: watch.table, reset, items: added });
    // New entries may seat this owner (or say whose a seat is, or show the offer a held accept answers): its journals are read again (cheap while unchanged).
    if (added.length > 0) {
      void this.readJournals();
      void this.loops.read(watch);
      void this.readMarketOf(watch);
    }
  }

  caught(_evidence: Evidence): void {
    this.readEvidence();
  }

  subtable(table: string): void {
    void this.follow(table);
  }

  /** Reads again the market `watch` follows, or the market whose match room it follows (its deals and state show there). */
  private readMarketOf(watch: TableWatch): Promise<void> {
    const market = watch.folded?.config.room?.match?.market;
    const marketWatch = market === undefined ? watch : this.watches.get(market);
    return marketWatch ? this.markets.read(marketWatch) : Promise.resolve();
  }

  /** Runs `act` at followed table `table`, then reads its owner loop again (the page shows the outcome there too). */
  private async inLoop(table: string, act: (watch: TableWatch) => Promise<string>): Promise<LoopResult> {
    const watch = this.followed(table);
    const message = await act(watch);
    await Promise.all([this.loops.read(watch), this.readMarketOf(watch)]);
    return { ok: true, message };
  }

  /** Rethrows `error`; reading the ledger before signing may catch the relay, and the banner then shows it now, not at the next poll. */
  private caughtBy(error: unknown): never {
    if (error instanceof TrestleError && error.code === "E_FORK") this.readEvidence();
    throw error;
  }

  private followed(table: string): TableWatch {
    const watch = this.watches.get(table);
    if (!watch) throw new TrestleError("E_TABLE_NOT_FOUND", `this window does not follow table ${table}`);
    return watch;
  }

  /** Reads the home again: new tables, evidence, and the channels. */
  private async refresh(): Promise<void> {
    const evidence = this.readEvidence();
    const tables = new Set([...(this.options.tables ?? []), ...this.store.tables(this.relayKey), ...evidence]);
    await Promise.all([...tables].map((table) => this.follow(table)));
    await this.readJournals();
    await Promise.all([...this.watches.values()].map((watch) => this.loops.read(watch)));
    await Promise.all([...this.watches.values()].map((watch) => this.markets.read(watch)));
    await this.readChannels();
  }

  /** Reads the journals again after any read under way (reads run one at a time, in order). */
  private readJournals(): Promise<void> {
    this.journalReads = this.journalReads.then(() => this.readJournalsNow()).catch(() => undefined);
    return this.journalReads;
  }

  /**
   * Emits what this owner's seats kept on this machine, when it changed: only seats the table's
   * ledger gives this owner, or, where the session cannot read the ledger (caught, refused, down),
   * every seat with a journal there. A held message is shown by what it binds (heldWords).
   */
  private async readJournalsNow(): Promise<void> {
    const me = this.options.owner.name;
    const summaries = new Map([...this.watches].map(([table, watch]) => [table, watch.summary()]));
    const mine = (table: string, seat: string) => {
      const summary = summaries.get(table);
      if (!summary) return false;
      if (summary.seats.length === 0) return !LEARNING.has(summary.status);
      return summary.seats.some((s) => s.name === seat && s.owner === me);
    };
    const { items, unreadable } = await this.journals.read(summaries.keys(), mine, (table, held, records) =>
      heldWords(this.watches.get(table), held, records),
    );
    this.remember("local", { type: "local", items, unreadable });
  }

  private async follow(table: string): Promise<void> {
    if (this.closed || this.watches.has(table) || this.opening.has(table)) return;
    this.opening.add(table);
    try {
      const { relay, home } = this.options;
      const client = await openTable({ relay, table, home, clock: this.clock });
      if (this.closed) return;
      const watch = new TableWatch(client, this.options.owner, this, home);
      this.watches.set(table, watch);
      this.emit({ type: "table", summary: watch.summary() });
      watch.start();
    } catch {
      // The relay cannot be reached now: the next refresh tries again.
    } finally {
      this.opening.delete(table);
    }
  }

  /** Emits the evidence kept for this relay when it changed; returns the tables it names. */
  private readEvidence(): string[] {
    const items = evidenceViews(this.store, this.relayKey);
    this.remember("evidence", { type: "evidence", items });
    return [...new Set(items.map((item) => item.table).filter((table) => table !== "?"))];
  }

  private async readChannels(): Promise<void> {
    this.remember("channels", await channelsEvent(this.owners));
  }

  /** Keeps `event` as the latest of its kind and emits it when it differs from the one before. */
  private remember(kind: Kept, event: ViewEvent): void {
    if (JSON.stringify(this.last[kind]) === JSON.stringify(event)) return;
    this.last[kind] = event;
    this.emit(event);
  }

  private emit(event: ViewEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
