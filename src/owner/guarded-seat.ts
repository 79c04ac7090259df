/**
 * A seat whose writes pass the owner-side guards before they are signed (docs/ROOMS.md), used by
 * the client library, the CLI and the MCP server alike. In order: the verified transcript (REFUTED
 * stops everything; a commitment needs CLEAN), the mandate (paused, never_disclose over every
 * field, money cap, floor and currency over the terms a commitment binds, the markets and
 * categories it may trade in), the allowance across a market's rooms (a commitment reserved in the
 * owner's store before it is signed, released when it does not leave), then the gate (the owner's
 * signed approval of this exact message when the mandate requires confirmation of the kind or was
 * loosened). Every refusal and every held message is written to the seat's journal with its
 * reason; nothing refused is signed. The message is signed exactly as approved: its hash covers
 * the nonce, so a resend of a held message is the same statement, which the relay records once.
 * In an end-to-end encrypted room (docs/SPEC.md §5.12) the guards judge the plaintext and the
 * message is sealed before it is hashed, held and signed; without the room key nothing is sent.
 * Sealed bids (§5.11) are chosen here, judged like any commitment, and kept in the journal.
 * A seat that writes often keeps a live transcript (live-transcript.ts): the guards judge by it and
 * its writes go over the seat's socket. After each message that left, the owner's standing rule (a mandate with `sign_deals`) signs the
 * deals it covers with the owner key in this home (standing-deals.ts). This file orders the steps;
 * each is its own file: message-sealing.ts, mandate-limits.ts, market-scope.ts, allowance.ts,
 * approval-spend.ts (the gate), guard-refusal.ts (how any of them refuses) and exact-send.ts.
 */
import { TableClient, type Clock, type SeatSubmission } from "../client/index.js";
import { randomNonce, systemClock } from "../client/random.js";
import {
  canonicalSha256,
  own,
  parseOrThrow,
  SubmissionSchema,
  TrestleError,
  type MatchCitation,
  type NoteResponse,
  type Signer,
  type Submission,
  type TableState,
  type Terms,
} from "../protocol/index.js";
import { isCommitment } from "./commitments.js";
import { recentText } from "./leak/recent-text.js";
import { answerHeld, heldExpiry, heldState, pendingHeld, type GateAnswer } from "./gate.js";
import { seatJournal, type Journal } from "./journal.js";
import { readMandate, type MandateRead } from "./mandate.js";
import { seatFiles, type SeatFiles } from "./paths.js";
import type { JournalRecordOf } from "./records.js";
import { readTranscript, seatOwnerKey, type Transcript } from "./transcript.js";
import { recordRationale, tellOwner, type HeldAbout } from "./notes.js";
import { heldNotice } from "./held-notice.js";
import { bidByCommitment, committedBid, recordBid, retractRefusedBid } from "./bids.js";
import { roomState } from "./room-view.js";
import { loadRoomKey } from "./room-key.js";
import { OpenedTexts, openSubmission, sealText } from "./sealing.js";
import { namedIn, type Named } from "../text/commitment.js";
import { signDealsWithinMandate, type StandingDeal } from "./standing-deals.js";
import { refuser } from "./guard-refusal.js";
import { checkMandateLimits, moneyBound } from "./mandate-limits.js";
import { approvalToSpend } from "./approval-spend.js";
import { refusedByRelay, sendExact, type ExactSent } from "./exact-send.js";
import { reserveAllowance, type Reservation } from "./allowance.js";
import { reconcileAllowance, seatReader, type AllowanceReconciled } from "./allowance-reconcile.js";
import type { AllowanceStore } from "./allowance-store.js";
import { FileHeadStore } from "../client/head-store.js";
import { checkMarketScope, matchCategories } from "./market-scope.js";
import type { Mandate } from "./records.js";
import { requiredRoomKey, sealForSend } from "./message-sealing.js";
import type { LiveTranscript } from "./live-transcript.js";

/** What a guarded seat needs. */
export interface GuardedSeatOptions {
  client: TableClient;
  seat: string;
  /** The seat key. */
  signer: Signer;
  /** The trestle home holding the mandate and the journal. */
  home: string;
  clock?: Clock;
  /** The seat's live transcript (live-transcript.ts): the guards judge by it and writes go over its socket, instead of an export read and an HTTP write each time. */
  live?: LiveTranscript;
}

/** A message that left, with its hash, and what the owner's standing rule did after it. */
export interface Sent extends ExactSent {
  /** What the owner's standing rule did with the seat's unsigned deals after this message (absent: nothing to do). */
  deals?: StandingDeal[];
  /** Why the standing rule could not run after this message (its deals stay pending). */
  deals_error?: string;
}

/** One seat at one table, writing through the owner-side guards. */
export class GuardedSeat {
  readonly journal: Journal;
  readonly files: SeatFiles;
  readonly table: string;
  readonly seat: string;
  /** The table client the seat reads and writes through (its head tracker holds this home's heads and evidence). */
  readonly client: TableClient;
  private readonly signer: Signer;
  private readonly clock: Clock;
  private readonly home: string;
  private readonly live: LiveTranscript | undefined;
  /** While the standing rule signs, its own deal_sign messages do not start it again. */
  private sendingDeal = false;
  /** The categories of matches' listings as read from their markets, by market and match seq (they never change). */
  private readonly categoriesRead = new Map<string, Promise<string[]>>();

  constructor(options: GuardedSeatOptions) {
    this.home = options.home;
    this.clock = options.clock ?? systemClock;
    this.client = options.client;
    this.table = options.client.table;
    this.seat = options.seat;
    this.signer = options.signer;
    this.live = options.live;
    this.files = seatFiles(options.home, this.table, this.seat);
    this.journal = seatJournal(options.home, this.table, this.seat, this.clock);
  }

  /** Signs and sends `input` (with a fresh nonce, sealed in an e2e room) if the guards allow it; throws their refusal (E_MANDATE, E_HELD, E_GATE, E_KEY_FILE) otherwise. */
  async send(input: SeatSubmission): Promise<Sent> {
    const submission = parseOrThrow(
      SubmissionSchema,
      { ...input, table: this.table, seat: this.seat, nonce: randomNonce() },
      "submission",
    );
    let sent: Sent;
    try {
      sent = await this.guardAndSend(submission, false);
    } catch (error) {
      // A sealed bid's commit the guards or the relay refused leaves no journal record.
      retractRefusedBid(this.journal, submission, error);
      throw error;
    }
    return this.withStandingDeals(sent);
  }

  /** Signs, under the owner's standing rule, the deals it covers (none without the rule); the rest stay pending, each with its reason. */
  signStandingDeals(): Promise<StandingDeal[]> {
    return signDealsWithinMandate(this, this.home);
  }

  /** `sent` with what the standing rule did after it (the rule's own deal_signs start nothing); a failure of the rule leaves the deals pending and is said in `deals_error`, since `sent` has left. */
  private async withStandingDeals(sent: Sent): Promise<Sent> {
    if (this.sendingDeal) return sent;
    this.sendingDeal = true;
    try {
      const deals = await this.signStandingDeals();
      return deals.length > 0 ? { ...sent, deals } : sent;
    } catch (error) {
      return { ...sent, deals_error: error instanceof Error ? error.message : String(error) };
    } finally {
      this.sendingDeal = false;
    }
  }

  /**
   * Sends the held message with hash `hash` exactly as it was held (sealed, in an e2e room), once the
   * owner approved it. E_GATE before anything is spent or sent, `details.reason` naming its state:
   * `unknown` (never held here), `spent` (already sent), `rejected` (by the owner), `expired` (it, or
   * the offer it answers, expired while it waited).
   */
  async sendHeld(hash: string): Promise<Sent> {
    const held = heldState(this.journal, hash);
    const name = `held message ${hash.slice(0, 16)}…`;
    const where = `seat ${this.seat} at ${this.table}`;
    const details = { reason: held.state === "sent" ? "spent" : held.state, message_sha256: hash };
    if (held.state === "unknown")
      throw new TrestleError("E_GATE", `no ${name} for ${where} (the gate lists what it holds)`, details);
    if (held.state === "sent")
      throw new TrestleError(
        "E_GATE",
        `${name} was already sent as entry #${held.seq}: a held message is sent once, and nothing was sent again; to say it again, write it anew (the gate holds it for the owner again)`,
        { ...details, seq: held.seq },
      );
    if (held.state === "rejected")
      throw new TrestleError(
        "E_GATE",
        `the owner rejected ${name}; it will never be sent: write another message if the seat should say something else`,
        details,
      );
    return this.withStandingDeals(
      await this.guardAndSend(parseOrThrow(SubmissionSchema, held.held.submission, "held message"), true),
    );
  }

  /** The commit of a sealed bid of `bid` (minor units of the auction's currency) in the auction at `auction`, to be sent through the guards: the bid and its salt are kept in the journal first, only the commitment goes out. */
  async bidMessage(auction: string, bid: number): Promise<SeatSubmission> {
    const transcript = await this.transcript();
    const mandate = await this.mandate(transcript);
    const record = recordBid(
      this.journal,
      roomState(transcript),
      auction,
      this.seat,
      bid,
      mandate.ok ? mandate.mandate.never_disclose : [],
    );
    return { kind: "mechanism", op: "commit", auction, side: record.side, commitment: record.commitment };
  }

  /** The reveal of the bid this seat committed to in the auction at `auction`, read back from the journal, to be sent through the guards. */
  async revealMessage(auction: string): Promise<SeatSubmission> {
    const record = committedBid(this.journal, roomState(await this.transcript()), auction, this.seat);
    return { kind: "mechanism", op: "reveal", auction, bid: record.bid, salt: record.salt };
  }

  /**
   * A held message as its owner reads it: opened in an e2e room, with the money it binds (an
   * accept's offer, a sealed bid), and where its words (src/text/commitment.ts) find what it names:
   * the verified state, the answered offer's text opened, this journal's sealed bids; judged by
   * `transcript` (read now when not given).
   */
  async readable(
    held: JournalRecordOf<"held">,
    transcript?: Transcript,
  ): Promise<{ submission: Submission; binds: Terms | null; named: Named }> {
    transcript ??= await this.transcript();
    const wire = parseOrThrow(SubmissionSchema, held.submission, "held message");
    const room = await requiredRoomKey(this.home, this.table, transcript);
    const submission = room ? await openSubmission(room, wire) : wire;
    const state = transcript.state;
    const texts = new OpenedTexts(this.table, room);
    const answered =
      "offer" in submission && submission.offer !== undefined && state?.room
        ? own(state.room.offers, submission.offer)
        : undefined;
    if (answered?.terms.text !== undefined) await texts.add(answered.seat, "terms.text", answered.terms.text);
    const bid = (commitment: string) => {
      const record = bidByCommitment(this.journal, commitment);
      return record && { amount: record.bid, currency: record.currency };
    };
    return {
      submission,
      binds: state ? moneyBound(this.journal, state, submission) : null,
      named: namedIn(state, { bid, open: texts.open }),
    };
  }

  /** The held messages not yet sent and not rejected, oldest first. */
  pending(): JournalRecordOf<"held">[] {
    return pendingHeld(this.journal);
  }

  /** Records the owner's signed answer to pending held message `hash` (gate.ts answerHeld: E_GATE unless pending, E_BAD_SIGNATURE unless `ownerSigner` is the seat's owner key in the verified transcript). */
  async answer(ownerSigner: Signer, hash: string, verdict: "approve" | "reject"): Promise<GateAnswer> {
    return answerHeld(this.journal, await this.transcript(), ownerSigner, hash, verdict);
  }

  /** Records the agent's private rationale (never sent). */
  rationale(text: string, re?: { seq?: number; message_sha256?: string }): JournalRecordOf<"rationale"> {
    return recordRationale(this.journal, text, re);
  }

  /** Tells the seat's owner `text` through their chat apps, never the table (of a held message when `about` says); sealed when this home holds the room's key, and refused (E_KEY_FILE, nothing sent) in an e2e room without it. */
  async tellOwner(text: string, about?: HeldAbout): Promise<NoteResponse> {
    const room =
      (await loadRoomKey(this.home, this.table)) ??
      (await requiredRoomKey(this.home, this.table, await this.transcript()));
    const seal = room
      ? (plain: string) => sealText(room, { table: this.table, seat: this.seat, field: "note" }, plain)
      : undefined;
    return tellOwner(this.client, this.signer, this.seat, this.journal, text, this.clock, seal, about);
  }

  /** The verified transcript as this seat reads it: from its live transcript when it keeps one, else its export. */
  transcript(): Promise<Transcript> {
    if (this.live) return this.live.transcript();
    return readTranscript(this.client, { signer: this.signer, as: { seat: this.seat } });
  }

  /** The mandate in force for this seat, judged against the transcript's owner key. */
  async mandate(transcript?: Transcript): Promise<MandateRead> {
    const ownerKey = seatOwnerKey(transcript ?? (await this.transcript()), this.seat);
    if (ownerKey === undefined)
      return {
        ok: false,
        reason: "not_signed",
        message: `the verified transcript does not show seat ${this.seat}'s owner, so no mandate can be checked`,
      };
    return readMandate(this.files.mandate, { table: this.table, seat: this.seat, ownerKey });
  }

  /** `given` is plaintext to be sealed (or not, outside an e2e room), or with `held` the exact message that was held. */
  private async guardAndSend(given: Submission, held: boolean): Promise<Sent> {
    let hash = canonicalSha256(given);
    const refuse = refuser(this.journal, given.kind, () => hash);
    const transcript = await this.transcript();
    const commitment = isCommitment(given);
    const { verdict } = transcript.report;
    if (verdict === "REFUTED" || (commitment && verdict !== "CLEAN")) {
      const why =
        verdict === "REFUTED"
          ? `REFUTED at ${transcript.report.refuted?.seq ?? "?"}: ${transcript.report.refuted?.reason ?? ""}`
          : `${verdict}: ${transcript.report.unchecked.join("; ")}`;
      refuse(
        "gate",
        "E_GATE",
        "unverified",
        `the table's transcript does not verify completely (${why}); nothing is ${commitment ? "committed" : "sent"}`,
        { verdict },
      );
    }
    const { plain, wire, room } = await sealForSend(this.home, this.table, transcript, given, held, refuse);
    hash = canonicalSha256(wire);
    const expired = held ? heldExpiry(plain, transcript.state, this.clock()) : null;
    if (expired)
      refuse(
        "gate",
        "E_GATE",
        "expired",
        `held message ${hash.slice(0, 16)}… can no longer be sent: ${expired} while it waited for the owner. Nothing was sent and no approval was spent; write a new message`,
      );
    const mandate = await this.mandate(transcript);
    let approval: string | undefined;
    let reservation: Reservation | null = null;
    if (!mandate.ok) {
      if (mandate.reason !== "no_mandate" || commitment)
        refuse("mandate", "E_MANDATE", mandate.reason, mandate.message);
    } else {
      const recent =
        mandate.mandate.never_disclose.length > 0
          ? await recentText(transcript.entries, this.table, this.seat, room)
          : [];
      checkMandateLimits(
        mandate.mandate,
        plain,
        { seat: this.seat, table: this.table, journal: this.journal, state: transcript.state, recent },
        refuse,
      );
      const categories = (citation: MatchCitation) =>
        this.matchCategories(mandate.mandate, mandate.file.owner_key, citation);
      await checkMarketScope(
        mandate.mandate,
        plain,
        { seat: this.seat, table: this.table, state: transcript.state, categories },
        refuse,
      );
      const allowanceAt = {
        home: this.home,
        seat: this.seat,
        table: this.table,
        journal: this.journal,
        transcript,
        clock: this.clock,
        reconcile: (store: AllowanceStore) => this.reconcileAllowance(store),
      };
      reservation = await reserveAllowance(mandate.mandate, plain, wire, hash, allowanceAt, refuse);
      approval = await approvalToSpend(this.journal, mandate.mandate, wire, hash, mandate.file.owner_key, refuse)
        .catch((error: unknown) => this.toldHeld(error, plain, hash, transcript, room !== null))
        .catch(async (error: unknown) => {
          await reservation?.dropped();
          throw error;
        });
    }
    let sent: ExactSent;
    try {
      sent = await sendExact(this.client, this.signer, this.journal, wire, hash, approval, this.live);
    } catch (error) {
      if (refusedByRelay(error)) await reservation?.dropped();
      throw error;
    }
    await reservation?.sent(sent.seq);
    return sent;
  }

  /**
   * Brings every room `store` counts an open commitment in up to date from its verified ledger
   * (allowance-reconcile.ts): this room as this seat, another as the seat that wrote there with its
   * key file in this home (a room whose key is not here keeps what it counts).
   */
  reconcileAllowance(store: AllowanceStore): Promise<AllowanceReconciled> {
    const other = seatReader(this.home, (room) =>
      TableClient.open({
        http: this.client.http,
        table: room,
        relayKey: this.client.tracker.relayKey,
        store: new FileHeadStore(this.home, this.clock),
      }),
    );
    const read = (room: string, seat: string) =>
      room === this.table && seat === this.seat ? this.transcript() : other(room, seat);
    return reconcileAllowance(store, read, this.clock);
  }

  /** The categories of the listings `citation`'s match cites, read once per match by this seat (market-scope.ts matchCategories). */
  private matchCategories(m: Mandate, ownerKey: string, citation: MatchCitation): Promise<string[]> {
    const key = `${citation.market}/${citation.seq}`;
    let read = this.categoriesRead.get(key);
    if (!read) {
      read = matchCategories(this.client.http, this.home, m, ownerKey, citation);
      this.categoriesRead.set(key, read);
      read.catch(() => this.categoriesRead.delete(key));
    }
    return read;
  }

  /** Rethrows `error`; an E_HELD first tells the owner's chat apps of held message `plain` (held-notice.ts), best effort: a failed note is in the journal. */
  private async toldHeld(
    error: unknown,
    plain: Submission,
    hash: string,
    transcript: Transcript,
    sealed: boolean,
  ): Promise<never> {
    if (error instanceof TrestleError && error.code === "E_HELD") {
      const state = transcript.state;
      const notice = heldNotice(plain, hash, state ? this.bindsOrNull(state, plain) : null, namedIn(state), sealed);
      await this.tellOwner(notice.text, notice.about).catch(() => undefined);
    }
    throw error;
  }

  /** The money `s` binds, or null when it names nothing it binds (an offer this machine has not seen). */
  private bindsOrNull(state: TableState, s: Submission): Terms | null {
    try {
      return moneyBound(this.journal, state, s);
    } catch (error) {
      if (error instanceof TrestleError) return null;
      throw error;
    }
  }
}
