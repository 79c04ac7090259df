/**
 * A typed client over every relay route (docs/SPEC.md §6.1). Every response is parsed with the
 * protocol's zod schemas; an error envelope becomes a TrestleError carrying the relay's own code,
 * a failed connection E_NETWORK, and anything that is neither E_BAD_RESPONSE. The relay's answers
 * are treated as untrusted input: nothing is cast. Heads are not judged here (see heads.ts).
 * A rate-limit refusal (429, E_RATE_LIMITED) is waited out and the request sent again when the
 * wait is short and the request is safe to repeat (every table route is: a signed write is applied
 * once by its nonce or its content, a read repeats); otherwise it is thrown with the wait in
 * `details.retry_after_ms` (docs/CLIENT.md).
 */
import { ConnectionClosed, networkFailure } from "./network-failure.js";
import {
  InstructionListSchema,
  InstructionResponseSchema,
  OwnerAnswerSchema,
  QuestionListSchema,
  QuestionRecordSchema,
  QuestionResponseSchema,
  type AnswerRequest,
  type InstructionList,
  type InstructionRequest,
  type InstructionResponse,
  type OwnerAnswer,
  type QuestionList,
  type QuestionRecord,
  type QuestionRequest,
  type QuestionResponse,
} from "../protocol/schemas/owner-ask.js";
import {
  ApproveResponseSchema,
  CreateResponseSchema,
  DeleteResponseSchema,
  EntriesResponseSchema,
  ErrorEnvelopeSchema,
  JoinResponseSchema,
  ProjectionResponseSchema,
  SignedHeadSchema,
  signHttpAuth,
  SubmitResponseSchema,
  TasksResponseSchema,
  TrestleError,
  retryAfterOf,
  WellKnownSchema,
  type DeleteResponse,
  type ApprovalRequest,
  type ApproveResponse,
  type CreateRequest,
  type CreateResponse,
  type EntriesResponse,
  type JoinRequest,
  type JoinResponse,
  type Principal,
  type ProjectionResponse,
  type SignedHead,
  type Signer,
  type SubmitRequest,
  type SubmitResponse,
  type TasksResponse,
  type WellKnown,
} from "../protocol/index.js";
import type { SubtableRequest } from "../protocol/schemas/subtable.js";
import {
  InviteLookupResponseSchema,
  InviteResponseSchema,
  NoteResponseSchema,
  type EjectRequest,
  type InviteJoinRequest,
  type InviteLookupResponse,
  type InviteRequest,
  type InviteResponse,
  type NoteRequest,
  type NoteResponse,
} from "../protocol/schemas/room.js";
import {
  DealRecordResponseSchema,
  ListingsResponseSchema,
  MatchResponseSchema,
  type DealRecordResponse,
  type ListingQuery,
  type ListingsResponse,
  type MatchResponse,
} from "../protocol/schemas/market.js";
import { CustodyResponseSchema, type CustodyRequest, type CustodyResponse } from "../protocol/schemas/custody.js";
import { ReplicaStatusSchema, type ReplicaPage, type ReplicaStatus } from "../protocol/schemas/replica.js";
import type { SeatRevokeRequest } from "../protocol/schemas/revoke.js";
import {
  GroupCodeResponseSchema,
  GroupsResponseSchema,
  GroupUnbindResponseSchema,
  type GroupCodeRequest,
  type GroupCodeResponse,
  type GroupsResponse,
  type GroupUnbindRequest,
  type GroupUnbindResponse,
} from "../protocol/schemas/market-group.js";
import type { z } from "zod";
import { systemClock, type Clock } from "./random.js";

/** Who a read is made as, and the key that signs its authorization. */
export interface Reader {
  signer: Signer;
  as: Principal;
}

/** A fetch-compatible function (the global fetch, or a test's). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Options for an HttpClient. */
export interface HttpClientOptions {
  /** The relay's base URL, e.g. http://127.0.0.1:8787. */
  url: string;
  fetch?: FetchLike;
  clock?: Clock;
  /** Per-request timeout; a request that takes longer fails with E_NETWORK. Default 30 s. */
  timeoutMs?: number;
  /** How rate-limit refusals are waited out (default: up to 3 retries, each wait at most 30 s). */
  rateLimit?: RateLimitPolicy;
}

/** How an HttpClient waits out E_RATE_LIMITED on requests that are safe to repeat. */
export interface RateLimitPolicy {
  /** Retries after rate-limit refusals, per request; 0 never waits. */
  attempts?: number;
  /** A refusal asking for a longer wait than this is thrown at once. */
  maxWaitMs?: number;
  /** Told before each wait (e.g. the CLI's note on stderr). */
  onWait?: (waitMs: number, what: string) => void;
  /** Waits `ms` (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RATE_LIMIT = { attempts: 3, maxWaitMs: 30_000 } as const;

/** The relay's HTTP API; one method per route, each returning the parsed response body. */
export class HttpClient {
  readonly url: string;
  private readonly fetchImpl: FetchLike;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly rateLimit: RateLimitPolicy;

  constructor(options: HttpClientOptions) {
    this.url = normalizeBase(options.url);
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.rateLimit = options.rateLimit ?? {};
  }

  /** GET /.well-known/trestle.json: protocol, relay key, limits. */
  wellKnown(): Promise<WellKnown> {
    return this.json(WellKnownSchema, "GET", "/.well-known/trestle.json");
  }

  /** POST /tables */
  createTable(request: CreateRequest): Promise<CreateResponse> {
    return this.json(CreateResponseSchema, "POST", "/tables", { body: request });
  }

  /** POST /tables/:id/join */
  join(table: string, request: JoinRequest): Promise<JoinResponse> {
    return this.json(JoinResponseSchema, "POST", `/tables/${enc(table)}/join`, { body: request });
  }

  /** POST /tables/:id/entries */
  submit(table: string, request: SubmitRequest): Promise<SubmitResponse> {
    return this.json(SubmitResponseSchema, "POST", `/tables/${enc(table)}/entries`, { body: request });
  }

  /** POST /tables/:parent/subtables: a seat of `parent` opens a sub-table; the answer is the child's id and head (§5.9). */
  openSubtable(parent: string, request: SubtableRequest): Promise<CreateResponse> {
    return this.json(CreateResponseSchema, "POST", `/tables/${enc(parent)}/subtables`, { body: request });
  }

  /** POST /tables/:id/approvals: an owner's signed approval or rejection of a task. */
  approve(table: string, request: ApprovalRequest): Promise<ApproveResponse> {
    return this.json(ApproveResponseSchema, "POST", `/tables/${enc(table)}/approvals`, { body: request });
  }

  /** GET /tables/:id/tasks?after=N: tasks opened after entry N, one page, read as a seat or owner. */
  tasks(table: string, reader: Reader, after = 0): Promise<TasksResponse> {
    return this.json(TasksResponseSchema, "GET", `/tables/${enc(table)}/tasks?after=${after}`, { reader, table });
  }

  /** GET /tables/:id/head: the current signed head (unauthenticated). */
  head(table: string): Promise<SignedHead> {
    return this.json(SignedHeadSchema, "GET", `/tables/${enc(table)}/head`);
  }

  /** GET /tables/:id/projection?after=N, read as a seat, with the head it was computed at. */
  projection(table: string, reader: Reader, after = 0): Promise<ProjectionResponse> {
    return this.json(ProjectionResponseSchema, "GET", `/tables/${enc(table)}/projection?after=${after}`, {
      reader,
      table,
    });
  }

  /** GET /tables/:id/entries?from=&to= (one page of at most LIMITS.page items). */
  entries(table: string, reader: Reader, from: number, to?: number): Promise<EntriesResponse> {
    const query = to === undefined ? `from=${from}` : `from=${from}&to=${to}`;
    return this.json(EntriesResponseSchema, "GET", `/tables/${enc(table)}/entries?${query}`, { reader, table });
  }

  /** GET /tables/:id/export: the JSONL export text, unparsed (parseExport/verifyExport judge it). */
  async exportText(table: string, reader: Reader): Promise<string> {
    const response = await this.send("GET", `/tables/${enc(table)}/export`, { reader, table });
    return response.text;
  }

  /** GET /tables/:id/checkpoint: the relay's signed checkpoint note, unverified (tlog-reader.ts opens it). */
  async checkpoint(table: string): Promise<string> {
    return (await this.send("GET", `/tables/${enc(table)}/checkpoint`, {})).text;
  }

  /** GET /tables/:id/tile/...: a hash tile's bytes, read as `reader` (a private table's tiles need a signed read). */
  async tile(table: string, path: string, reader?: Reader): Promise<Uint8Array> {
    return (await this.send("GET", `/tables/${enc(table)}/${path}`, reader ? { reader, table } : {})).bytes;
  }

  /** POST /tables/:id/invites: the room creator's signed invite; the answer carries the code (docs/SPEC.md §5.10). */
  invite(table: string, request: InviteRequest): Promise<InviteResponse> {
    return this.json(InviteResponseSchema, "POST", `/tables/${enc(table)}/invites`, { body: request });
  }

  /** POST /tables/:id/eject: the room creator's signed ejection of a seat. */
  eject(table: string, request: EjectRequest): Promise<SubmitResponse> {
    return this.json(SubmitResponseSchema, "POST", `/tables/${enc(table)}/eject`, { body: request });
  }

  /** POST /tables/:id/revoke: an owner's signed revocation of one of its seats (docs/SPEC.md §5.13). */
  revoke(table: string, request: SeatRevokeRequest): Promise<SubmitResponse> {
    return this.json(SubmitResponseSchema, "POST", `/tables/${enc(table)}/revoke`, { body: request });
  }

  /** POST /invites/lookup: the room an invite code opens (wrong codes are counted against this client). */
  lookupInvite(code: string): Promise<InviteLookupResponse> {
    return this.json(InviteLookupResponseSchema, "POST", "/invites/lookup", { body: { code } });
  }

  /** POST /invites/join: a new owner's signed join by invite, with the code. */
  joinByInvite(request: InviteJoinRequest): Promise<JoinResponse> {
    return this.json(JoinResponseSchema, "POST", "/invites/join", { body: request });
  }

  /** GET /tables/:id/listings?…: a market's live listings that fit `query` (docs/SPEC.md §5.15), read as `reader`; unsigned (no reader) only at a public market. */
  listings(table: string, query: ListingQuery, reader?: Reader): Promise<ListingsResponse> {
    const search = Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
      .join("&");
    return this.json(
      ListingsResponseSchema,
      "GET",
      `/tables/${enc(table)}/listings${search === "" ? "" : `?${search}`}`,
      reader ? { reader, table } : {},
    );
  }

  /** GET /tables/:id/matches/:seq: a market's match, the citation its room's config carries and its room's id, read as `reader` (unsigned only at a public market). */
  match(table: string, seq: number, reader?: Reader): Promise<MatchResponse> {
    return this.json(
      MatchResponseSchema,
      "GET",
      `/tables/${enc(table)}/matches/${seq}`,
      reader ? { reader, table } : {},
    );
  }

  /** POST /tables/:id/group-codes: the market creator's signed request for a code that binds one chat group (docs/SPEC.md §5.15 "Groups"). */
  groupCode(table: string, request: GroupCodeRequest): Promise<GroupCodeResponse> {
    return this.json(GroupCodeResponseSchema, "POST", `/tables/${enc(table)}/group-codes`, { body: request });
  }

  /** POST /tables/:id/groups/unbind: the market creator's signed unbinding of a chat group. */
  unbindGroup(table: string, request: GroupUnbindRequest): Promise<GroupUnbindResponse> {
    return this.json(GroupUnbindResponseSchema, "POST", `/tables/${enc(table)}/groups/unbind`, { body: request });
  }

  /** GET /tables/:id/groups: a market's bound chat groups with their delivery health, read as `reader` (unsigned only at a public market). */
  groups(table: string, reader?: Reader): Promise<GroupsResponse> {
    return this.json(GroupsResponseSchema, "GET", `/tables/${enc(table)}/groups`, reader ? { reader, table } : {});
  }

  /** POST /tables/:id/deals: asks the market to record the done deal of match room `room` (idempotent: a recorded deal answers its entry). */
  recordDeal(table: string, room: string): Promise<DealRecordResponse> {
    return this.json(DealRecordResponseSchema, "POST", `/tables/${enc(table)}/deals`, { body: { room } });
  }

  /** POST /tables/:id/notes: a seat's signed note to its owner's chat apps (never the table). */
  noteOwner(table: string, request: NoteRequest): Promise<NoteResponse> {
    return this.json(NoteResponseSchema, "POST", `/tables/${enc(table)}/notes`, { body: request });
  }

  /** POST /tables/:id/questions: a seat's signed question to its own owner (never the table, §5.14). */
  askOwner(table: string, request: QuestionRequest): Promise<QuestionResponse> {
    return this.json(QuestionResponseSchema, "POST", `/tables/${enc(table)}/questions`, { body: request });
  }

  /** GET /tables/:id/questions: the reader's questions (a seat's own, or an owner's seats'). */
  questions(table: string, reader: Reader): Promise<QuestionList> {
    return this.json(QuestionListSchema, "GET", `/tables/${enc(table)}/questions`, { reader, table });
  }

  /** GET /tables/:id/questions/:q: one question, for the seat that asked or its owner. */
  question(table: string, id: string, reader: Reader): Promise<QuestionRecord> {
    return this.json(QuestionRecordSchema, "GET", `/tables/${enc(table)}/questions/${enc(id)}`, { reader, table });
  }

  /** POST /tables/:id/questions/:q/answer: the seat's owner's signed answer. */
  answerQuestion(table: string, request: AnswerRequest): Promise<OwnerAnswer> {
    return this.json(
      OwnerAnswerSchema,
      "POST",
      `/tables/${enc(table)}/questions/${enc(request.answer.question)}/answer`,
      { body: request },
    );
  }

  /** POST /tables/:id/instructions: the seat's owner's signed instruction to it. */
  instruct(table: string, request: InstructionRequest): Promise<InstructionResponse> {
    return this.json(InstructionResponseSchema, "POST", `/tables/${enc(table)}/instructions`, { body: request });
  }

  /** GET /tables/:id/instructions?after=N: the reading seat's own instructions numbered after N. */
  instructions(table: string, reader: Reader, after = 0): Promise<InstructionList> {
    return this.json(InstructionListSchema, "GET", `/tables/${enc(table)}/instructions?after=${after}`, {
      reader,
      table,
    });
  }

  /** POST /tables/:id/delete: the creator's signed delete (docs/SPEC.md §6.6); the same request again gets the same answer. */
  deleteTable(table: string, body: unknown): Promise<DeleteResponse> {
    return this.json(DeleteResponseSchema, "POST", `/tables/${enc(table)}/delete`, { body });
  }

  /** POST /tables/:id/replica: one verified page for a replica of the table here (docs/SPEC.md §8.4); the answer is its status after. */
  replicate(table: string, page: ReplicaPage): Promise<ReplicaStatus> {
    return this.json(ReplicaStatusSchema, "POST", `/tables/${enc(table)}/replica`, { body: page });
  }

  /** GET /tables/:id/replica: whether the relay mirrors the table, the relay holding it, its tip and head, evidence kept. */
  replicaStatus(table: string): Promise<ReplicaStatus> {
    return this.json(ReplicaStatusSchema, "GET", `/tables/${enc(table)}/replica`);
  }

  /** POST /tables/:id/custody: the owners' custody statement; the relay takes the table over. */
  takeCustody(table: string, request: CustodyRequest): Promise<CustodyResponse> {
    return this.json(CustodyResponseSchema, "POST", `/tables/${enc(table)}/custody`, { body: request });
  }

  /**
   * An owner-key route (docs/SPEC.md §11.1): a `body` the caller signed, or an `authorization`
   * header it signed. Waited out when rate limited only with `retry` (a bind code's nonce is spent
   * by a refused request, so sending it again would fail).
   */
  ownerRequest<S extends z.ZodType>(
    schema: S,
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; authorization?: string; retry?: boolean } = {},
  ): Promise<z.infer<S>> {
    return this.json(schema, method, path, { retry: false, ...options });
  }

  /** The WebSocket URL for a table (ws: or wss: to match the base URL). */
  socketUrl(table: string): string {
    const url = new URL(`${this.url}/tables/${enc(table)}/ws`);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  private async json<S extends z.ZodType>(
    schema: S,
    method: "GET" | "POST",
    path: string,
    options: SendOptions = {},
  ): Promise<z.infer<S>> {
    const response = await this.send(method, path, options);
    const parsed = schema.safeParse(parseJson(response.text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TrestleError(
        "E_BAD_RESPONSE",
        `${method} ${path}: the relay's answer does not match the protocol${issue ? ` (${issue.path.join(".")}: ${issue.message})` : ""}`,
      );
    }
    return parsed.data;
  }

  /** Sends once, then again after each rate-limit refusal the policy waits out (`options.retry` false: never). */
  private async send(method: "GET" | "POST", path: string, options: SendOptions): Promise<Answer> {
    const policy = { ...DEFAULT_RATE_LIMIT, ...this.rateLimit };
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.sendOnce(method, path, options);
      } catch (error) {
        if (method === "GET" && attempt === 0 && error instanceof ConnectionClosed) continue;
        if (error instanceof ConnectionClosed) throw error.refusal;
        const wait = error instanceof TrestleError ? retryAfterOf(error) : null;
        if (wait === null || options.retry === false || attempt >= policy.attempts || wait > policy.maxWaitMs)
          throw error;
        policy.onWait?.(wait, `${method} ${path.split("?")[0]}`);
        await (policy.sleep ?? sleep)(wait);
      }
    }
  }

  private async sendOnce(method: "GET" | "POST", path: string, options: SendOptions): Promise<Answer> {
    const url = new URL(this.url + path);
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    if (options.reader && options.table !== undefined) {
      headers.authorization = await signHttpAuth(options.reader.signer, {
        table: options.table,
        as: options.reader.as,
        method,
        path: url.pathname + url.search,
        now: this.clock(),
      });
    }
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(this.timeoutMs) };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    let status: number;
    let bytes: Uint8Array;
    let retryAfter: number | null;
    try {
      const response = await this.fetchImpl(url.href, init);
      status = response.status;
      retryAfter = retryAfterHeader(response.headers.get("retry-after"));
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw networkFailure(error, this.url);
    }
    const text = new TextDecoder().decode(bytes);
    if (status >= 200 && status < 300) return { status, text, bytes };
    const envelope = ErrorEnvelopeSchema.safeParse(parseJson(text));
    if (envelope.success) {
      const { code, message, details } = envelope.data.error;
      throw withRetryAfter(new TrestleError(code, message, details), retryAfter);
    }
    // A 429 from something in front of the relay (its host's own limits) still means "wait".
    if (status === 429)
      throw withRetryAfter(
        new TrestleError(
          "E_RATE_LIMITED",
          `${method} ${path}: HTTP 429 from the relay's host, without a trestle error envelope`,
        ),
        retryAfter,
      );
    throw new TrestleError("E_BAD_RESPONSE", `${method} ${path}: HTTP ${status} without a trestle error envelope`);
  }
}

/** A successful answer: its status and body, as text and as the bytes it was sent as. */
interface Answer {
  status: number;
  text: string;
  bytes: Uint8Array;
}

/** What one request carries; `retry: false` never waits out a rate limit. */
interface SendOptions {
  body?: unknown;
  reader?: Reader;
  table?: string;
  authorization?: string;
  retry?: boolean;
}

/** A rate-limit refusal with `details.retry_after_ms` taken from `Retry-After` when the envelope has no wait of its own. */
function withRetryAfter(error: TrestleError, retryAfterMs: number | null): TrestleError {
  if (error.code !== "E_RATE_LIMITED" || retryAfterOf(error) !== null || retryAfterMs === null) return error;
  return new TrestleError(error.code, error.message, {
    ...error.details,
    limit: String(error.details?.limit ?? "http_429"),
    retry_after_ms: retryAfterMs,
  });
}

/** `Retry-After` in ms: delay-seconds only (an HTTP date is not used by trestle relays); null when absent or not a number. */
function retryAfterHeader(value: string | null): number | null {
  return value !== null && /^[0-9]{1,9}$/.test(value.trim()) ? Number(value.trim()) * 1000 : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function normalizeBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TrestleError("E_SCHEMA", `"${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TrestleError("E_SCHEMA", `the relay URL must be http: or https:, not ${parsed.protocol}`);
  }
  return parsed.origin + parsed.pathname.replace(/\/+$/, "");
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
