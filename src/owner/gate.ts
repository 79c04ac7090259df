/**
 * The commitment gate's approvals (docs/ROOMS.md): the owner signs `{ scope: "commit", table, seat,
 * message_sha256, verdict, nonce }` (purpose `commit`) over one held message's hash. An approval is
 * counted only if its signature verifies under the seat's owner key from the verified transcript;
 * it covers exactly that message (another message, even the same offer in another currency, has
 * another hash); it is spent once, before the message is sent, and stays spent whatever the send's
 * outcome; and a rejection of the message wins over any approval of it, whenever it was signed.
 */
import { signStatement, verifyStatement, type Signer } from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { GateAnswerStatement, JournalRecordOf } from "./records.js";

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
