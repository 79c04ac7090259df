/**
 * A seat whose writes pass the owner-side guards before they are signed (docs/ROOMS.md), used by
 * the client library, the CLI and the MCP server alike. In order: the verified transcript (REFUTED
 * stops everything; a commitment needs CLEAN), the mandate (paused, never_disclose over every
 * field, money cap, floor and currency over the terms a commitment binds), then the gate (the
 * owner's signed approval of this exact message when the mandate requires confirmation of the kind
 * or was loosened). Every refusal and every held message is written to the seat's journal with its
 * reason; nothing refused is signed. The message is signed exactly as approved: its hash covers
 * the nonce, so a resend of a held message is the same statement, which the relay records once.
 */
import type { Clock, SeatSubmission, TableClient } from "../client/index.js";
import { randomNonce, systemClock } from "../client/random.js";
import {
  canonicalSha256,
  parseOrThrow,
  signSubmission,
  SubmissionSchema,
  TrestleError,
  type ErrorCode,
  type NoteResponse,
  type SignedHead,
  type Signer,
  type Submission,
} from "../protocol/index.js";
import { boundTerms, gatedWhenLoosened, isCommitment } from "./commitments.js";
import { authoredPart, findDisclosure } from "./disclosure.js";
import { answersTo, signGateAnswer, type GateAnswer } from "./gate.js";
import { Journal } from "./journal.js";
import { readMandate, type MandateRead } from "./mandate.js";
import { seatFiles, type SeatFiles } from "./paths.js";
import type { JournalRecordOf, Mandate } from "./records.js";
import { readTranscript, seatOwnerKey, type Transcript } from "./transcript.js";
import { recordRationale, tellOwner } from "./notes.js";

/** What a guarded seat needs. */
export interface GuardedSeatOptions {
  client: TableClient;
  seat: string;
  /** The seat key. */
  signer: Signer;
  /** The trestle home holding the mandate and the journal. */
  home: string;
  clock?: Clock;
}

/** A message that left, with its hash. */
export interface Sent {
  seq: number;
  head: SignedHead;
  truncated: boolean;
  message_sha256: string;
}

type Guard = JournalRecordOf<"refusal">["guard"];

/** One seat at one table, writing through the owner-side guards. */
export class GuardedSeat {
  readonly journal: Journal;
  readonly files: SeatFiles;
  readonly table: string;
  readonly seat: string;
  private readonly client: TableClient;
  private readonly signer: Signer;
  private readonly clock: Clock;

  constructor(options: GuardedSeatOptions) {
    this.clock = options.clock ?? systemClock;
    this.client = options.client;
    this.table = options.client.table;
    this.seat = options.seat;
    this.signer = options.signer;
    this.files = seatFiles(options.home, this.table, this.seat);
    this.journal = new Journal(this.files.journal, this.files.spent, { table: this.table, seat: this.seat }, this.clock);
  }

  /** Signs and sends `input` (with a fresh nonce) if the guards allow it; throws their refusal (E_MANDATE, E_HELD, E_GATE) otherwise. */
  send(input: SeatSubmission): Promise<Sent> {
    const submission = parseOrThrow(SubmissionSchema, { ...input, table: this.table, seat: this.seat, nonce: randomNonce() }, "submission");
    return this.guardAndSend(submission);
  }

  /** Sends the held message with hash `hash` exactly as it was held, once the owner approved it. */
  sendHeld(hash: string): Promise<Sent> {
    const held = this.journal.ofType("held").find((h) => h.message_sha256 === hash);
    if (!held) throw new TrestleError("E_GATE", `no held message ${hash.slice(0, 16)}… for seat ${this.seat} at ${this.table}`, { reason: "unknown", message_sha256: hash });
    return this.guardAndSend(parseOrThrow(SubmissionSchema, held.submission, "held message"));
  }

  /** The held messages not yet sent and not rejected, oldest first. */
  pending(): JournalRecordOf<"held">[] {
    const { records } = this.journal.read();
    const done = new Set(records.flatMap((r) => (r.type === "sent" || (r.type === "gate_answer" && r.verdict === "reject") ? [r.message_sha256] : [])));
    const pending = new Map<string, JournalRecordOf<"held">>();
    for (const r of records) if (r.type === "held" && !done.has(r.message_sha256) && !pending.has(r.message_sha256)) pending.set(r.message_sha256, r);
    return [...pending.values()];
  }

  /** Records the owner's signed answer to message `hash`; E_BAD_SIGNATURE unless `ownerSigner` is the seat's owner key in the verified transcript. */
  async answer(ownerSigner: Signer, hash: string, verdict: "approve" | "reject"): Promise<GateAnswer> {
    if (seatOwnerKey(await this.transcript(), this.seat) !== ownerSigner.publicKeyText) {
      throw new TrestleError("E_BAD_SIGNATURE", `that owner key does not own seat ${this.seat} at ${this.table}; its answer would not count`);
    }
    const body = await signGateAnswer(ownerSigner, { table: this.table, seat: this.seat, message_sha256: hash, verdict, nonce: randomNonce() });
    return this.journal.append(body) as GateAnswer;
  }

  /** Records the agent's private rationale (never sent). */
  rationale(text: string, re?: { seq?: number; message_sha256?: string }): JournalRecordOf<"rationale"> {
    return recordRationale(this.journal, text, re);
  }

  /** Tells the seat's owner `text` through their chat apps, never the table. */
  tellOwner(text: string): Promise<NoteResponse> {
    return tellOwner(this.client, this.signer, this.seat, this.journal, text, this.clock);
  }

  /** The verified transcript as this seat reads it. */
  transcript(): Promise<Transcript> {
    return readTranscript(this.client, { signer: this.signer, as: { seat: this.seat } });
  }

  /** The mandate in force for this seat, judged against the transcript's owner key. */
  async mandate(transcript?: Transcript): Promise<MandateRead> {
    const ownerKey = seatOwnerKey(transcript ?? (await this.transcript()), this.seat);
    if (ownerKey === undefined) return { ok: false, reason: "not_signed", message: `the verified transcript does not show seat ${this.seat}'s owner, so no mandate can be checked` };
    return readMandate(this.files.mandate, { table: this.table, seat: this.seat, ownerKey });
  }

  private async guardAndSend(submission: Submission): Promise<Sent> {
    const hash = canonicalSha256(submission);
    const refuse = (guard: Guard, code: ErrorCode, reason: string, message: string, detail?: Record<string, unknown>): never => {
      this.journal.append({ type: "refusal", guard, code, reason, message, kind: submission.kind, message_sha256: hash, ...(detail ? { detail } : {}) });
      throw new TrestleError(code, message, { reason, message_sha256: hash, ...detail });
    };
    const transcript = await this.transcript();
    const commitment = isCommitment(submission);
    const { verdict } = transcript.report;
    if (verdict === "REFUTED" || (commitment && verdict !== "CLEAN")) {
      const why = verdict === "REFUTED" ? `REFUTED at ${transcript.report.refuted?.seq ?? "?"}: ${transcript.report.refuted?.reason ?? ""}` : `${verdict}: ${transcript.report.unchecked.join("; ")}`;
      refuse("gate", "E_GATE", "unverified", `the table's transcript does not verify completely (${why}); nothing is ${commitment ? "committed" : "sent"}`, { verdict });
    }
    const mandate = await this.mandate(transcript);
    let approval: string | undefined;
    if (!mandate.ok) {
      if (mandate.reason !== "no_mandate" || commitment) refuse("mandate", "E_MANDATE", mandate.reason, mandate.message);
    } else {
      this.checkMandate(mandate.mandate, submission, transcript, refuse);
      approval = await this.approvalFor(mandate.mandate, submission, hash, mandate.file.owner_key, refuse);
    }
    return this.sendExact(submission, hash, approval);
  }

  /** Applies the mandate's limits to `s`; calls `refuse` (which throws) on the first it breaks. */
  private checkMandate(m: Mandate, s: Submission, transcript: Transcript, refuse: (g: Guard, c: ErrorCode, r: string, m: string, d?: Record<string, unknown>) => never): void {
    if (m.paused) refuse("mandate", "E_MANDATE", "paused", `the owner paused seat ${this.seat} at ${this.table}: it writes nothing until they resume it`);
    const found = findDisclosure(authoredPart(s), m.never_disclose);
    if (found) {
      refuse("disclosure", "E_MANDATE", "disclose", `the message contains never_disclose entry #${found.index + 1} at ${found.path}; it was not sent`, { index: found.index, path: found.path });
    }
    if (!isCommitment(s) || !transcript.state) return;
    const terms = boundTerms(transcript.state, s);
    if (terms?.amount === undefined) return;
    const money = m.money;
    const said = `${terms.amount} ${terms.currency} (minor units)`;
    if (!money) refuse("mandate", "E_MANDATE", "cap", `the mandate allows no money commitment (cap 0); ${said} was not committed`, { amount: terms.amount });
    else if (terms.currency !== money.currency) refuse("mandate", "E_MANDATE", "currency", `the mandate's money is in ${money.currency}, not ${terms.currency}; nothing was committed`);
    else if (terms.amount > money.cap) refuse("mandate", "E_MANDATE", "cap", `${said} is above the mandate's cap; it was not committed`);
    else if (money.floor !== undefined && terms.amount < money.floor) refuse("mandate", "E_MANDATE", "floor", `${said} is below the mandate's floor; it was not committed`);
  }

  /** The nonce of the owner's approval this message spends, or undefined when it needs none; holds or refuses it otherwise. */
  private async approvalFor(
    m: Mandate,
    s: Submission,
    hash: string,
    ownerKey: string,
    refuse: (g: Guard, c: ErrorCode, r: string, m: string, d?: Record<string, unknown>) => never,
  ): Promise<string | undefined> {
    const why = m.require_confirm.includes(s.kind) ? "require_confirm" : m.loosened && gatedWhenLoosened(s) ? "loosened" : null;
    if (why === null) return undefined;
    const { approvals, rejected } = await answersTo(this.journal, hash, ownerKey);
    if (rejected) refuse("gate", "E_GATE", "rejected", "the owner rejected this message; it will not be sent");
    const unspent = approvals.find((a) => !this.journal.spent(a.nonce));
    if (!unspent) {
      if (approvals.length > 0) refuse("gate", "E_GATE", "spent", "the owner's approval of this message was already spent; they approve it again to send it again");
      if (!this.journal.ofType("held").some((h) => h.message_sha256 === hash)) {
        this.journal.append({ type: "held", message_sha256: hash, why, submission: s as unknown as Record<string, unknown> });
      }
      const because = why === "require_confirm" ? `the mandate holds every ${s.kind} for the owner` : "the mandate was loosened, so each commitment needs the owner";
      throw new TrestleError("E_HELD", `held: ${because}; the owner approves message ${hash} (trestle gate approve ${hash.slice(0, 12)})`, { message_sha256: hash, why });
    }
    if (!this.journal.spend(unspent.nonce)) refuse("gate", "E_GATE", "spent", "the owner's approval of this message was spent by another process");
    return unspent.nonce;
  }

  /** Signs exactly `submission` and sends it with the newest verified head; records whether it left. */
  private async sendExact(submission: Submission, hash: string, approval: string | undefined): Promise<Sent> {
    const spent = approval === undefined ? {} : { approval };
    const since = this.client.tracker.held;
    const request = await signSubmission(this.signer, submission, this.client.tracker.knownHead());
    let response;
    try {
      response = await this.client.http.submit(this.table, request);
    } catch (error) {
      const code = error instanceof TrestleError ? error.code : "E_INTERNAL";
      // A refusal in the relay's envelope is definite; no answer, or one that is not the protocol's, leaves the outcome unknown.
      const outcome = code === "E_NETWORK" || code === "E_BAD_RESPONSE" || code === "E_INTERNAL" ? "unknown" : "refused";
      this.journal.append({ type: "send_failed", message_sha256: hash, kind: submission.kind, outcome, code, ...spent });
      throw error;
    }
    this.journal.append({ type: "sent", message_sha256: hash, kind: submission.kind, seq: response.seq, ...spent });
    await this.client.tracker.observe(response.head, since);
    return { seq: response.seq, head: response.head, truncated: response.truncated, message_sha256: hash };
  }
}
