/**
 * The table's write path: verify the request's signature over the very statement the entry will
 * record, answer a retried nonce with its first result, check that somebody can answer the
 * approvals a proposal would wait for, check the writer's known head, run the policy, persist the
 * batch with the owner notifications it causes, and only then update the in-memory state. Nothing
 * is written unless all of that passed.
 */
import { canonicalize } from "../../../src/protocol/encoding/canonical.js";
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { approvalDraft, createDraft, joinDraft, submissionDraft } from "../../../src/protocol/requests/drafts.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { admit } from "../../../src/protocol/policy/admit.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { CreateRequestSchema } from "../../../src/protocol/schemas/create.js";
import type { Entry, EntryDraft, HeadRef, SubmitRequest } from "../../../src/protocol/schemas/entry.js";
import { JoinRequestSchema } from "../../../src/protocol/schemas/join.js";
import type { ApprovalRequest } from "../../../src/protocol/schemas/approval.js";
import { requireApprovers, waitingOwners } from "../approvers.js";
import { nonceKeyOf, statementOf, submissionStatement } from "../../../src/protocol/signing/statements.js";
import { dealStatementsOf } from "../../../src/protocol/signing/deal.js";
import { marketStatementsOf } from "../../../src/protocol/signing/market.js";
import type { RecordedStatement } from "../../../src/protocol/signing/crypto.js";
import { checkpointText } from "../storage/checkpoint.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { notificationsFor } from "../../../src/protocol/reading/notifications.js";
import { deletedError } from "../storage/tombstone.js";
import type { TableContext } from "../context.js";
import type { WriteOutcome } from "../storage/outcome.js";
import { checkNotRevoked } from "../../../src/protocol/policy/seat-revoke.js";
import { refuseRevokedSigner } from "../signing/revoked-signer.js";

/** What a write reads and changes of the table's context (the context itself; tests hand over a fake of just this). */
export type Writer = Pick<
  TableContext,
  "state" | "ledger" | "now" | "answerers" | "channels" | "notices" | "limits" | "burial"
>;

/** Counts a new table against its creator before it is written; resolves with what undoes that count if the write then fails. */
export type CreateClaim = (draft: { table: string; author: { key: string } }) => Promise<() => Promise<void>>;

/**
 * Creates the table from a signed create request. A config admit would refuse is refused before
 * `claim` counts anything; a count whose write then fails is undone. A deleted id is refused.
 */
export async function writeCreate(
  t: Writer,
  body: unknown,
  relayKey: string,
  claim: CreateClaim,
): Promise<WriteOutcome> {
  const request = parseOrThrow(CreateRequestSchema, body, "create request");
  const draft = createDraft(request, relayKey);
  await checkSignature(draft);
  const existing = createdAlready(t, draft);
  if (existing) return existing;
  admit(null, draft, t.now());
  const undo = await claim(draft);
  try {
    // The same create may have landed while the claim was counted.
    return createdAlready(t, draft) ?? admitAndAppend(t, draft);
  } catch (error) {
    await undo();
    throw error;
  }
}

/** The table's first entry when this very create was already written; E_TABLE_EXISTS for another; E_TABLE_DELETED for a deleted id. */
function createdAlready(t: Writer, draft: EntryDraft): WriteOutcome | undefined {
  if (t.burial) throw deletedError(t.burial.tombstone);
  if (!t.state) return undefined;
  const first = t.ledger.range(1, 1, 1)[0]!;
  if (sameStatement(first, draft)) return { primary: first, appended: [] };
  throw new TrestleError("E_TABLE_EXISTS", `table "${draft.table}" already exists`);
}

/** Seats a join signed by an owner of this table. */
export async function writeJoin(t: Writer, body: unknown): Promise<WriteOutcome> {
  const request = parseOrThrow(JoinRequestSchema, body, "join request");
  const state = requireTable(t);
  const draft = joinDraft(state, request);
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Appends a seat's signed submission (parsed by SubmitRequestSchema). */
export async function writeSubmission(t: Writer, request: SubmitRequest): Promise<WriteOutcome> {
  const state = requireTable(t);
  const { submission } = request;
  if (submission.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `submission is for table "${submission.table}"`);
  const seat = own(state.seats, submission.seat);
  if (!seat) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${submission.seat}" is not at this table`);
  // A revoked key is refused before anything is counted; admit refuses it again for a write queued behind the revocation.
  checkNotRevoked(state, seat.key);
  const draft = submissionDraft(state, request, seat.key);
  await checkSignature(draft).catch(async (error: unknown) => {
    await refuseRevokedSigner(state, seat.name, "entry", submissionStatement(submission), request.sig);
    throw error;
  });
  // A retry returns its first entry before anything else is asked (nobody may be online to approve now).
  const retry = retried(t, draft);
  if (retry) return retry;
  t.limits.seatWrite(seat.name, t.now());
  await checkApprovers(t, draft);
  if (request.known_head) checkKnownHead(t, request.known_head);
  return admitAndAppend(t, draft, draft.truncated ? submission.body : undefined);
}

/** Appends an owner's signed approval or rejection of a task (§5.6; parsed by ApprovalRequestSchema). */
export async function writeApproval(t: Writer, request: ApprovalRequest): Promise<WriteOutcome> {
  const state = requireTable(t);
  if (request.approval.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `approval is for table "${request.approval.table}"`);
  const draft = approvalDraft(state, request);
  await checkSignature(draft);
  return countedOwnerWrite(t, draft, request.owner);
}

/** Commits an owner-signed draft, counted against `owner`'s write rate unless it retries one already recorded. */
export function countedOwnerWrite(t: Writer, draft: EntryDraft, owner: string): WriteOutcome {
  if (!retried(t, draft)) t.limits.ownerWrite(owner, t.now());
  return admitAndAppend(t, draft);
}

/** E_NO_APPROVER: the policy's preview of a proposal names the owners it would wait for; somebody must answer for each. */
async function checkApprovers(t: Writer, draft: EntryDraft): Promise<void> {
  if ((draft.kind !== "proposal" && draft.kind !== "decision") || !draft.effects) return;
  const preview = admit(t.state, draft, t.now());
  await requireApprovers(preview.state, waitingOwners(preview), t.answerers(), t.channels);
}

/** The live state, or E_TABLE_NOT_FOUND before the table exists (E_TABLE_DELETED after). */
export function requireTable(t: Writer): TableState {
  if (t.burial) throw deletedError(t.burial.tombstone);
  if (!t.state) throw new TrestleError("E_TABLE_NOT_FOUND");
  return t.state;
}

/** Verifies the signature over the statement the draft records, and those it carries: a deal_sign's owner signature, a match room's market head (E_BAD_SIGNATURE otherwise). */
export async function checkSignature(draft: EntryDraft): Promise<void> {
  const recorded = statementOf(draft);
  if (!recorded) throw new TrestleError("E_INTERNAL", "a request draft always records a statement");
  await checkStatements([recorded, ...dealStatementsOf(draft), ...marketStatementsOf(draft)]);
}

/** Verifies each recorded statement's signature; E_BAD_SIGNATURE naming the purpose of the first that fails. */
export async function checkStatements(statements: readonly RecordedStatement[]): Promise<void> {
  for (const r of statements) {
    if (!(await verifyStatement(r.key, r.purpose, r.statement, r.sig)))
      throw new TrestleError("E_BAD_SIGNATURE", `the ${r.purpose} signature does not verify`);
  }
}

/** A retry of an already-recorded statement returns its entry; the same nonce on another statement is refused. */
function retried(t: Writer, draft: EntryDraft): WriteOutcome | undefined {
  const key = nonceKeyOf(draft);
  const existing = key ? t.ledger.byNonce(key) : undefined;
  if (!existing) return undefined;
  if (!sameStatement(existing, draft))
    throw new TrestleError("E_NONCE_REUSED", "this nonce already signed a different statement");
  return { primary: existing, appended: [] };
}

/** Whether an entry records the same signed statement as a draft; a relay-attested entry (no statement) must match it field for field. */
export function sameStatement(entry: Entry, draft: EntryDraft): boolean {
  const recorded = statementOf(entry);
  if (recorded === null) {
    const { seq: _s, ts: _t, leaf: _l, link: _k, ...content } = entry;
    return canonicalize(content) === canonicalize(draft);
  }
  return canonicalize(recorded) === canonicalize(statementOf(draft));
}

function checkKnownHead(t: Writer, head: HeadRef): void {
  const link = head.seq <= t.ledger.seq ? t.ledger.linkAt(head.seq) : undefined;
  if (link !== head.link) {
    throw new TrestleError("E_FORK", `your head at ${head.seq} is not on this relay's chain (latest ${t.ledger.seq})`, {
      seq: head.seq,
      latest: t.ledger.seq,
    });
  }
}

/**
 * Admits and appends a verified draft with the owner notifications it causes, then swaps the state
 * (no await in between). A nonce already recorded returns its first entry (or E_NONCE_REUSED), also
 * when the same request raced past an earlier check while the write awaited something.
 */
export function admitAndAppend(t: Writer, draft: EntryDraft, original?: string): WriteOutcome {
  // No await between the nonce check, admit and the state swap: the policy judges the state the batch lands on.
  const retry = retried(t, draft);
  if (retry) return retry;
  const now = t.now();
  const result = admit(t.state, draft, now);
  const primarySeq = result.entries[0]!.seq;
  let noticed = false;
  const appended = t.ledger.append(result.entries, {
    ...(original === undefined ? {} : { originals: new Map([[primarySeq, original]]) }),
    notices: (entries) => {
      const text = t.notices.record(notificationsFor(result.state, entries), now);
      noticed = text !== null;
      return text;
    },
    checkpoint: () => checkpointText(result.state),
  });
  // Still no await: the alarm that retries the notifications is set with the same writes.
  if (noticed) t.notices.armRetry(now);
  t.state = result.state;
  return { primary: appended[0]!, appended };
}
