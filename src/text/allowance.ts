/**
 * An owner's allowance across a market's rooms in words (docs/MARKETS.md "An owner's allowance"),
 * as `trestle allowance show|reconcile` and the principal window say it: what its store counts
 * (spent, reserved, open) and each open commitment. Pure: no I/O, no clock.
 */
import { majorUnits } from "./terms.js";

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
