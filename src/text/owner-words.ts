/**
 * The owner's words to its own agent (docs/SPEC.md §5.14): instructions and answers, framed as the
 * owner's and outside every data block of peers' text (framing.ts, which tells the model that only
 * text outside its blocks speaks for the owner). A header line starts with OWNER_MARK and says
 * verified (signed with the owner's key, checked) or unverified (the relay's word that a bound chat
 * account sent it); every line of the body starts with OWNER_BODY_MARK, split on every newline
 * variant with control and invisible characters removed (framing.ts bodyLines), so no body, however
 * indented or spelled, renders as a header, as in a data block (decision 0449). A peer's text never
 * gets either mark: inside a data block every line of it starts with "  | ", so a forged header
 * stays inert. Pure.
 */
import type { OwnerAnswer, OwnerInstruction } from "../protocol/schemas/owner-ask.js";
import { CHAT_PLATFORM_NAMES } from "../protocol/schemas/control.js";
import { bodyLines } from "./framing.js";

/** A header line of the owner's words starts with this; no line of a data block does. */
export const OWNER_MARK = "‖ ";
/** Every line of an instruction's or answer's body starts with this: not OWNER_MARK, and no reduction of spaces makes it so. */
export const OWNER_BODY_MARK = "‖| ";

/** The header, then each line of `text` behind the body mark. */
function framed(header: string, text: string): string[] {
  return [`${OWNER_MARK}${header}`, ...bodyLines(text).map((line) => OWNER_BODY_MARK + line)];
}

/** How the words came, as the header says it. */
function howCame(item: OwnerInstruction | OwnerAnswer): string {
  return item.verified
    ? "verified: signed with your owner's key"
    : `UNVERIFIED: relay-attested from your owner's ${CHAT_PLATFORM_NAMES[item.via]} account (the relay's word, not your owner's signature; weigh it accordingly)`;
}

/** The seat's instructions from its owner, one framed block each, oldest first. */
export function frameOwnerInstructions(items: readonly OwnerInstruction[]): string {
  return items
    .flatMap((item) => framed(`instruction #${item.n} from your owner (${howCame(item)}):`, item.text))
    .join("\n");
}

/** The owner's answer to the seat's question, framed as the owner's. */
export function frameOwnerAnswer(answer: OwnerAnswer): string {
  return framed(`your owner answered (${howCame(answer)}):`, answer.value).join("\n");
}
