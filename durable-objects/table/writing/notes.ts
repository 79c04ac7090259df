/**
 * A seat's note to its own owner (docs/SPEC.md §5.10, §11.3): checked here, where the seat's key
 * and its owner are known, then handed to the owner's OwnerDO as an `owner_note` notification on
 * the existing outbox. It never enters the ledger and is never pushed to the room. The seat signs
 * it (purpose `note`) with a fresh time and nonce: a note is accepted within LIMITS.auth_window_ms
 * of the relay's clock, each nonce once, and at most NOTE_LIMITS.per_window per seat per window
 * (counted exactly, in this object's storage, together with its questions). In an end-to-end encrypted room (§5.12) the note must
 * be sealed (E_PLAINTEXT otherwise) and the notification carries none of it: the owner reads it on
 * the seat's machine. A note with `held` tells the owner that its gate holds a message (room news
 * `held`, docs/CHAT-APPS.md "Room news"): it goes out only when the owner's `room_news` setting
 * asks for held messages, and in an e2e room it may not carry terms (E_PLAINTEXT).
 */
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { Notification } from "../../../src/protocol/schemas/notify.js";
import { noticeBase } from "../../../src/protocol/reading/notifications.js";
import { isE2eRoom } from "../../../src/protocol/policy/sealed.js";
import { roomNewsSetting, wantsNews } from "../../../src/protocol/reading/room-news.js";
import { isSealedText } from "../../../src/protocol/signing/sealed-text.js";
import { noteRequestFor, type NoteResponse, type NoteStatement } from "../../../src/protocol/schemas/room.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { keepCounted, notifyOwner, presentSeat, requireOwnerKey } from "./owner-channel.js";
import { requireTable } from "./writes.js";
import type { TableContext } from "../context.js";
import { requireSigned } from "../signing/revoked-signer.js";

/** How many notes (and questions, §5.14) a seat may send its owner per window. */
export { NOTE_LIMITS } from "./owner-channel.js";

/**
 * Verifies a seat's note and queues it for its owner's chat channels; answers the event id and how
 * many channels it went to. Every check comes before the note's nonce and count are kept; the same
 * signed note sent again hands its event over again (the owner's object keeps it once), so a
 * hand-off that failed is completed by the resend.
 */
export async function sendOwnerNote(
  t: TableContext,
  storage: DurableObjectStorage,
  env: Env,
  body: unknown,
): Promise<NoteResponse> {
  const state = requireTable(t);
  const sealed = isE2eRoom(state);
  const { note, sig } = parseOrThrow(noteRequestFor(sealed), body, "note request");
  if (note.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `the note is for table "${note.table}"`);
  const seat = presentSeat(state, note.seat);
  const signed = { key: seat.key, seat: seat.name, purpose: "note", statement: note, sig } as const;
  await requireSigned(state, signed, { code: "E_BAD_SIGNATURE", message: "the note is not signed by the seat's key" });
  if (sealed && !isSealedText(note.text))
    throw new TrestleError(
      "E_PLAINTEXT",
      "this room is end-to-end encrypted: a note to the owner is sealed text (e2e1:…)",
      { path: "text" },
    );
  if (sealed && note.held?.terms !== undefined)
    throw new TrestleError("E_PLAINTEXT", "this room is end-to-end encrypted: a held message's note carries no terms", {
      path: "held.terms",
    });
  const now = t.now();
  if (Math.abs(now - note.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the note's time is outside the window; check your clock");
  const id = `${state.table}:note:${note.seat}:${note.nonce}`;
  const seen = `note:${note.seat}:${note.nonce}`;
  if ((await storage.get<number>(seen)) === undefined) await keepCounted(storage, note.seat, now, { [seen]: now });
  const event = noteEvent(state, seat.owner, id, note);
  return { id, queued: event ? await notifyOwner(env, requireOwnerKey(state, seat.owner), event) : 0 };
}

/** The notification a note makes: a held message's news when the owner's `room_news` asks for it (else none), or the note itself (its text only outside an e2e room). */
function noteEvent(state: TableState, owner: string, id: string, note: NoteStatement): Notification | null {
  if (note.held) {
    if (!wantsNews(roomNewsSetting(state, owner), "held")) return null;
    const { terms, ...held } = note.held;
    return {
      ...noticeBase(state),
      type: "room_news",
      id,
      news: "held",
      seat: note.seat,
      held,
      ...(terms ? { terms } : {}),
    };
  }
  return { ...noticeBase(state), type: "owner_note", id, seat: note.seat, text: isE2eRoom(state) ? "" : note.text };
}
