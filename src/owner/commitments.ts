/**
 * Which writes commit the owner (docs/ROOMS.md), as each room kind's module declares it
 * (protocol/policy/kinds, `commitment`): an offer or counter, an accept, a grant, a close with a
 * deal, and a sealed bid's commit (docs/SPEC.md §5.11, and on a market's listing §5.15; its money
 * is judged from the journal, bids.ts and market-bids.ts). The terms a write binds the owner to are its own for an offer or counter, and the
 * offer's for an accept or a deal, read from the verified transcript: an accept that leaves the
 * amount out is judged by the amount it inherits, never as "no amount".
 */
import { own, TrestleError, type Submission, type TableState, type Terms } from "../protocol/index.js";
import { roomCommitment } from "../protocol/policy/kinds/registry.js";
import { isMarketBidCommit } from "./market-bids.js";

/** Whether writing `s` commits the seat's owner to something (its kind's module says; a market bid's commit does too). */
export function isCommitment(s: Submission): boolean {
  return roomCommitment(s).commits || isMarketBidCommit(s);
}

/** The terms `s` binds the owner to, from the transcript's state for an accept or a deal; null when it names none. */
export function boundTerms(state: TableState, s: Submission): Terms | null {
  const binds = roomCommitment(s).binds;
  if (binds === null) return null;
  if ("terms" in binds) return binds.terms;
  const offer = state.room ? own(state.room.offers, binds.offer) : undefined;
  if (!offer)
    throw new TrestleError("E_UNKNOWN_OFFER", `no offer ${binds.offer.slice(0, 16)}… in the verified transcript`, {
      offer: binds.offer,
    });
  return offer.terms;
}

/** Whether `s` needs the owner's approval of its hash while the mandate is loosened: an accept, a grant, a sealed bid (an auction's or a listing's), or a priced offer or counter. */
export function gatedWhenLoosened(s: Submission): boolean {
  return roomCommitment(s).gatedWhenLoosened || isMarketBidCommit(s);
}
