/**
 * The commitment gate when a seat sends (docs/ROOMS.md "The gate"): a message the mandate holds for
 * the owner (require_confirm names its kind, or the mandate was loosened and it commits) leaves only
 * by spending one unspent owner approval of its exact hash from the seat's journal; without one it
 * is held there (E_HELD) for the owner to answer, and a rejected or spent approval is refused.
 */
import { TrestleError, type Submission } from "../protocol/index.js";
import { gatedWhenLoosened } from "./commitments.js";
import { answersTo } from "./gate.js";
import type { Refuse } from "./guard-refusal.js";
import type { Journal } from "./journal.js";
import type { Mandate } from "./records.js";

/** The nonce of the owner's approval message `s` (hash `hash`) spends, or undefined when it needs none; holds it (E_HELD) or refuses it otherwise. */
export async function approvalToSpend(
  journal: Journal,
  m: Mandate,
  s: Submission,
  hash: string,
  ownerKey: string,
  refuse: Refuse,
): Promise<string | undefined> {
  const why = m.require_confirm.includes(s.kind)
    ? "require_confirm"
    : m.loosened && gatedWhenLoosened(s)
      ? "loosened"
      : null;
  if (why === null) return undefined;
  const { approvals, rejected } = await answersTo(journal, hash, ownerKey);
  if (rejected) refuse("gate", "E_GATE", "rejected", "the owner rejected this message; it will not be sent");
  const unspent = approvals.find((a) => !journal.spent(a.nonce));
  if (!unspent) {
    if (approvals.length > 0)
      refuse(
        "gate",
        "E_GATE",
        "spent",
        "the owner's approval of this message was already spent; they approve it again to send it again",
      );
    if (!journal.ofType("held").some((h) => h.message_sha256 === hash)) {
      journal.append({ type: "held", message_sha256: hash, why, submission: s as unknown as Record<string, unknown> });
    }
    const because =
      why === "require_confirm"
        ? `the mandate holds every ${s.kind} for the owner`
        : "the mandate was loosened, so each commitment needs the owner";
    throw new TrestleError(
      "E_HELD",
      `held: ${because}; the owner approves message ${hash} (trestle gate approve ${hash.slice(0, 12)})`,
      { message_sha256: hash, why },
    );
  }
  if (!journal.spend(unspent.nonce))
    refuse("gate", "E_GATE", "spent", "the owner's approval of this message was spent by another process");
  return unspent.nonce;
}
