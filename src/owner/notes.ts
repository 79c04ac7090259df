/**
 * What a seat keeps for its owner alone (docs/ROOMS.md): private rationale, written to the journal
 * and never sent; and notes to the owner, sent through the relay to the owner's bound chat apps
 * (POST /tables/:id/notes, signed by the seat, never an entry of the table) and kept in the journal
 * with how the sending went.
 */
import { randomNonce, type Clock, type TableClient } from "../client/index.js";
import { NoteStatementSchema, parseOrThrow, signNote, TrestleError, type NoteResponse, type Signer } from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { JournalRecordOf } from "./records.js";

/** Records why the agent did something; nothing is sent anywhere. */
export function recordRationale(journal: Journal, text: string, re?: { seq?: number; message_sha256?: string }): JournalRecordOf<"rationale"> {
  return journal.append({ type: "rationale", text, ...(re ? { re } : {}) }) as JournalRecordOf<"rationale">;
}

/** Sends `text` (sealed by `seal` first, in an e2e room) to `seat`'s owner's chat apps and records the plaintext (or the error) in the journal. */
export async function tellOwner(
  client: TableClient,
  seatSigner: Signer,
  seat: string,
  journal: Journal,
  text: string,
  clock: Clock,
  seal?: (plain: string) => Promise<string>,
): Promise<NoteResponse> {
  const sent = seal ? await seal(parseOrThrow(NoteStatementSchema.shape.text, text, "note")) : text;
  const request = await signNote(seatSigner, { table: client.table, seat, text: sent, nonce: randomNonce(), ts: clock() });
  try {
    const response = await client.http.noteOwner(client.table, request);
    journal.append({ type: "owner_note", text, id: response.id, queued: response.queued });
    return response;
  } catch (error) {
    journal.append({ type: "owner_note", text, error: error instanceof TrestleError ? error.code : "E_INTERNAL" });
    throw error;
  }
}
