/**
 * One table as a client sees it over HTTP: the relay's routes (http.ts) with every returned head
 * judged by a HeadTracker pinned to the relay key, history read with its chain verified from entry
 * 1, and writes that carry the newest verified head as `known_head`. Keys are passed per call, so
 * one TableClient serves an owner and any of their seats.
 */
import {
  approvalStatementFor,
  isEntry,
  LIMITS,
  parseExport,
  signApproval,
  TrestleError,
  signCreate,
  signJoin,
  signSubmission,
  type ApprovalVerdict,
  type ApproveResponse,
  type CapabilityCard,
  type CreateResponse,
  type DistributiveOmit,
  type Entry,
  type HiddenEntry,
  type JoinResponse,
  type JoinStatement,
  type Projection,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type SubmitResponse,
  type TaskState,
  type TableConfig,
  type VerifyReport,
} from "../protocol/index.js";
import { signSubtable } from "../protocol/subtables.js";
import { ChainFollower } from "./follow.js";
import { HeadTracker, type HeadStore } from "./heads.js";
import type { HttpClient, Reader } from "./http.js";
import { randomNonce } from "./random.js";
import { TableSocket, type SeatSubmission, type TableSocketOptions } from "./socket.js";
import { verifyExportText } from "./verify.js";

/** Options for a TableClient. */
export interface TableClientOptions {
  http: HttpClient;
  table: string;
  /** The pinned relay key (pins.ts `pinRelay`, or known out of band). */
  relayKey: string;
  /** Keeps the newest verified head between runs. */
  store?: HeadStore;
  /** The relay's published ledger limit (pins.ts `Pinned.maxEntries`), for the policy replay of verification; default LIMITS.entries. */
  maxEntries?: number;
}

/** A proposal or decision entry: the kinds whose effects open tasks. */
export type ProposalEntry = Extract<Entry, { kind: "proposal" | "decision" }>;

/** A request entry (docs/SPEC.md §5.7): what a response answers. */
export type RequestEntry = Extract<Entry, { kind: "request" }>;

/** History as read: verified items and the head they chain to. */
export interface History {
  items: (Entry | HiddenEntry)[];
  head: SignedHead;
}

/** A table over HTTP, with heads and chains verified. */
export class TableClient {
  readonly http: HttpClient;
  readonly table: string;
  readonly tracker: HeadTracker;
  private readonly maxEntries: number | undefined;

  private constructor(options: TableClientOptions) {
    this.http = options.http;
    this.table = options.table;
    this.tracker = new HeadTracker(options.relayKey, options.table, options.store);
    this.maxEntries = options.maxEntries;
  }

  /** A client for `table`, with the stored head (if any) loaded and re-verified. */
  static async open(options: TableClientOptions): Promise<TableClient> {
    const client = new TableClient(options);
    await client.tracker.load();
    return client;
  }

  /**
   * A live socket to this table, a seat's or an owner session's (socket.ts), judged by this
   * client's head tracker: pushes and HTTP reads of the table check one chain and one newest head.
   */
  socket(options: DistributiveOmit<TableSocketOptions, "url" | "table" | "tracker">): TableSocket {
    return new TableSocket({ ...options, url: this.http.socketUrl(this.table), table: this.table, tracker: this.tracker });
  }

  /** Creates the table from `config` (its id must be this table), signed by owner `owner`. */
  async create(ownerSigner: Signer, owner: string, config: TableConfig): Promise<CreateResponse> {
    const since = this.tracker.held;
    const response = await this.http.createTable(await signCreate(ownerSigner, config, owner));
    await this.tracker.observe(response.head, since);
    return response;
  }

  /**
   * Seats `seat` with `seatKey` (a public key), signed by its owner; the signed join is valid until
   * `expires`. With `configSha256` (canonicalSha256 of the table's config) the owner also signs the
   * config, so their own `auto_approve` and `chat_approve` rules in it count (docs/SPEC.md §4.2).
   */
  async join(
    ownerSigner: Signer,
    fields: { seat: string; owner: string; seatKey: string; human?: boolean; card: CapabilityCard; expires: number; configSha256?: string },
  ): Promise<JoinResponse> {
    const statement: Omit<JoinStatement, "card_sha256"> = {
      table: this.table,
      seat: fields.seat,
      owner: fields.owner,
      seat_key: fields.seatKey,
      human: fields.human ?? false,
      nonce: randomNonce(),
      expires: fields.expires,
      ...(fields.configSha256 === undefined ? {} : { config_sha256: fields.configSha256 }),
    };
    const since = this.tracker.held;
    const response = await this.http.join(this.table, await signJoin(ownerSigner, statement, fields.card));
    await this.tracker.observe(response.head, since);
    return response;
  }

  /** Signs and submits as `seat`, with a fresh nonce and the newest verified head as `known_head`. */
  async submit(seatSigner: Signer, seat: string, input: SeatSubmission): Promise<SubmitResponse> {
    const submission = { ...input, table: this.table, seat, nonce: randomNonce() } as SubmissionInput;
    const since = this.tracker.held;
    const request = await signSubmission(seatSigner, submission, this.tracker.knownHead());
    const response = await this.http.submit(this.table, request);
    await this.tracker.observe(response.head, since);
    return response;
  }

  /**
   * Opens a sub-table of this table (docs/SPEC.md §5.9) from `config` (its `parent` must be this
   * table), signed by `seat`'s key. The answer carries the child's head: judge it with a
   * TableClient of the child (`child.tracker.observe(head)`), not with this one.
   */
  async openSubtable(seatSigner: Signer, seat: string, config: TableConfig): Promise<CreateResponse> {
    if (config.parent !== this.table) throw new TrestleError("E_SCHEMA", `config.parent must be "${this.table}", the table the sub-table is opened from`);
    return this.http.openSubtable(this.table, await signSubtable(seatSigner, config, seat));
  }

  /** The request `requestId` as `reader` reads it, from the verified history (E_UNKNOWN_REQUEST when it cannot be seen there). */
  async request(reader: Reader, requestId: string): Promise<RequestEntry> {
    const { items } = await this.history(reader);
    const entry = items.find((item): item is RequestEntry => isEntry(item) && item.kind === "request" && item.request_id === requestId);
    if (!entry) throw new TrestleError("E_UNKNOWN_REQUEST", `no request "${requestId}" that ${"seat" in reader.as ? `seat ${reader.as.seat}` : `owner ${reader.as.owner}`} can read at table ${this.table}`);
    return entry;
  }

  /**
   * Approves or rejects `owner`'s task opened by the proposal or decision at `proposalSeq`. The
   * entry is read (as the owner) and its chain verified first, so the owner signs over exactly the
   * effects the ledger holds, never over what someone said the proposal was.
   */
  async approve(ownerSigner: Signer, owner: string, proposalSeq: number, verdict: ApprovalVerdict): Promise<ApproveResponse> {
    return this.answer(ownerSigner, owner, await this.proposal(ownerSigner, owner, proposalSeq), verdict);
  }

  /** The proposal or decision with effects at `seq`, read as `owner` with its chain verified (E_UNKNOWN_TASK when there is none). */
  async proposal(ownerSigner: Signer, owner: string, seq: number): Promise<ProposalEntry> {
    const { items } = await this.history({ signer: ownerSigner, as: { owner } });
    const entry = items.find((item): item is Entry => item.seq === seq && isEntry(item));
    if (!entry) throw new TrestleError("E_UNKNOWN_TASK", `no entry ${seq} at table ${this.table}`);
    if ((entry.kind !== "proposal" && entry.kind !== "decision") || !entry.effects) {
      throw new TrestleError("E_UNKNOWN_TASK", `entry ${seq} at table ${this.table} is not a proposal or decision with effects`);
    }
    return entry;
  }

  /**
   * Signs `verdict` on `owner`'s task opened by `proposal`, an entry read with `proposal()` (so
   * from the verified ledger): the signature covers exactly the effects it holds for `owner`, the
   * ones a caller that asks a person first has just shown them.
   */
  async answer(ownerSigner: Signer, owner: string, proposal: ProposalEntry, verdict: ApprovalVerdict): Promise<ApproveResponse> {
    const statement = approvalStatementFor(proposal, owner, { verdict, nonce: randomNonce() });
    const since = this.tracker.held;
    const response = await this.http.approve(this.table, await signApproval(ownerSigner, owner, statement));
    await this.tracker.observe(response.head, since);
    return response;
  }

  /** Every task of the table in opening order (all pages), read as a seat or owner. */
  async tasks(reader: Reader): Promise<TaskState[]> {
    const all: TaskState[] = [];
    let after = 0;
    for (;;) {
      const page = await this.http.tasks(this.table, reader, after);
      all.push(...page.items);
      if (page.next === null) return all;
      after = page.next;
    }
  }

  /** The relay's current head, verified and kept (a head older than the one held is truncation). */
  async head(): Promise<SignedHead> {
    const since = this.tracker.held;
    const head = await this.http.head(this.table);
    await this.tracker.observe(head, since);
    return head;
  }

  /** The seat's projection after `after`, every tail page joined. */
  async projection(reader: Reader, after = 0): Promise<Projection> {
    let projection = await this.http.projection(this.table, reader, after);
    while (projection.more) {
      const next = await this.http.projection(this.table, reader, projection.cursor);
      projection = { ...next, tail: [...projection.tail, ...next.tail] };
    }
    return projection;
  }

  /** The whole ledger as `reader` may see it, chain verified from entry 1 up to a signed head. */
  async history(reader: Reader): Promise<History> {
    const follower = new ChainFollower(this.tracker);
    const items: (Entry | HiddenEntry)[] = [];
    const since = this.tracker.held;
    let from = 1;
    for (;;) {
      const page = await this.http.entries(this.table, reader, from, from + LIMITS.page - 1);
      items.push(...follower.accept(page.items));
      follower.checkHead(page.head);
      await this.tracker.observe(page.head, since);
      if (follower.position.seq >= page.head.seq) return { items, head: page.head };
      if (page.items.length === 0) throw new TrestleError("E_BAD_RESPONSE", `the relay's head is at ${page.head.seq} but it sent no entry ${from}`);
      from = follower.position.seq + 1;
    }
  }

  /** The export text and its verification against the pinned key and every head this client holds. */
  async exportLedger(reader: Reader): Promise<{ text: string; report: VerifyReport }> {
    const text = await this.http.exportText(this.table, reader);
    const held = this.tracker.held;
    const report = await verifyExportText(text, { relayKey: this.tracker.relayKey, held: held ? [held] : [], maxEntries: this.maxEntries });
    const parsed = parseExport(text);
    if (report.verdict !== "REFUTED" && parsed.ok) for (const head of parsed.view.heads) await this.tracker.observe(head, held);
    return { text, report };
  }
}
