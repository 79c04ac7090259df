/**
 * The CLI's exit codes (docs/CLI.md) and how an error maps to one. Scripts can tell a usage
 * mistake, a refusal, a relay caught misbehaving, an unproven transcript, a network failure and
 * a local trust problem apart without reading the text.
 */
import { TrestleError, type ErrorCode } from "../protocol/index.js";

/** Every exit code the CLI uses. */
export const EXIT = {
  /** Done (for verify: CLEAN). */
  OK: 0,
  /** A bug in trestle itself. */
  INTERNAL: 1,
  /** Bad command, flag, argument or input file. */
  USAGE: 2,
  /** The relay (or the protocol's own checks before sending) refused: see the error code. */
  REFUSED: 3,
  /** Verification REFUTED, or the relay was caught misbehaving (fork, truncation, bad answer). */
  REFUTED: 4,
  /** Verification INCONCLUSIVE: nothing wrong found, but not everything could be checked. */
  INCONCLUSIVE: 5,
  /** The relay could not be reached. */
  NETWORK: 6,
  /** Local trust problem: a key file is missing or unsafe, or the relay key differs from the pin. */
  TRUST: 7,
} as const;
/** One of EXIT's values. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in how the CLI was called; exits with EXIT.USAGE. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const BY_CODE: Partial<Record<ErrorCode, ExitCode>> = {
  E_NETWORK: EXIT.NETWORK,
  E_FORK: EXIT.REFUTED,
  E_REFUTED: EXIT.REFUTED,
  E_BAD_RESPONSE: EXIT.REFUTED,
  E_RELAY_KEY: EXIT.TRUST,
  E_KEY_FILE: EXIT.TRUST,
};

/** The exit code for a thrown error. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof TrestleError) return BY_CODE[error.code] ?? EXIT.REFUSED;
  return EXIT.INTERNAL;
}
