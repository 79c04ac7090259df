/**
 * What a seat keeps for its owner alone (docs/ROOMS.md): private rationale, written to the journal
 * and never sent; and notes to the owner, sent through the relay to the owner's bound chat apps
 * (POST /tables/:id/notes, signed by the seat, never an entry of the table) and kept in the journal
 * with how the sending went. A note may tell of a message the gate holds (`held`): the relay turns it
 * into room news for the owner's chat apps (docs/CHAT-APPS.md "Room news").
 */
import { randomNonce, type Clock, type TableClient } from "../client/index.js";
import {
  NoteStatementSchema,
  parseOrThrow,
  signNote,
  TrestleError,
  type HeldNotice,
  type NoteResponse,
  type Signer,
} from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { JournalRecordOf } from "./records.js";

/** Records why the agent did something; nothing is sent anywhere. */
export function recordRationale(
  journal: Journal,
  text: string,
  re?: { seq?: number; message_sha256?: string },
): JournalRecordOf<"rationale"> {
  return journal.append({ type: "rationale", text, ...(re ? { re } : {}) }) as JournalRecordOf<"rationale">;
}

/** What a note tells of a held message, and the nonce it is sent with (the same for every note about that message, so the relay sends it once). */
export interface HeldAbout {
  held: HeldNotice;
  nonce: string;
}

/** Sends `text` (sealed by `seal` first, in an e2e room) to `seat`'s owner's chat apps, telling of a held message when `about` says, and records the plaintext (or the error) in the journal. */
export async function tellOwner(
  client: TableClient,
  seatSigner: Signer,
  seat: string,
  journal: Journal,
  text: string,
  clock: Clock,
  seal?: (plain: string) => Promise<string>,
  about?: HeldAbout,
): Promise<NoteResponse> {
  const sent = seal ? await seal(parseOrThrow(NoteStatementSchema.shape.text, text, "note")) : text;
  const held = about ? { held: about.held } : {};
  const request = await signNote(seatSigner, {
    table: client.table,
    seat,
    text: sent,
    ...held,
    nonce: about?.nonce ?? randomNonce(),
    ts: clock(),
  });
  try {
    const response = await client.http.noteOwner(client.table, request);
    journal.append({ type: "owner_note", text, id: response.id, queued: response.queued });
    return response;
  } catch (error) {
    journal.append({ type: "owner_note", text, error: error instanceof TrestleError ? error.code : "E_INTERNAL" });
    throw error;
  }
}
