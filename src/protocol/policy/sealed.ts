/**
 * End-to-end encrypted rooms (docs/SPEC.md §5.12, decision 0281): in a room whose config has
 * `room.e2e`, every free-text field of an authored entry (its body, an offer's terms text) is
 * sealed text or, for a body, empty; the structure the policy judges (kinds, amounts, currencies,
 * offers named, deadlines, bids) stays in the clear. A sealed body is never cut: a cut ciphertext
 * opens for nobody. Checked in admit, so every verifier replays it.
 */
import { TrestleError } from "../errors.js";
import type { AuthoredDraft } from "../schemas/entry.js";
import { isSealedText, sealedFieldsOf } from "../signing/sealed-text.js";
import type { TableState } from "./state.js";

/** Whether `state` is an end-to-end encrypted room. */
export function isE2eRoom(state: TableState): boolean {
  return state.config.room?.e2e === true;
}

/** Throws E_PLAINTEXT for a free-text field that is not sealed in an e2e room, E_TOO_LARGE for a sealed body the relay would cut; other tables pass. */
export function checkSealed(state: TableState, draft: AuthoredDraft): void {
  if (!isE2eRoom(state)) return;
  if (draft.truncated) {
    throw new TrestleError(
      "E_TOO_LARGE",
      `a sealed body is never cut: this one is ${draft.truncated.chars} chars, over the floor's max_chars`,
    );
  }
  for (const [field, text] of sealedFieldsOf(draft)) {
    if (!isSealedText(text)) {
      throw new TrestleError(
        "E_PLAINTEXT",
        `${field} is not sealed text (e2e1:…): this room is end-to-end encrypted, so the relay takes no plaintext`,
        { path: field },
      );
    }
  }
}
