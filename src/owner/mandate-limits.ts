/**
 * The mandate's limits on one message of a seat (docs/ROOMS.md "Mandates"): paused, never_disclose
 * over every field the seat wrote (with its recent free text in the room), and the money cap, floor
 * and currency over the terms a commitment or a sealed bid's reveal binds the owner to.
 */
import { TrestleError, type Submission, type TableState, type Terms } from "../protocol/index.js";
import { bidTerms, revealedLater } from "./bids.js";
import { marketBidTerms } from "./market-bids.js";
import { boundTerms, isCommitment } from "./commitments.js";
import { authoredPart, disclosureMessage, findDisclosure } from "./disclosure.js";
import type { Refuse } from "./guard-refusal.js";
import type { Journal } from "./journal.js";
import type { Mandate } from "./records.js";

/** The money `s` binds the owner to: a sealed bid's (from the journal) or a reveal's, an auction's or a listing's, else the terms of boundTerms; throws what boundTerms throws. */
export function moneyBound(journal: Journal, state: TableState, s: Submission): Terms | null {
  return bidTerms(journal, state, s) ?? marketBidTerms(journal, state, s) ?? boundTerms(state, s);
}

/** Where the message is judged: the seat, its table and journal, the verified state (null before the table opened) and the seat's recent free text. */
export interface LimitsContext {
  seat: string;
  table: string;
  journal: Journal;
  state: TableState | null;
  recent: string[];
}

/** Applies mandate `m`'s limits to `s`; calls `refuse` (which throws) on the first it breaks, and returns only when `s` keeps them all. */
export function checkMandateLimits(m: Mandate, s: Submission, at: LimitsContext, refuse: Refuse): void {
  if (m.paused)
    refuse(
      "mandate",
      "E_MANDATE",
      "paused",
      `the owner paused seat ${at.seat} at ${at.table}: it writes nothing until they resume it`,
    );
  const judged =
    (isCommitment(s) || (s.kind === "mechanism" && s.op === "reveal") || s.kind === "bid") && at.state !== null;
  let terms: Terms | null = null;
  let unbound: TrestleError | null = null;
  try {
    terms = judged ? moneyBound(at.journal, at.state!, s) : null;
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    unbound = error;
  }
  const later = revealedLater(at.journal, s);
  const check = {
    never: m.never_disclose,
    recent: at.recent,
    secretAmount: m.secret_amount,
    currency: terms?.currency,
  };
  const found = findDisclosure(authoredPart(later ? { ...s, reveals: later } : s), check);
  if (found)
    refuse("disclosure", "E_MANDATE", "disclose", disclosureMessage(found), {
      index: found.index,
      path: found.path,
      form: found.form,
    });
  if (unbound) return refuse("mandate", unbound.code, String(unbound.details?.reason ?? "unknown"), unbound.message);
  if (terms?.amount === undefined) return;
  const money = m.money;
  const said = `${terms.amount} ${terms.currency} (minor units)`;
  if (!money)
    refuse("mandate", "E_MANDATE", "cap", `the mandate allows no money commitment (cap 0); ${said} was not committed`, {
      amount: terms.amount,
    });
  else if (terms.currency !== money.currency)
    refuse(
      "mandate",
      "E_MANDATE",
      "currency",
      `the mandate's money is in ${money.currency}, not ${terms.currency}; nothing was committed`,
    );
  else if (terms.amount > money.cap)
    refuse("mandate", "E_MANDATE", "cap", `${said} is above the mandate's cap; it was not committed`);
  else if (money.floor !== undefined && terms.amount < money.floor)
    refuse("mandate", "E_MANDATE", "floor", `${said} is below the mandate's floor; it was not committed`);
}
