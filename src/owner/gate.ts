/**
 * The commitment gate's approvals (docs/ROOMS.md): the owner signs `{ scope: "commit", table, seat,
 * message_sha256, verdict, nonce }` (purpose `commit`) over one held message's hash. An approval is
 * counted only if its signature verifies under the seat's owner key from the verified transcript;
 * it covers exactly that message (another message, even the same offer in another currency, has
 * another hash); it is spent once, before the message is sent, and stays spent whatever the send's
 * outcome; and a rejection of the message wins over any approval of it, whenever it was signed.
 */
import { randomNonce } from "../client/random.js";
import {
  own,
  signStatement,
  TrestleError,
  verifyStatement,
  type Signer,
  type Submission,
  type TableState,
} from "../protocol/index.js";
import { roomCommitment } from "../protocol/policy/kinds/registry.js";
import type { Journal } from "./journal.js";
import type { GateAnswerStatement, JournalRecordOf } from "./records.js";
import { seatOwnerKey, type Transcript } from "./transcript.js";

/** An owner's answer as recorded in the journal. */
export type GateAnswer = JournalRecordOf<"gate_answer">;

/** What the owner signed for a recorded answer. */
export function gateAnswerStatement(
  answer: Pick<GateAnswer, "table" | "seat" | "message_sha256" | "verdict" | "nonce">,
): GateAnswerStatement {
  const { table, seat, message_sha256, verdict, nonce } = answer;
  return { scope: "commit", table, seat, message_sha256, verdict, nonce };
}

/** The owner's answer signed with `ownerSigner`, as a journal record body. */
export async function signGateAnswer(
  ownerSigner: Signer,
  fields: Omit<GateAnswerStatement, "scope">,
): Promise<Omit<GateAnswer, "v" | "at">> {
  const statement = gateAnswerStatement(fields);
  return {
    ...fields,
    type: "gate_answer",
    owner_key: ownerSigner.publicKeyText,
    sig: await signStatement(ownerSigner, "commit", statement),
  };
}

/** The held messages of `journal`'s seat not yet sent and not rejected, oldest first. */
export function pendingHeld(journal: Journal): JournalRecordOf<"held">[] {
  const { records } = journal.read();
  const done = new Set(
    records.flatMap((r) =>
      r.type === "sent" || (r.type === "gate_answer" && r.verdict === "reject") ? [r.message_sha256] : [],
    ),
  );
  const pending = new Map<string, JournalRecordOf<"held">>();
  for (const r of records)
    if (r.type === "held" && !done.has(r.message_sha256) && !pending.has(r.message_sha256))
      pending.set(r.message_sha256, r);
  return [...pending.values()];
}

/** Where message `hash` stands in `journal`: never held, sent (as entry `seq`; a held message is sent once), rejected by the owner (final), or pending. */
export type HeldState =
  | { state: "unknown" }
  | { state: "sent"; seq: number }
  | { state: "rejected" }
  | { state: "pending"; held: JournalRecordOf<"held"> };

/** The state of message `hash` in `journal` (a send outranks a rejection recorded after it). */
export function heldState(journal: Journal, hash: string): HeldState {
  const { records } = journal.read();
  const held = records.find((r): r is JournalRecordOf<"held"> => r.type === "held" && r.message_sha256 === hash);
  if (!held) return { state: "unknown" };
  const sent = records.find((r) => r.type === "sent" && r.message_sha256 === hash);
  if (sent?.type === "sent") return { state: "sent", seq: sent.seq };
  if (records.some((r) => r.type === "gate_answer" && r.verdict === "reject" && r.message_sha256 === hash))
    return { state: "rejected" };
  return { state: "pending", held };
}

/** Why held message `s` can no longer be sent at `now`: its own expiry passed, or that of the offer it answers in `state`; null while it has not. */
export function heldExpiry(s: Submission, state: TableState | null, now: number): string | null {
  const { expires, answers } = roomCommitment(s);
  if (expires !== undefined && expires <= now) return `its own expiry passed at ${iso(expires)}`;
  if (answers === undefined) return null;
  const offer = state?.room ? own(state.room.offers, answers) : undefined;
  return offer && offer.expires !== null && offer.expires <= now
    ? `the offer it answers (entry ${offer.seq}) expired at ${iso(offer.expires)}`
    : null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Records the owner's signed answer to held message `hash` in `journal` (what `trestle gate
 * approve|reject`, the MCP tool and the principal window share): E_GATE (reason `not_pending`,
 * `details.state` saying why) unless the message is held and neither sent nor rejected, E_BAD_SIGNATURE unless `ownerSigner` is
 * the seat's owner key in `transcript` (verified); nothing is recorded then.
 */
export async function answerHeld(
  journal: Journal,
  transcript: Transcript,
  ownerSigner: Signer,
  hash: string,
  verdict: "approve" | "reject",
): Promise<GateAnswer> {
  const { table, seat } = journal.where;
  const held = heldState(journal, hash);
  if (held.state !== "pending") {
    const why =
      held.state === "sent"
        ? `it was sent as entry #${held.seq}, and a held message is sent once`
        : held.state === "rejected"
          ? "the owner rejected it, and a rejection is final"
          : "none was held with that hash";
    throw new TrestleError(
      "E_GATE",
      `no held message ${hash.slice(0, 16)}… is pending for seat ${seat} at ${table}: ${why}`,
      { reason: "not_pending", state: held.state, message_sha256: hash },
    );
  }
  if (seatOwnerKey(transcript, seat) !== ownerSigner.publicKeyText) {
    throw new TrestleError(
      "E_BAD_SIGNATURE",
      `that owner key does not own seat ${seat} at ${table}; its answer would not count`,
    );
  }
  const body = await signGateAnswer(ownerSigner, { table, seat, message_sha256: hash, verdict, nonce: randomNonce() });
  return journal.append(body) as GateAnswer;
}

/** The owner's answers to message `hash` whose signatures verify under `ownerKey`, split into approvals and whether any rejection exists. */
export async function answersTo(
  journal: Journal,
  hash: string,
  ownerKey: string,
): Promise<{ approvals: GateAnswer[]; rejected: boolean }> {
  const approvals: GateAnswer[] = [];
  let rejected = false;
  for (const answer of journal.ofType("gate_answer")) {
    if (answer.message_sha256 !== hash || answer.owner_key !== ownerKey) continue;
    if (!(await verifyStatement(ownerKey, "commit", gateAnswerStatement(answer), answer.sig))) continue;
    if (answer.verdict === "reject") rejected = true;
    else approvals.push(answer);
  }
  return { approvals, rejected };
}
