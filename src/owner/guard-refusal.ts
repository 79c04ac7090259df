/**
 * A guard's refusal of a seat's message (guarded-seat.ts): written to the seat's journal with the
 * guard, code and reason, then thrown as that TrestleError, so nothing refused is signed.
 */
import { TrestleError, type ErrorCode } from "../protocol/index.js";
import type { Journal } from "./journal.js";
import type { JournalRecordOf } from "./records.js";

/** The guard that refused a message: the mandate, the disclosure check, the gate or the room's sealing. */
export type Guard = JournalRecordOf<"refusal">["guard"];

/** Refuses the message being guarded: journals the refusal, then throws it; it never returns. */
export type Refuse = (
  guard: Guard,
  code: ErrorCode,
  reason: string,
  message: string,
  detail?: Record<string, unknown>,
) => never;

/** The Refuse of a message of `kind` into `journal`, naming the hash `hash()` gives at the refusal (sealing changes it). */
export function refuser(journal: Journal, kind: string, hash: () => string): Refuse {
  return (guard, code, reason, message, detail) => {
    const message_sha256 = hash();
    journal.append({
      type: "refusal",
      guard,
      code,
      reason,
      message,
      kind,
      message_sha256,
      ...(detail ? { detail } : {}),
    });
    throw new TrestleError(code, message, { reason, message_sha256, ...detail });
  };
}
