/**
 * Exact decimal values for the leak gate (docs/ROOMS.md "never_disclose"): a number read from text
 * is `n / 10^s` with a bigint `n`, so "2,400", "2400.00", "2.4k" and 二千四百 compare equal as
 * values, never as strings and never through floating point. Values with more than MAX_DIGITS
 * significant digits are not amounts anyone types; reading them is refused (null), which bounds
 * the work a hostile message can cause.
 */

/** A non-negative decimal `n / 10^s`, normalised: `s >= 0`, and `n` ends in no zero while `s > 0`. */
export interface Dec {
  n: bigint;
  s: number;
}

/** Most significant digits a value may have (a 64-digit account number still fits). */
const MAX_DIGITS = 64;

function normal(n: bigint, s: number): Dec {
  while (s > 0 && n % 10n === 0n) {
    n /= 10n;
    s -= 1;
  }
  if (s < 0) return { n: n * 10n ** BigInt(-s), s: 0 };
  return { n, s };
}

/** The value of ASCII digits `whole` with fraction digits `frac`; null when either is not digits or it has more than MAX_DIGITS significant digits. */
export function decOf(whole: string, frac = ""): Dec | null {
  if (!/^[0-9]*$/.test(whole) || !/^[0-9]*$/.test(frac) || whole + frac === "") return null;
  const digits = (whole + frac).replace(/^0+/, "");
  if (digits.length > MAX_DIGITS) return null;
  return normal(BigInt(digits === "" ? "0" : digits), frac.length);
}

/** The value of a non-negative safe integer. */
export function decInt(n: number | bigint): Dec {
  return normal(BigInt(n), 0);
}

/** `d` times `10^power` (a negative power divides). */
export function shift(d: Dec, power: number): Dec {
  return normal(d.n, d.s - power);
}

/** `d` times the integer `k`. */
export function times(d: Dec, k: bigint): Dec {
  return normal(d.n * k, d.s);
}

/** `a + b`. */
export function plus(a: Dec, b: Dec): Dec {
  const s = Math.max(a.s, b.s);
  return normal(a.n * 10n ** BigInt(s - a.s) + b.n * 10n ** BigInt(s - b.s), s);
}

/** Whether `a < b`. */
export function less(a: Dec, b: Dec): boolean {
  const s = Math.max(a.s, b.s);
  return a.n * 10n ** BigInt(s - a.s) < b.n * 10n ** BigInt(s - b.s);
}

/** The canonical text of `d` ("2400", "2.4", "0.05"): equal values, equal keys. */
export function decKey(d: Dec): string {
  if (d.s === 0) return d.n.toString();
  const digits = d.n.toString().padStart(d.s + 1, "0");
  return `${digits.slice(0, -d.s)}.${digits.slice(-d.s)}`;
}

/** Whether `d` has more than MAX_DIGITS digits (a product grew past what is read). */
export function tooLong(d: Dec): boolean {
  return d.n.toString().length > MAX_DIGITS;
}

/** `a - b`, or null when it would be negative. */
export function minus(a: Dec, b: Dec): Dec | null {
  if (less(a, b)) return null;
  const s = Math.max(a.s, b.s);
  return normal(a.n * 10n ** BigInt(s - a.s) - b.n * 10n ** BigInt(s - b.s), s);
}

/** `a * b`. */
export function product(a: Dec, b: Dec): Dec {
  return normal(a.n * b.n, a.s + b.s);
}

/** `a / b` when it is a decimal of at most MAX_DIGITS fraction digits (4800 / 2, 9 / 4), else null (7 / 3, a zero divisor). */
export function divide(a: Dec, b: Dec): Dec | null {
  if (b.n === 0n) return null;
  const num = a.n * 10n ** BigInt(b.s);
  const den = b.n * 10n ** BigInt(a.s);
  for (let s = 0; s <= MAX_DIGITS; s++) {
    const scaled = num * 10n ** BigInt(s);
    if (scaled % den === 0n) return normal(scaled / den, s);
  }
  return null;
}
