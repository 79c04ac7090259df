/**
 * An owner's allowance across a market's rooms in words (docs/MARKETS.md "An owner's allowance"),
 * as `trestle allowance show|reconcile` and the principal window say it: what its store counts
 * (spent, reserved, open) and each commitment, a market's sealed bids among them. Pure: no I/O, no
 * clock.
 */
import { majorUnits, shortHash } from "./terms.js";

/** What an allowance store counts: the buyer's amounts spent and reserved, and the commitments open on either side. */
export interface CountedTotals {
  spent: number;
  reserved: number;
  open: number;
}

/** `amount` minor units of `currency` in words ("25.00 USD"); the bare number when no commitment named a currency yet. */
export function allowanceAmount(amount: number, currency: string | undefined): string {
  return currency === undefined ? String(amount) : `${majorUnits(amount, currency)} ${currency}`;
}

/** The totals in words, in `currency` (the one the buyer's commitments are in): "spent 25.00 USD, reserved 10.00 USD, 1 open". */
export function allowanceTotalsText(totals: CountedTotals, currency: string | undefined): string {
  return `spent ${allowanceAmount(totals.spent, currency)}, reserved ${allowanceAmount(totals.reserved, currency)}, ${totals.open} open`;
}

/** A commitment's write in words: its kind and entry ("accept #12", "offer (not yet seen in its room)"), and for a sealed bid the listing it is on and, once it won, where its sale's deal is counted. */
export function commitmentText(c: { kind: string; seq?: number; listing?: string; sale?: string }): string {
  const entry = c.seq === undefined ? " (not yet seen in its room)" : ` #${c.seq}`;
  if (c.listing === undefined) return `${c.kind}${entry}`;
  const won = c.sale === undefined ? "" : `, won: counts the deal of its sale's room ${c.sale}`;
  return `sealed ${c.kind}${entry} on listing ${shortHash(c.listing)}${won}`;
}
