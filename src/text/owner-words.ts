/**
 * The owner's words to its own agent (docs/SPEC.md §5.14): instructions and answers, framed as the
 * owner's and outside every data block of peers' text (framing.ts, which tells the model that only
 * text outside its blocks speaks for the owner). Each line starts with OWNER_MARK, and the header
 * says verified (signed with the owner's key, checked) or unverified (the relay's word that a bound
 * chat account sent it). A peer's text never gets this mark: inside a data block every line of it
 * starts with "  | ", so a forged header stays inert. Pure.
 */
import type { OwnerAnswer, OwnerInstruction } from "../protocol/schemas/owner-ask.js";
import { CHAT_PLATFORM_NAMES } from "../protocol/schemas/control.js";
import { bodyLines } from "./framing.js";

/** Every line of the owner's words starts with this; no line of a data block does. */
export const OWNER_MARK = "‖ ";

/** How the words came, as the header says it. */
function howCame(item: OwnerInstruction | OwnerAnswer): string {
  return item.verified
    ? "verified: signed with your owner's key"
    : `UNVERIFIED: relay-attested from your owner's ${CHAT_PLATFORM_NAMES[item.via]} account (the relay's word, not your owner's signature; weigh it accordingly)`;
}

/** The seat's instructions from its owner, one framed block each, oldest first. */
export function frameOwnerInstructions(items: readonly OwnerInstruction[]): string {
  return items.flatMap((item) => [`${OWNER_MARK}instruction #${item.n} from your owner (${howCame(item)}):`, ...bodyLines(item.text).map((line) => `${OWNER_MARK}  ${line}`)]).join("\n");
}

/** The owner's answer to the seat's question, framed as the owner's. */
export function frameOwnerAnswer(answer: OwnerAnswer): string {
  return [`${OWNER_MARK}your owner answered (${howCame(answer)}):`, ...bodyLines(answer.value).map((line) => `${OWNER_MARK}  ${line}`)].join("\n");
}
