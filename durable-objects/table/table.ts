/**
 * TableDO: one Durable Object per table, the ledger machine's object (object/ledger-object.ts: the
 * ledger, its heads, checkpoint, tiles, export, mirror and custody, sockets, alarm and deletion)
 * with a table's own routes: creation and joins, the one submit and approval of HTTP and socket
 * writes, controls, revocations, rooms' invites and ejections, notes, questions and instructions to
 * owners, sub-tables, the gateway's tasks, the projection, and a market's reads, deals and chat
 * groups (market/). Each route hands the object's one context to the role module doing the work
 * (writing/, reading/, market/), as the TableContext it sees (context.ts).
 */
import { TrestleError } from "../../src/protocol/errors.js";
import type {
  ApproveResponse,
  CreateResponse,
  JoinResponse,
  ProjectionResponse,
  SubmitResponse,
  TasksResponse,
} from "../../src/protocol/schemas/responses.js";
import type { SignedHead } from "../../src/protocol/schemas/head.js";
import type { NoteResponse } from "../../src/protocol/schemas/room.js";
import type {
  InstructionList,
  InstructionResponse,
  OwnerAnswer,
  QuestionList,
  QuestionRecord,
  QuestionResponse,
} from "../../src/protocol/schemas/owner-ask.js";
import type { GroupState } from "../../src/protocol/policy/market/market-state.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type {
  DealRecordResponse,
  ListingsResponse,
  ListingView,
  MatchResponse,
} from "../../src/protocol/schemas/market.js";
import type { RoomDeal } from "../../src/protocol/schemas/market-deal.js";
import { asResult, unwrap, type Result } from "../result.js";
import type { WriteOutcome } from "./storage/outcome.js";
import type { ReadAuth } from "./context.js";
import { readProjection, readTasks } from "./reading/reads.js";
import { originHost } from "./reading/tlog.js";
import { deliverResult } from "./writing/results.js";
import {
  writeChildOpening,
  writeSubtableOpened,
  writeSubtableResult,
  type SubtableRegistration,
} from "./writing/subtables.js";
import { writeCreate, writeJoin } from "./writing/writes.js";
import { approvalResponse, approve, submit } from "./writing/submit.js";
import { writeAttestedControl, writeControl, type AttestedControl } from "./writing/control.js";
import { writeRevoke } from "./writing/revoke.js";
import { writeAttestedApproval, type AttestedApproval } from "./writing/chat-approvals.js";
import { runSettlements, runWatchdog } from "./writing/alarms.js";
import { refuseInviteJoin, writeEject, writeInvite, writeInvitedJoin } from "./writing/rooms.js";
import { sendOwnerNote } from "./writing/notes.js";
import {
  answerAttested,
  answerQuestion,
  askOwner,
  listQuestions,
  readQuestion,
  type AttestedAnswer,
} from "./writing/owner-ask.js";
import {
  instructAttested,
  instructSeat,
  readInstructions,
  type AttestedInstruction,
} from "./writing/owner-instructions.js";
import { readListings, readMatch, marketReader } from "./market/market-reads.js";
import { roomDeal, writeDealRecord } from "./market/market-deals.js";
import {
  boundGroups,
  checkGroupCode,
  groupMember,
  hasGroup,
  writeGroupBound,
  writeGroupListing,
  writeGroupUnbound,
  writeGroupUnlist,
  type CheckedGroupCode,
  type GroupListingInput,
  type GroupMember,
} from "./market/market-groups.js";
import { claimCreation } from "./object/lifetime.js";
import { LedgerObject } from "./object/ledger-object.js";

export type { ReadAuth } from "./context.js";

/** The Durable Object for one table: the ledger machine's object with a table's routes. */
export class TableDO extends LedgerObject {
  /** The table's own jobs: the task watchdog, auctions and sealed listings due to settle, any pending sub-table result delivery. */
  protected async alarmJobs(): Promise<void> {
    for (const outcome of runWatchdog(this.table)) await this.table.afterWrite(outcome);
    for (const outcome of runSettlements(this.table)) await this.table.afterWrite(outcome);
    await deliverResult(this.table);
  }

  /** POST /tables; `host` (the relay host the request reached) becomes the table's log origin (reading/tlog.ts). */
  async create(body: unknown, host?: string): Promise<Result<CreateResponse>> {
    return this.writing(async () => {
      const signer = await this.table.signer();
      const outcome = await writeCreate(this.table, body, signer.publicKeyText, (draft) =>
        claimCreation(this.table, draft),
      );
      if (host !== undefined) originHost(this.ctx.storage.sql, host);
      return { table: outcome.primary.table, head: await this.table.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/join (a join by invite is refused here: it needs the code, POST /invites/join). */
  async join(body: unknown): Promise<Result<JoinResponse>> {
    return this.writing(async () => {
      refuseInviteJoin(this.table.state, body);
      return this.joinResponse(await writeJoin(this.table, body));
    });
  }

  /** POST /invites/join, after the invite directory resolved the code to `invite` of this room. */
  async joinInvited(body: unknown, invite: string): Promise<Result<JoinResponse>> {
    return this.writing(async () => this.joinResponse(await writeInvitedJoin(this.table, body, invite)));
  }

  private async joinResponse(outcome: WriteOutcome): Promise<JoinResponse> {
    const primary = outcome.primary;
    const seat = primary.kind === "system" && primary.subkind === "seat_joined" ? primary.data.join.seat : "";
    return { seat, seq: primary.seq, head: await this.table.afterWrite(outcome) };
  }

  /** POST /tables/:id/invites: the creator's signed invite; the Worker then registers its code. */
  async issueInvite(
    body: unknown,
  ): Promise<Result<{ invite: string; expires: number; replaces?: string; seq: number; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = await writeInvite(this.table, body);
      const primary = outcome.primary;
      if (primary.kind !== "system" || primary.subkind !== "invite_issued")
        throw new TrestleError("E_INTERNAL", "an invite write records an invite");
      const { invite, expires, replaces } = primary.data;
      return {
        invite,
        expires,
        ...(replaces === undefined ? {} : { replaces }),
        seq: primary.seq,
        head: await this.table.afterWrite(outcome),
      };
    });
  }

  /** POST /tables/:id/eject: the creator's signed ejection of a seat. */
  async eject(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeEject(this.table, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.table.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/notes: a seat's note to its owner's chat channels; never an entry. */
  async noteOwner(body: unknown): Promise<Result<NoteResponse>> {
    return this.writing(() => sendOwnerNote(this.table, this.ctx.storage, this.env, body));
  }

  /** POST /tables/:id/questions: a seat's question to its own owner (§5.14); never an entry. */
  async askOwner(body: unknown): Promise<Result<QuestionResponse>> {
    return this.writing(() => askOwner(this.table, body));
  }

  /** POST /tables/:id/questions/:q/answer: the seat's owner's signed answer. */
  async answerQuestion(id: string, body: unknown): Promise<Result<OwnerAnswer>> {
    return this.writing(() => answerQuestion(this.table, id, body));
  }

  /** A relay-attested answer from a bound chat account (the Worker checked the binding). */
  async answerAttested(input: AttestedAnswer): Promise<Result<OwnerAnswer>> {
    return this.writing(() => answerAttested(this.table, input));
  }

  /** GET /tables/:id/questions: the reader's questions (a seat's own, or an owner's seats'). */
  async questions(auth: ReadAuth): Promise<Result<QuestionList>> {
    return asResult(async () => listQuestions(this.table, await this.table.reader(auth)));
  }

  /** GET /tables/:id/questions/:q: one question, for the seat that asked or its owner. */
  async question(auth: ReadAuth, id: string): Promise<Result<QuestionRecord>> {
    return asResult(async () => readQuestion(this.table, await this.table.reader(auth), id));
  }

  /** POST /tables/:id/instructions: the seat's owner's signed instruction to it (§5.14); never an entry. */
  async instruct(body: unknown): Promise<Result<InstructionResponse>> {
    return this.writing(() => instructSeat(this.table, body));
  }

  /** A relay-attested instruction from a bound chat account (the Worker checked the binding). */
  async instructAttested(input: AttestedInstruction): Promise<Result<InstructionResponse>> {
    return this.writing(() => instructAttested(this.table, input));
  }

  /** GET /tables/:id/instructions?after=N: the reading seat's own instructions; nobody else reads them. */
  async instructions(auth: ReadAuth, after: number): Promise<Result<InstructionList>> {
    return asResult(async () => {
      const principal = await this.table.reader(auth);
      if (!("seat" in principal))
        throw new TrestleError("E_FORBIDDEN", "a seat reads its own instructions; its owner keeps what it sent");
      return readInstructions(this.table, principal.seat, after);
    });
  }

  /** POST /tables/:id/entries: the one submit (submit.ts), as a seat's socket frame also takes it. */
  async submit(body: unknown): Promise<Result<SubmitResponse>> {
    return asResult(() => submit(this.table, { body }));
  }

  /** POST /tables/:id/approvals: the one approval (submit.ts), as an owner session's frame also takes it. */
  async approve(body: unknown): Promise<Result<ApproveResponse>> {
    return asResult(() => approve(this.table, { body }));
  }

  /** A relay-attested approval or rejection from a bound chat account (the Worker checked the binding, §5.6). */
  async approveAttested(input: AttestedApproval): Promise<Result<ApproveResponse>> {
    return this.writing(() => approvalResponse(this.table, writeAttestedApproval(this.table, input)));
  }

  /** GET /tables/:id/tasks?after=, with the head the task states were computed at (§7). */
  async tasks(auth: ReadAuth, after: number): Promise<Result<TasksResponse>> {
    return asResult(async () => {
      const principal = await this.table.reader(auth);
      // Read and head in one synchronous step: no write can land between them.
      const head = this.table.currentHead();
      const page = readTasks(this.table.requireState(), after, principal);
      return { ...page, head: await head };
    });
  }

  /** POST /tables/:id/control (owner-signed pause or resume) */
  async control(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeControl(this.table, body);
      return { seq: outcome.primary.seq, truncated: false, head: await this.table.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/revoke: an owner's signed revocation of one of its seats; the seat's open sockets close at once (E_REVOKED). */
  async revoke(body: unknown): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = await writeRevoke(this.table, body);
      this.table.sessions.closeRevoked(this.table.requireState());
      return { seq: outcome.primary.seq, truncated: false, head: await this.table.afterWrite(outcome) };
    });
  }

  /** A relay-attested pause or resume from a bound chat account (the Worker checked the binding). */
  async controlAttested(input: AttestedControl): Promise<Result<SubmitResponse>> {
    return this.writing(async () => {
      const outcome = writeAttestedControl(this.table, input);
      return { seq: outcome.primary.seq, truncated: false, head: await this.table.afterWrite(outcome) };
    });
  }

  /** POST /tables/:parent/subtables, on the child's object: opens this table through its parent. */
  async openSubtable(parent: string, body: unknown): Promise<Result<CreateResponse>> {
    return this.writing(async () => {
      const signer = await this.table.signer();
      const outcome = await writeChildOpening(this.table, parent, body, {
        parent: this.table.table(parent),
        relayKey: signer.publicKeyText,
      });
      return { table: outcome.primary.table, head: await this.table.afterWrite(outcome) };
    });
  }

  /** RPC from a child's object: records its opening here and returns the carried joins. */
  async registerSubtable(body: unknown): Promise<Result<SubtableRegistration>> {
    return this.writing(async () => {
      const { outcome, registration } = await writeSubtableOpened(this.table, body);
      await this.table.afterWrite(outcome);
      return registration;
    });
  }

  /** RPC from a closed child's object: records its relay-signed result here, once. */
  async reportSubtable(body: unknown): Promise<Result<{ seq: number }>> {
    return this.writing(async () => {
      const signer = await this.table.signer();
      const outcome = await writeSubtableResult(this.table, body, signer.publicKeyText);
      await this.table.afterWrite(outcome);
      return { seq: outcome.primary.seq };
    });
  }

  /** GET /tables/:id/projection?after=, with the head it was computed at (§7). */
  async projection(auth: ReadAuth, after: number): Promise<Result<ProjectionResponse>> {
    return asResult(async () => {
      const principal = await this.table.reader(auth);
      // Read and head in one synchronous step: no write can land between them.
      const head = this.table.currentHead();
      const projection = readProjection(this.table.requireState(), this.table.ledger, principal, after);
      return { ...projection, head: await head };
    });
  }

  /** GET /tables/:id/listings: a market's live listings that fit the query (a signed read; anyone at a public market). */
  async listings(auth: ReadAuth, query: unknown): Promise<Result<ListingsResponse>> {
    return asResult(async () => {
      await marketReader(this.table, auth);
      return { items: readListings(this.table, query), head: await this.table.currentHead() };
    });
  }

  /** GET /tables/:id/matches/:seq: a market's match with the citation its room's config carries (a signed read; anyone at a public market). */
  async match(auth: ReadAuth, seq: number): Promise<Result<MatchResponse>> {
    return asResult(async () => {
      await marketReader(this.table, auth);
      return readMatch(this.table, seq);
    });
  }

  /** POST /tables/:id/deals: the market records the done deal of the match room the body names (asked of that room's object). */
  async recordDeal(body: unknown): Promise<Result<DealRecordResponse>> {
    return this.writing(async () => {
      const outcome = await writeDealRecord(this.table, body, async (room) =>
        unwrap(await this.table.table(room).roomDeal()),
      );
      return { seq: outcome.primary.seq, head: await this.table.afterWrite(outcome) };
    });
  }

  /** A match room's done deal, as its market asks for it (market-deals.ts). */
  async roomDeal(): Promise<Result<RoomDeal>> {
    return asResult(() => roomDeal(this.table));
  }

  /** POST /tables/:id/group-codes, first half: the creator's code request checked (nothing written); the Worker then has the directory make the code. */
  async checkGroupCode(body: unknown): Promise<Result<CheckedGroupCode>> {
    return this.writing(() => checkGroupCode(this.table, body));
  }

  /** A group code was typed in `group` (the chat directory reserved it for this market): appends the binding. */
  async bindGroup(request: unknown, group: string): Promise<Result<{ seq: number; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = await writeGroupBound(this.table, request, group);
      return { seq: outcome.primary.seq, head: await this.table.afterWrite(outcome) };
    });
  }

  /** POST /tables/:id/groups/unbind: the creator's signed unbinding; the Worker then frees the group in the chat directory. */
  async unbindGroup(
    body: unknown,
  ): Promise<Result<{ seq: number; platform: ChatPlatform; group: string; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = await writeGroupUnbound(this.table, body);
      const primary = outcome.primary;
      if (primary.kind !== "system" || primary.subkind !== "group_unbound")
        throw new TrestleError("E_INTERNAL", "an unbinding records group_unbound");
      return {
        seq: primary.seq,
        platform: primary.data.platform,
        group: primary.data.group,
        head: await this.table.afterWrite(outcome),
      };
    });
  }

  /** Whether `group` of `platform` is bound to this market now (the chat directory asks, to free a reservation no binding followed). */
  async hasGroup(platform: string, group: string): Promise<Result<boolean>> {
    return asResult(() => hasGroup(this.table, platform, group));
  }

  /** GET /tables/:id/groups: the groups bound to this market now, read by a member or the creator (a signed read; anyone at a public market). */
  async groups(auth: ReadAuth): Promise<Result<{ groups: GroupState[]; head: SignedHead }>> {
    return asResult(async () => {
      await marketReader(this.table, auth);
      return { groups: boundGroups(this.table), head: await this.table.currentHead() };
    });
  }

  /** A group command's first question: the member one chat account's bound owner keys speak for here, and the market's categories. */
  async groupMember(keys: string[]): Promise<Result<GroupMember>> {
    return asResult(() => groupMember(this.table, keys));
  }

  /** A bound member's listing typed in a bound group (the chat directory checked both bindings): relay-attested, with its matches. */
  async groupListing(input: GroupListingInput): Promise<Result<{ seq: number; leaf: string; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = writeGroupListing(this.table, input);
      return { seq: outcome.primary.seq, leaf: outcome.primary.leaf, head: await this.table.afterWrite(outcome) };
    });
  }

  /** A bound member's withdrawal, typed in a bound group, of its listing at entry `seq`. */
  async groupUnlist(input: {
    owner: string;
    via: ChatPlatform;
    group: string;
    seq: number;
  }): Promise<Result<{ seq: number; head: SignedHead }>> {
    return this.writing(async () => {
      const outcome = writeGroupUnlist(this.table, input);
      return { seq: outcome.primary.seq, head: await this.table.afterWrite(outcome) };
    });
  }

  /** The newest `limit` live listings (of `owner` alone, when given) and how many there are, for a member's `/listings` or `/mine`. */
  async groupBoard(owner: string | null, limit: number): Promise<Result<{ items: ListingView[]; total: number }>> {
    return asResult(() => {
      const items = readListings(this.table, owner === null ? {} : { owner });
      return { items: items.slice(0, limit), total: items.length };
    });
  }
}
