/**
 * A deal in words (docs/ROOMS.md "Deals"): the certificate `trestle deal show` prints and the
 * principal window's deal card reads: pending or done, who (both owners with their keys and
 * seats), what and the price, each owner's signature, and the head that contains them.
 */
import type { DealParty, DealSignature, DealStatus, DealTerms } from "../protocol/index.js";
import { termsText } from "./terms.js";

/** A deal's status as its label (DONE or PENDING) and what that means, given the owners who signed: a pending deal names who has not signed, never reads as done. */
export function dealStatusWords(
  status: DealStatus,
  terms: DealTerms,
  signed: readonly string[],
): { label: string; meaning: string } {
  if (status === "done") return { label: "DONE", meaning: "both owners signed the same terms" };
  const missing = [terms.offered_by.owner, terms.accepted_by.owner].filter((o) => !signed.includes(o));
  return { label: "PENDING", meaning: `not final, waiting for ${missing.join(" and ")} to sign` };
}

/** A deal's status in one line: its label, then what it means (dealStatusWords). */
export function dealStatusText(status: DealStatus, terms: DealTerms, signed: readonly string[]): string {
  const { label, meaning } = dealStatusWords(status, terms, signed);
  return `${label}: ${meaning}`;
}

const party = (p: DealParty, role: string) => `${role} ${p.owner} (owner key ${p.key}), seat ${p.seat}`;

/** The certificate's lines: status, parties, terms, hash, signatures and, when given, the head that contains them. */
export function dealLines(d: {
  terms: DealTerms;
  deal: string;
  status: DealStatus;
  signatures: readonly DealSignature[];
  head?: { seq: number; link: string };
}): string[] {
  const { terms } = d;
  const auction = terms.via === "auction";
  return [
    `deal ${auction ? "settled by auction" : "on offer"} #${terms.offer_seq} in room ${terms.table}: ${dealStatusText(
      d.status,
      terms,
      d.signatures.map((s) => s.owner),
    )}`,
    party(terms.offered_by, auction ? "seller" : "offered by"),
    party(terms.accepted_by, auction ? "buyer" : "accepted by"),
    `terms: ${termsText(terms.terms)} (${auction ? "settled" : "accepted"} at entry #${terms.accept_seq})`,
    `terms hash: ${d.deal}`,
    ...d.signatures.map((s) => `signed by ${s.owner} in entry #${s.seq} (seat ${s.seat}): ${s.sig}`),
    ...(d.head ? [`head: entry #${d.head.seq}, link ${d.head.link}`] : []),
  ];
}
