/**
 * Which writes commit the owner (docs/ROOMS.md): an offer or counter, an accept, a grant, a close
 * with a deal, and a sealed bid's commit (docs/SPEC.md §5.11; its money is judged from the journal, bids.ts). The terms a write binds the owner to are its own for an offer or counter, and
 * the offer's for an accept or a deal, read from the verified transcript: an accept that leaves the
 * amount out is judged by the amount it inherits, never as "no amount".
 */
import { own, TrestleError, type Submission, type TableState, type Terms } from "../protocol/index.js";

/** Whether writing `s` commits the seat's owner to something. */
export function isCommitment(s: Submission): boolean {
  return s.kind === "offer" || s.kind === "counter" || s.kind === "accept" || s.kind === "grant" || (s.kind === "close" && s.outcome === "deal") || isBidCommit(s);
}

/** The terms `s` binds the owner to, from the transcript's state for an accept or a deal; null when it names none. */
export function boundTerms(state: TableState, s: Submission): Terms | null {
  if (s.kind === "offer" || s.kind === "counter") return s.terms;
  const named = s.kind === "accept" ? s.offer : s.kind === "close" ? s.offer : undefined;
  if (named === undefined) return null;
  const offer = state.room ? own(state.room.offers, named) : undefined;
  if (!offer) throw new TrestleError("E_UNKNOWN_OFFER", `no offer ${named.slice(0, 16)}… in the verified transcript`, { offer: named });
  return offer.terms;
}

/** Whether `s` needs the owner's approval of its hash while the mandate is loosened: an accept, a grant, a sealed bid, or a priced offer or counter. */
export function gatedWhenLoosened(s: Submission): boolean {
  return s.kind === "accept" || s.kind === "grant" || isBidCommit(s) || ((s.kind === "offer" || s.kind === "counter") && s.terms.amount !== undefined);
}

/** Whether `s` commits a sealed bid. */
function isBidCommit(s: Submission): boolean {
  return s.kind === "mechanism" && s.op === "commit";
}
