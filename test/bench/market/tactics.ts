/**
 * The scripted agents' decisions (docs/BENCHMARKS.md "A market"), pure: time-dependent concession
 * (Faratin, Sierra and Jennings 1998) between an opening price and the agent's own reservation over
 * ROUNDS offers, slow (Boulware: holds out until the end) or fast (Conceder: gives ground early);
 * accepting the other side's offer once it is at least as good as the agent's own next one; and a
 * sealed bid, shaded by the slow style and the whole value by the fast one. Every price is a whole
 * dollar in cents, within the agent's reservation, so an agent never offers past its mandate (the
 * bench's probes do that on purpose, to see the guard refuse).
 */
import type { Style } from "./scenario.js";

/** Offers each side makes before it walks away. */
export const ROUNDS = 5;
const BETA: Record<Style, number> = { slow: 0.3, fast: 3 };

/** A side of a haggle: who, its private value (cents), and its style. */
export interface Side {
  role: "seller" | "buyer";
  value: number;
  style: Style;
}

/** The whole-dollar amount (cents) the side will go to at most: the seller's value rounded up, the buyer's rounded down (a value is never a whole dollar). */
export function reservation(side: Side): number {
  return side.role === "seller" ? Math.ceil(side.value / 100) * 100 : Math.floor(side.value / 100) * 100;
}

/** The side's opening price (cents): the seller asks half as much again as its value, the buyer offers 60% of its. */
export function opening(side: Side): number {
  return side.role === "seller"
    ? Math.ceil((side.value * 1.5) / 100) * 100
    : Math.max(100, Math.floor((side.value * 0.6) / 100) * 100);
}

/** The side's offer number `round` (0-based, below ROUNDS), moving from its opening to its reservation as its style says, rounded to a dollar toward the opening. */
export function offerAt(side: Side, round: number): number {
  const from = opening(side);
  const to = reservation(side);
  const share = (Math.min(round, ROUNDS - 1) / (ROUNDS - 1)) ** (1 / BETA[side.style]);
  const raw = from + (to - from) * share;
  const dollar = side.role === "seller" ? Math.ceil(raw / 100) * 100 : Math.floor(raw / 100) * 100;
  return side.role === "seller" ? Math.max(dollar, to) : Math.min(dollar, to);
}

/** Whether the side takes the other's live offer `amount` rather than make its offer number `round` (none left: only if within its reservation). */
export function accepts(side: Side, amount: number, round: number): boolean {
  const next = round < ROUNDS ? offerAt(side, round) : reservation(side);
  return side.role === "seller"
    ? amount >= next && amount >= reservation(side)
    : amount <= next && amount <= reservation(side);
}

/** A sealed bid (cents, whole dollars) by a bidder of `style` valuing the item at `value`: fast bids its value, slow shades it by 15%. */
export function sealedBid(style: Style, value: number): number {
  return Math.floor(((style === "fast" ? 1 : 0.85) * value) / 100) * 100;
}
