/**
 * A guarded seat's message in an end-to-end encrypted room (docs/SPEC.md §5.12): the room key the
 * seat needs (this home's, and E_KEY_FILE when the verified config says `e2e` and the home has
 * none), and the plaintext the guards judge beside the sealed message that is hashed, held and
 * signed. A sealed body is never cut: one over the room's max_chars is refused.
 */
import { isE2eRoom, maxChars, TrestleError, type Submission } from "../protocol/index.js";
import type { Refuse } from "./guard-refusal.js";
import { loadRoomKey } from "./room-key.js";
import { openSubmission, sealSubmission, type RoomKey } from "./sealing.js";
import type { Transcript } from "./transcript.js";

/** The room key of `table` when the room is sealed: the one `home` holds, E_KEY_FILE when the verified transcript shows an e2e room and it holds none, else null. */
export async function requiredRoomKey(home: string, table: string, transcript: Transcript): Promise<RoomKey | null> {
  const room = await loadRoomKey(home, table);
  const opened = transcript.entries[0];
  const sealed =
    opened?.kind === "system" && opened.subkind === "table_opened" && opened.data.config.room?.e2e === true;
  if (!room && (sealed || (transcript.state !== null && isE2eRoom(transcript.state)))) {
    throw new TrestleError(
      "E_KEY_FILE",
      `room ${table} is end-to-end encrypted and this machine has no key for it; join with the full invite link, which carries it`,
      { reason: "no_room_key" },
    );
  }
  return room;
}

/** The plaintext the guards judge and the message that is signed at `table` (`given` is plaintext, or with `held` the exact message that was held): sealed under the room key in an e2e room, else the same. */
export async function sealForSend(
  home: string,
  table: string,
  transcript: Transcript,
  given: Submission,
  held: boolean,
  refuse: Refuse,
): Promise<{ plain: Submission; wire: Submission; room: RoomKey | null }> {
  let room: RoomKey | null;
  try {
    room = await requiredRoomKey(home, table, transcript);
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    return refuse("e2e", error.code, "no_room_key", `${error.message}; nothing was sent`);
  }
  if (!room) return { plain: given, wire: given, room };
  if (held) return { plain: await openSubmission(room, given), wire: given, room };
  const wire = await sealSubmission(room, given);
  const max = transcript.state ? maxChars(transcript.state.config) : Infinity;
  if (wire.body.length > max)
    refuse(
      "e2e",
      "E_TOO_LARGE",
      "sealed_too_long",
      `sealed, the body is ${wire.body.length} chars, over this room's max_chars ${max} (a sealed body is never cut); write less`,
    );
  return { plain: given, wire, room };
}
