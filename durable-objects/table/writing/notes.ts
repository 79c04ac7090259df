/**
 * A seat's note to its own owner (docs/SPEC.md §5.10, §11.3): checked here, where the seat's key
 * and its owner are known, then handed to the owner's OwnerDO as an `owner_note` notification on
 * the existing outbox. It never enters the ledger and is never pushed to the room. The seat signs
 * it (purpose `note`) with a fresh time and nonce: a note is accepted within LIMITS.auth_window_ms
 * of the relay's clock, each nonce once, and at most NOTE_LIMITS.per_window per seat per window
 * (counted exactly, in this object's storage). In an end-to-end encrypted room (§5.12) the note must
 * be sealed (E_PLAINTEXT otherwise) and the notification carries none of it: the owner reads it on
 * the seat's machine.
 */
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { rateLimited, untilWindowEnds, waitText } from "../../../src/protocol/limits/rate-limited.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { Notification } from "../../../src/protocol/schemas/notify.js";
import { noticeBase } from "../../../src/protocol/reading/notifications.js";
import { isE2eRoom } from "../../../src/protocol/policy/sealed.js";
import { isSealedText } from "../../../src/protocol/signing/sealed-text.js";
import { NoteRequestSchema, type NoteResponse } from "../../../src/protocol/schemas/room.js";
import { unwrap } from "../../result.js";
import { windowOf } from "../../chat-directory/codes.js";
import { requireTable } from "./writes.js";
import type { TableContext } from "../context.js";
import { checkNotRevoked } from "../../../src/protocol/policy/seat-revoke.js";
import { refuseRevokedSigner } from "./revoked-signer.js";

/** How many notes a seat may send its owner per window. */
export const NOTE_LIMITS = { per_window: 10, window_ms: 10 * 60 * 1000 } as const;

/** Verifies a seat's note and queues it for its owner's chat channels; answers the event id and how many channels it went to. */
export async function sendOwnerNote(t: TableContext, storage: DurableObjectStorage, env: Env, body: unknown): Promise<NoteResponse> {
  const { note, sig } = parseOrThrow(NoteRequestSchema, body, "note request");
  const state = requireTable(t);
  if (note.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `the note is for table "${note.table}"`);
  const seat = own(state.seats, note.seat);
  if (seat) checkNotRevoked(state, seat.key);
  if (!seat || seat.left !== null) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${note.seat}" is not at this table`);
  if (!(await verifyStatement(seat.key, "note", note, sig))) {
    await refuseRevokedSigner(state, seat.name, "note", note, sig);
    throw new TrestleError("E_BAD_SIGNATURE", "the note is not signed by the seat's key");
  }
  const sealed = isE2eRoom(state);
  if (sealed && !isSealedText(note.text)) throw new TrestleError("E_PLAINTEXT", "this room is end-to-end encrypted: a note to the owner is sealed text (e2e1:…)", { path: "text" });
  const now = t.now();
  if (Math.abs(now - note.ts) > LIMITS.auth_window_ms) throw new TrestleError("E_EXPIRED", "the note's time is outside the window; check your clock");
  const id = `${state.table}:note:${note.seat}:${note.nonce}`;
  const seen = `note:${note.seat}:${note.nonce}`;
  if ((await storage.get<number>(seen)) !== undefined) return { id, queued: 0 };
  const counter = `notes:${note.seat}:${windowOf(now, NOTE_LIMITS.window_ms)}`;
  const sent = (await storage.get<number>(counter)) ?? 0;
  if (sent >= NOTE_LIMITS.per_window) {
    const wait = untilWindowEnds(now, NOTE_LIMITS.window_ms);
    throw rateLimited("notes_per_seat", wait, `a seat sends its owner at most ${NOTE_LIMITS.per_window} notes per ${NOTE_LIMITS.window_ms / 60_000} minutes; retry in ${waitText(wait)}`);
  }
  await storage.put({ [seen]: now, [counter]: sent + 1 });
  const ownerKey = ownerKeyOf(state, seat.owner);
  if (ownerKey === undefined) throw new TrestleError("E_INTERNAL", "a seated seat always has an owner");
  const event: Notification = { ...noticeBase(state), type: "owner_note", id, seat: note.seat, text: sealed ? "" : note.text };
  const { queued } = unwrap(await env.OWNERS.get(env.OWNERS.idFromName(ownerKey)).notify({ owner_key: ownerKey, events: [event] }));
  return { id, queued };
}
