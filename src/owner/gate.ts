/**
 * The commitment gate's approvals (docs/ROOMS.md): the owner signs `{ scope: "commit", table, seat,
 * message_sha256, verdict, nonce }` (purpose `commit`) over one held message's hash. An approval is
 * counted only if its signature verifies under the seat's owner key from the verified transcript;
 * it covers exactly that message (another message, even the same offer in another currency, has
 * another hash); it is spent once, before the message is sent, and stays spent whatever the send's
 * outcome; and a rejection of the message wins over any approval of it, whenever it was signed.
 */
import { randomNonce } from "../client/random.js";
import { signStatement, TrestleError, verifyStatement, type Signer } from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { GateAnswerStatement, JournalRecordOf } from "./records.js";
import { seatOwnerKey, type Transcript } from "./transcript.js";

/** An owner's answer as recorded in the journal. */
export type GateAnswer = JournalRecordOf<"gate_answer">;

/** What the owner signed for a recorded answer. */
export function gateAnswerStatement(answer: Pick<GateAnswer, "table" | "seat" | "message_sha256" | "verdict" | "nonce">): GateAnswerStatement {
  const { table, seat, message_sha256, verdict, nonce } = answer;
  return { scope: "commit", table, seat, message_sha256, verdict, nonce };
}

/** The owner's answer signed with `ownerSigner`, as a journal record body. */
export async function signGateAnswer(ownerSigner: Signer, fields: Omit<GateAnswerStatement, "scope">): Promise<Omit<GateAnswer, "v" | "at">> {
  const statement = gateAnswerStatement(fields);
  return { ...fields, type: "gate_answer", owner_key: ownerSigner.publicKeyText, sig: await signStatement(ownerSigner, "commit", statement) };
}

/** The held messages of `journal`'s seat not yet sent and not rejected, oldest first. */
export function pendingHeld(journal: Journal): JournalRecordOf<"held">[] {
  const { records } = journal.read();
  const done = new Set(records.flatMap((r) => (r.type === "sent" || (r.type === "gate_answer" && r.verdict === "reject") ? [r.message_sha256] : [])));
  const pending = new Map<string, JournalRecordOf<"held">>();
  for (const r of records) if (r.type === "held" && !done.has(r.message_sha256) && !pending.has(r.message_sha256)) pending.set(r.message_sha256, r);
  return [...pending.values()];
}

/**
 * Records the owner's signed answer to held message `hash` in `journal` (what `trestle gate
 * approve|reject`, the MCP tool and the principal window share): E_GATE (reason `not_pending`)
 * unless the message is held and neither sent nor rejected, E_BAD_SIGNATURE unless `ownerSigner` is
 * the seat's owner key in `transcript` (verified); nothing is recorded then.
 */
export async function answerHeld(journal: Journal, transcript: Transcript, ownerSigner: Signer, hash: string, verdict: "approve" | "reject"): Promise<GateAnswer> {
  const { table, seat } = journal.where;
  if (!pendingHeld(journal).some((h) => h.message_sha256 === hash)) {
    throw new TrestleError("E_GATE", `no held message ${hash.slice(0, 16)}… is pending for seat ${seat} at ${table} (never held, already sent or rejected)`, { reason: "not_pending", message_sha256: hash });
  }
  if (seatOwnerKey(transcript, seat) !== ownerSigner.publicKeyText) {
    throw new TrestleError("E_BAD_SIGNATURE", `that owner key does not own seat ${seat} at ${table}; its answer would not count`);
  }
  const body = await signGateAnswer(ownerSigner, { table, seat, message_sha256: hash, verdict, nonce: randomNonce() });
  return journal.append(body) as GateAnswer;
}

/** The owner's answers to message `hash` whose signatures verify under `ownerKey`, split into approvals and whether any rejection exists. */
export async function answersTo(journal: Journal, hash: string, ownerKey: string): Promise<{ approvals: GateAnswer[]; rejected: boolean }> {
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
