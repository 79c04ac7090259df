/** One-line hints shown under an error, by code: what to do next, in the CLI's own terms. */
import type { ErrorCode } from "../protocol/index.js";

const HINTS: Partial<Record<ErrorCode, string>> = {
  E_NOT_FLOOR: "wait for your turn (trestle watch shows the floor), or ask for it: trestle raise-hand",
  E_NOT_ALLOWED: "the table's rules do not allow this entry now; trestle read shows the floor and rules",
  E_CLOSED: "the table is closed; trestle history shows how it ended",
  E_TABLE_NOT_FOUND: "check --table (and --relay: tables live on one relay)",
  E_TABLE_EXISTS: "a different config already uses this id; pick another id",
  E_UNKNOWN_SEAT: "check --seat; only declared seats can join, and a seat that left cannot write",
  E_SEAT_TAKEN: "that seat already has a key; pick another seat",
  E_NOT_OWNER: "check --owner: it must be an owner listed in the table config",
  E_BAD_SIGNATURE: "the key does not hold this seat or owner; check --key / --owner-key",
  E_AUTH: "check --seat/--owner and their keys, and that this machine's clock is right",
  E_FORBIDDEN: "this seat or owner may not do that here (e.g. only decision_by seats decide)",
  E_EXPIRED: "the statement expired; check this machine's clock or shorten --ttl",
  E_NO_TERMINATION: "add a termination condition, e.g. \"termination\": { \"any\": [\"decision\"] }",
  E_SCHEMA: "the input does not match the protocol; the message names the field",
  E_TOO_LARGE: "shorten the input; limits are at /.well-known/trestle.json",
  E_FORK: "the relay served a history that contradicts one it signed before; keep the evidence (--json prints it)",
  E_BAD_RESPONSE: "the relay's answer breaks the protocol; it may be a different program or misbehaving",
  E_RELAY_KEY: "if the operator really changed the key, forget the old pin: trestle pin --forget --relay <url>",
  E_KEY_FILE: "create keys with trestle keygen; key files must be chmod 600",
  E_NETWORK: "is the relay running? start one with npm start, or pass --relay <url>",
  E_RATE_LIMITED: "slow down and try again later",
  E_UNAVAILABLE: "the relay cannot serve this now; try again later or ask its operator",
  E_INTERNAL: "the relay failed; this is a bug worth reporting",
};

/** The hint for a code, if there is one. */
export function hintFor(code: ErrorCode): string | undefined {
  return HINTS[code];
}
