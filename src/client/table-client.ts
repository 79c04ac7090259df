/**
 * One table as a client sees it over HTTP: the relay's routes (http.ts) with every returned head
 * judged by a HeadTracker pinned to the relay key (heads.ts). After any call that returns a head
 * newer than the held one, the entries in between are read and chained from the held head
 * (`catchUp`), so the head is adopted only once verified, and a relay that forked behind the
 * client's back is caught on the next read or write (docs/SPEC.md §8.3). Writes carry the held
 * head as `known_head`. Evidence, once found, makes every later call fail with E_FORK and every
 * verification REFUTED until the owner clears it. A table this home holds at another relay and
 * meets here for the first time is followed first (follow-custody.ts): nothing is adopted from
 * this relay until its ledger shows the table was handed over by its owners. Keys are passed per
 * call, so one TableClient serves an owner and any of their seats.
 */
import {
  approvalStatementFor,
  isEntry,
  LIMITS,
  parseExport,
  custodySpans,
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
  type ErrorCode,
  type Entry,
  type HiddenEntry,
  type JoinResponse,
  type JoinStatement,
  type ParsedExport,
  type ProjectionResponse,
  type SignedHead,
  type Signer,
  type SubmissionInput,
  type SubmitResponse,
  type TaskState,
  type TableConfig,
  type VerifyReport,
} from "../protocol/index.js";
import { signSubtable } from "../protocol/requests/subtables.js";
import { ChainFollower, GENESIS } from "./follow.js";
import { HeadTracker, type HeadStore } from "./heads.js";
import type { HttpClient, Reader } from "./http.js";
import { randomNonce } from "./random.js";
import { TableSocket, type SeatSubmission, type TableSocketOptions } from "./socket.js";
import { verifyExportText, verifyHeldView } from "./verify.js";
import { followCustody, mirrorHolder, verifyMirrored, type Exported } from "./follow-custody.js";

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

/** Refusals of a read that mean the reader may not read (any more), not that the relay misbehaved. */
const LOST_READ: ReadonlySet<ErrorCode> = new Set(["E_UNKNOWN_SEAT", "E_FORBIDDEN", "E_AUTH", "E_NOT_OWNER"]);

/** A table over HTTP, with heads and chains verified. */
export class TableClient {
  readonly http: HttpClient;
  readonly table: string;
  readonly tracker: HeadTracker;
  /** The relay's published ledger limit the policy replay of a verification judges with (undefined: LIMITS.entries). */
  readonly maxEntries: number | undefined;

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
    return new TableSocket({
      ...options,
      url: this.http.socketUrl(this.table),
      table: this.table,
      tracker: this.tracker,
    });
  }

  /** Creates the table from `config` (its id must be this table), signed by owner `owner`. */
  async create(ownerSigner: Signer, owner: string, config: TableConfig): Promise<CreateResponse> {
    await this.tracker.checkClean();
    this.tracker.startFresh();
    const since = this.tracker.held;
    const response = await this.http.createTable(await signCreate(ownerSigner, config, owner));
    await this.settle(response.head, since, { signer: ownerSigner, as: { owner } });
    return response;
  }

  /**
   * Seats `seat` with `seatKey` (a public key), signed by its owner; the signed join is valid until
   * `expires`. With `configSha256` (canonicalSha256 of the table's config) the owner also signs the
   * config, so their own `auto_approve` and `chat_approve` rules in it count (docs/SPEC.md §4.2).
   * With `newcomer` the owner is new to the table and joins with its own key (`owner_key`): naming
   * `newcomer.invite`, an invite bound to that key (a market's member, §5.15), or no invite (the
   * other side of a match, in its room).
   */
  async join(
    ownerSigner: Signer,
    fields: {
      seat: string;
      owner: string;
      seatKey: string;
      human?: boolean;
      card: CapabilityCard;
      expires: number;
      configSha256?: string;
      newcomer?: { invite?: string };
    },
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
      ...(fields.newcomer?.invite === undefined ? {} : { invite: fields.newcomer.invite }),
      ...(fields.newcomer === undefined ? {} : { owner_key: ownerSigner.publicKeyText }),
    };
    await this.ready({ signer: ownerSigner, as: { owner: fields.owner } });
    const since = this.tracker.held;
    const response = await this.http.join(this.table, await signJoin(ownerSigner, statement, fields.card));
    await this.settle(response.head, since, { signer: ownerSigner, as: { owner: fields.owner } });
    return response;
  }

  /**
   * Signs and submits as `seat`, with a fresh nonce and the held head as `known_head`. When the
   * relay answers that the held head is not on its chain (E_FORK), its head and entries are read to
   * turn that into evidence; the relay's own E_FORK is rethrown when they show nothing.
   */
  async submit(seatSigner: Signer, seat: string, input: SeatSubmission): Promise<SubmitResponse> {
    const reader: Reader = { signer: seatSigner, as: { seat } };
    await this.ready(reader);
    const submission = { ...input, table: this.table, seat, nonce: randomNonce() } as SubmissionInput;
    const since = this.tracker.held;
    const request = await signSubmission(seatSigner, submission, this.tracker.knownHead());
    const response = await this.http.submit(this.table, request).catch(async (error: unknown) => {
      if (error instanceof TrestleError && error.code === "E_FORK") {
        await this.head();
        await this.catchUp(reader);
      }
      throw error;
    });
    await this.settle(response.head, since, reader);
    return response;
  }

  /**
   * Opens a sub-table of this table (docs/SPEC.md §5.9) from `config` (its `parent` must be this
   * table), signed by `seat`'s key. The answer carries the child's head: judge it with a
   * TableClient of the child (`child.tracker.observe(head)`), not with this one.
   */
  async openSubtable(seatSigner: Signer, seat: string, config: TableConfig): Promise<CreateResponse> {
    if (config.parent !== this.table)
      throw new TrestleError(
        "E_SCHEMA",
        `config.parent must be "${this.table}", the table the sub-table is opened from`,
      );
    return this.http.openSubtable(this.table, await signSubtable(seatSigner, config, seat));
  }

  /** The request `requestId` as `reader` reads it, from the verified history (E_UNKNOWN_REQUEST when it cannot be seen there). */
  async request(reader: Reader, requestId: string): Promise<RequestEntry> {
    const { items } = await this.history(reader);
    const entry = items.find(
      (item): item is RequestEntry => isEntry(item) && item.kind === "request" && item.request_id === requestId,
    );
    if (!entry)
      throw new TrestleError(
        "E_UNKNOWN_REQUEST",
        `no request "${requestId}" that ${"seat" in reader.as ? `seat ${reader.as.seat}` : `owner ${reader.as.owner}`} can read at table ${this.table}`,
      );
    return entry;
  }

  /**
   * Approves or rejects `owner`'s task opened by the proposal or decision at `proposalSeq`. The
   * entry is read (as the owner) and its chain verified first, so the owner signs over exactly the
   * effects the ledger holds, never over what someone said the proposal was.
   */
  async approve(
    ownerSigner: Signer,
    owner: string,
    proposalSeq: number,
    verdict: ApprovalVerdict,
  ): Promise<ApproveResponse> {
    return this.answer(ownerSigner, owner, await this.proposal(ownerSigner, owner, proposalSeq), verdict);
  }

  /** The proposal or decision with effects at `seq`, read as `owner` with its chain verified (E_UNKNOWN_TASK when there is none). */
  async proposal(ownerSigner: Signer, owner: string, seq: number): Promise<ProposalEntry> {
    const { items } = await this.history({ signer: ownerSigner, as: { owner } });
    const entry = items.find((item): item is Entry => item.seq === seq && isEntry(item));
    if (!entry) throw new TrestleError("E_UNKNOWN_TASK", `no entry ${seq} at table ${this.table}`);
    if ((entry.kind !== "proposal" && entry.kind !== "decision") || !entry.effects) {
      throw new TrestleError(
        "E_UNKNOWN_TASK",
        `entry ${seq} at table ${this.table} is not a proposal or decision with effects`,
      );
    }
    return entry;
  }

  /**
   * Signs `verdict` on `owner`'s task opened by `proposal`, an entry read with `proposal()` (so
   * from the verified ledger): the signature covers exactly the effects it holds for `owner`, the
   * ones a caller that asks a person first has just shown them.
   */
  async answer(
    ownerSigner: Signer,
    owner: string,
    proposal: ProposalEntry,
    verdict: ApprovalVerdict,
  ): Promise<ApproveResponse> {
    await this.ready({ signer: ownerSigner, as: { owner } });
    const statement = approvalStatementFor(proposal, owner, { verdict, nonce: randomNonce() });
    const since = this.tracker.held;
    const response = await this.http.approve(this.table, await signApproval(ownerSigner, owner, statement));
    await this.settle(response.head, since, { signer: ownerSigner, as: { owner } });
    return response;
  }

  /**
   * Every task of the table in opening order (all pages), read as a seat or owner. Each page's
   * head is checked against the held one and the chain caught up to it, so task states read from
   * a relay that rolled back or forked are never acted on.
   */
  async tasks(reader: Reader): Promise<TaskState[]> {
    await this.ready(reader);
    const since = this.tracker.held;
    const all: TaskState[] = [];
    let after = 0;
    for (;;) {
      const page = await this.http.tasks(this.table, reader, after);
      if (page.items.some((task) => task.opened > page.head.seq))
        throw new TrestleError("E_BAD_RESPONSE", `a task opened after the head (${page.head.seq}) it was read at`);
      await this.settle(page.head, since, reader);
      all.push(...page.items);
      if (page.next === null) return all;
      after = page.next;
    }
  }

  /**
   * Follows this table from a relay where this home holds it to this one (docs/SPEC.md §8.4):
   * verifies this relay's whole ledger, read as `reader`, with the past relay's held head in it
   * and its custody change replayed, then holds this relay's head. Throws E_RELAY_KEY when this
   * relay's table did not come from there, E_FORK (evidence kept) when the chains disagree.
   */
  follow(reader: Reader): Promise<SignedHead> {
    return followCustody(this, reader, this.maxEntries);
  }

  /** Before an operation as `reader`: no evidence kept, and a table met here after another relay followed first. */
  private async ready(reader: Reader): Promise<void> {
    await this.tracker.checkClean();
    if (this.tracker.awaitingCustody) await this.follow(reader);
  }

  /** The relay's current head, checked against the held one (older is truncation); adopted once its chain is verified (`catchUp`). */
  async head(): Promise<SignedHead> {
    await this.tracker.checkClean();
    const since = this.tracker.held;
    const head = await this.http.head(this.table);
    await this.tracker.observe(head, since);
    return head;
  }

  /**
   * The seat's projection after `after`, every tail page joined, with the head of the last page.
   * Each page's head is checked against the held one and the chain caught up to it (§7, §8.3).
   */
  async projection(reader: Reader, after = 0): Promise<ProjectionResponse> {
    await this.ready(reader);
    const since = this.tracker.held;
    let projection = await this.page(reader, after, since);
    while (projection.more) {
      const next = await this.page(reader, projection.cursor, since);
      projection = { ...next, tail: [...projection.tail, ...next.tail] };
    }
    return projection;
  }

  /**
   * Reads the entries from the held head up to the newest head seen beyond it, as `reader`, and
   * follows their chain from the held head, so that head is adopted; a relay whose entries do not
   * chain from the held head is caught (E_FORK, evidence kept). Returns the held head after.
   */
  async catchUp(reader: Reader): Promise<SignedHead | null> {
    const target = this.tracker.ahead;
    const held = this.tracker.held;
    if (!target || !held) return held;
    const follower = new ChainFollower(this.tracker, { seq: held.seq, link: held.link });
    while (follower.position.seq < target.seq) {
      const from = follower.position.seq + 1;
      const page = await this.http.entries(this.table, reader, from, target.seq).catch((error: unknown) => {
        // A reader that may no longer read (a seat that just left) leaves the head unadopted: never adopting is safe.
        if (error instanceof TrestleError && LOST_READ.has(error.code)) return null;
        throw error;
      });
      if (!page) return held;
      const items = page.items.filter((item) => item.seq <= target.seq);
      if (items.length === 0)
        throw new TrestleError("E_BAD_RESPONSE", `the relay signed a head at ${target.seq} but sent no entry ${from}`);
      follower.accept(items);
      await this.tracker.observe(page.head, held);
    }
    return this.tracker.held;
  }

  /**
   * Keeps `head`, the current head of a ledger that verified with the held head in it (§8.3: every
   * verified read keeps its head): its `items` after the held head are chained from it, so the head
   * is adopted as `catchUp` adopts one, and a shorter ledger served later is a truncation.
   */
  private async keep(items: readonly (Entry | HiddenEntry)[], head: SignedHead): Promise<void> {
    const since = this.tracker.held;
    if (head.relay !== this.tracker.relayKey || (since && head.seq <= since.seq)) return;
    const follower = new ChainFollower(this.tracker, since ? { seq: since.seq, link: since.link } : GENESIS);
    follower.accept(items.filter((item) => item.seq > follower.position.seq && item.seq <= head.seq));
    await this.tracker.observe(head, since);
  }

  private async page(reader: Reader, after: number, since: SignedHead | null): Promise<ProjectionResponse> {
    const page = await this.http.projection(this.table, reader, after);
    if (page.cursor > page.head.seq)
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `the projection's cursor ${page.cursor} is past its head (${page.head.seq})`,
      );
    await this.settle(page.head, since, reader);
    return page;
  }

  /** Checks a head the relay returned as current against `since` (the head held before the call), then catches the chain up to it. */
  private async settle(head: SignedHead, since: SignedHead | null, reader: Reader): Promise<void> {
    await this.tracker.observe(head, since);
    await this.catchUp(reader);
  }

  /** The whole ledger as `reader` may see it, chain verified from entry 1 up to a signed head. */
  async history(reader: Reader): Promise<History> {
    await this.ready(reader);
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
      if (page.items.length === 0)
        throw new TrestleError(
          "E_BAD_RESPONSE",
          `the relay's head is at ${page.head.seq} but it sent no entry ${from}`,
        );
      from = follower.position.seq + 1;
    }
  }

  /**
   * Verifies entries this client followed itself (a live session's, from entry 1, up to the signed
   * `head` they reached) as an export is verified (§8.2): against the pinned key and the relay's
   * ledger limit, with the held head added, and REFUTED while evidence is kept (§8.3).
   */
  verifyFollowed(items: readonly (Entry | HiddenEntry)[], head: SignedHead): Promise<VerifyReport> {
    const held = this.tracker.held;
    return verifyHeldView(
      { table: this.table, items, heads: [head] },
      {
        relayKey: this.tracker.relayKey,
        maxEntries: this.maxEntries,
        held: held && held.seq <= items.length ? [held] : [],
        evidence: this.tracker.evidence,
      },
    );
  }

  /**
   * The export text, its one parse and its verification against the pinned key, every signed head this client
   * has seen for the table (held or not yet chained: each is the relay's commitment), the heads
   * this home holds at relays the export names as past custodians (§8.4), and the evidence it
   * keeps (REFUTED while there is any, §8.3). From a relay that only mirrors the table, the export is
   * verified against the key of the relay holding it, with the heads this home holds from there
   * (E_MIRROR when it holds none). An export that verifies on its own but
   * contradicts one of those heads is kept as evidence: a truncation when it ends before that head,
   * else a fork. An export that is not REFUTED has its current head kept (adopted and stored), like
   * any verified read, so a shorter one served later is a truncation.
   */
  async exportLedger(reader: Reader): Promise<ExportedLedger> {
    const text = await this.http.exportText(this.table, reader);
    const parsed = parseExport(text);
    const exported = { text, parsed };
    const holder = mirrorHolder(parsed, this.tracker.relayKey);
    if (holder !== null) return { ...exported, report: await verifyMirrored(this, exported, holder, this.maxEntries) };
    if (this.tracker.awaitingCustody) await followCustody(this, reader, this.maxEntries, exported);
    const seen = this.tracker.seen;
    const held = [...seen, ...pastCustodians(parsed, this.tracker.past)];
    const context = { relayKey: this.tracker.relayKey, maxEntries: this.maxEntries };
    const report = await verifyExportText(text, { ...context, held, evidence: this.tracker.evidence }, parsed);
    const relays = parsed.ok
      ? parsed.view.heads.reduce<SignedHead | null>((a, h) => (a && a.seq >= h.seq ? a : h), null)
      : null;
    if (report.verdict !== "REFUTED" && parsed.ok && relays) await this.keep(parsed.view.items, relays);
    const contradicted = seen.find((head) => head.seq === report.refuted?.seq);
    if (report.verdict !== "REFUTED" || !contradicted || !relays || this.tracker.evidence.length > 0)
      return { ...exported, report };
    if ((await verifyExportText(text, context, parsed)).verdict === "REFUTED") return { ...exported, report };
    const kind = relays.seq < contradicted.seq ? "truncation" : "fork";
    this.tracker.caught({
      kind,
      table: this.table,
      seq: Math.min(contradicted.seq, relays.seq),
      heads: [contradicted, relays],
      message: `${kind}: the relay's export (signed head at ${relays.seq}) does not contain the chain of the head it signed at ${contradicted.seq}`,
    });
    return {
      ...exported,
      report: await verifyExportText(text, { ...context, held, evidence: this.tracker.evidence }, parsed),
    };
  }
}

/** An export as the relay served it (`text`), its one parse, and its verification. */
export interface ExportedLedger extends Exported {
  report: VerifyReport;
}

/** The `past` heads held at relays the export names as the table's past custodians: they must sit on its chain too. */
function pastCustodians(parsed: ParsedExport, past: readonly SignedHead[]): SignedHead[] {
  if (past.length === 0 || !parsed.ok) return [];
  const relays = new Set(custodySpans(parsed.view.items).map((s) => s.relay));
  return past.filter((h) => relays.has(h.relay));
}
