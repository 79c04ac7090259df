/**
 * Whether something states a member's private figure (its floor or cap), read the way the owner's
 * leak gate reads a message (src/owner/disclosure.ts: any spelling of the number, as text or as a
 * money amount) and also as the bare amount in minor units. The random parts are left out first:
 * every string that is one token of 16 or more letters, digits, `-` and `_` (a hash, key,
 * signature, nonce or id), in which a run of digits appears by chance.
 */
import { findDisclosure } from "../owner/index.js";
import { secretOf, type PrivateFigure } from "./market-cast.js";

/** A token a signer or the relay made: no words, only one long run of id characters. */
const TOKEN = /^[A-Za-z0-9_-]{16,}$/;

/** `value` as plain JSON data without its tokens (TOKEN). */
export function withoutTokens(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" && TOKEN.test(v) ? undefined : v)) ?? "null",
  );
}

/** Whether `value` states `figure`: in any spelling the leak gate reads, or as its amount in minor units. */
export function statesFigure(value: unknown, figure: PrivateFigure): boolean {
  const data = withoutTokens(value);
  if (findDisclosure(data, { never: [secretOf(figure)], currency: "TWD" }) !== null) return true;
  return new RegExp(`(?<![0-9])${figure.amount}(?![0-9])`).test(JSON.stringify(data));
}
