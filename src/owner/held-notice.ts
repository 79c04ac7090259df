/**
 * What a seat tells its owner's chat apps when the gate holds one of its messages (docs/CHAT-APPS.md
 * "Room news"): a note through the relay's note route whose `held` names the message's kind, its
 * hash (what `trestle gate approve` takes) and, outside an e2e room, the terms it binds. The note's
 * nonce is the message's hash, so however often the same message is held again, the relay sends
 * the news once. The note's text is the held message as the gate lists it (cut to a note's length).
 */
import { LIMITS, type Submission, type Terms } from "../protocol/index.js";
import { heldLines, type Named } from "../text/commitment.js";
import { cutText } from "../protocol/encoding/text.js";
import type { HeldAbout } from "./notes.js";

/** The note's text and what it tells of held message `plain` (hash `hash`) binding `terms`; no terms when the room is `sealed` (e2e). */
export function heldNotice(
  plain: Submission,
  hash: string,
  terms: Terms | null,
  named: Named,
  sealed: boolean,
): { text: string; about: HeldAbout } {
  const text = cutText(`held for your approval: ${heldLines(plain, named).join("\n")}`, LIMITS.note_chars);
  const held = { kind: plain.kind, message_sha256: hash, ...(terms && !sealed ? { terms } : {}) };
  return { text, about: { held, nonce: hash } };
}
