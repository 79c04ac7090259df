/**
 * The last step of a guarded seat's write (guarded-seat.ts): the message the guards passed is signed
 * exactly as it is, with the newest verified head, and sent (over HTTP, or the seat's socket when it
 * keeps a live transcript); the seat's journal records that it left
 * (with the approval it spent) or that it failed, definitely refused or with its outcome unknown.
 */
import type { TableClient } from "../client/index.js";
import { signSubmission, TrestleError, type SignedHead, type Signer, type Submission } from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { LiveTranscript } from "./live-transcript.js";

/** A message that left: its entry's seq, the head that holds it, and its hash. */
export interface ExactSent {
  seq: number;
  head: SignedHead;
  truncated: boolean;
  message_sha256: string;
}

/** Whether a send failed with the relay's definite refusal (its envelope's code); no answer, or one that is not the protocol's, leaves the outcome unknown. */
export function refusedByRelay(error: unknown): boolean {
  const code = error instanceof TrestleError ? error.code : "E_INTERNAL";
  return code !== "E_NETWORK" && code !== "E_BAD_RESPONSE" && code !== "E_INTERNAL";
}

/** Signs exactly `submission` (hash `hash`) with `signer` and sends it, over `live`'s socket when given (else over HTTP); records whether it left, spending `approval` when given. */
export async function sendExact(
  client: TableClient,
  signer: Signer,
  journal: Journal,
  submission: Submission,
  hash: string,
  approval: string | undefined,
  live?: LiveTranscript,
): Promise<ExactSent> {
  const spent = approval === undefined ? {} : { approval };
  const since = client.tracker.held;
  const request = await signSubmission(signer, submission, client.tracker.knownHead());
  let response;
  try {
    response = await (live ? live.submit(request) : client.http.submit(client.table, request));
  } catch (error) {
    const code = error instanceof TrestleError ? error.code : "E_INTERNAL";
    journal.append({
      type: "send_failed",
      message_sha256: hash,
      kind: submission.kind,
      outcome: refusedByRelay(error) ? "refused" : "unknown",
      code,
      ...spent,
    });
    throw error;
  }
  journal.append({ type: "sent", message_sha256: hash, kind: submission.kind, seq: response.seq, ...spent });
  await client.tracker.observe(response.head, since);
  return { seq: response.seq, head: response.head, truncated: response.truncated, message_sha256: hash };
}
