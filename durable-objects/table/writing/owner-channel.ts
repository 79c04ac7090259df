/**
 * What a seat's note and question to its owner share (docs/SPEC.md §5.10, §5.14): an exact count
 * per seat and window in this object's storage, written in one put with what the seat sent, and
 * handing one event to the owner's OwnerDO, whose outbox takes it to the owner's bound chat
 * channels; and the seat and owner key both check.
 */
import { rateLimited, untilWindowEnds, waitText } from "../../../src/protocol/limits/rate-limited.js";
import type { Notification } from "../../../src/protocol/schemas/notify.js";
import type { Result } from "../../result.js";
import { ownerObject } from "../../stubs.js";
import { windowOf } from "../../chat-directory/codes.js";
import { TrestleError } from "../../../src/protocol/errors.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { checkNotRevoked } from "../../../src/protocol/policy/seat-revoke.js";
import type { TableState } from "../../../src/protocol/policy/state.js";

/** How many notes and questions together a seat may send its owner per window (`notes_per_seat`). */
export const NOTE_LIMITS = { per_window: 10, window_ms: 10 * 60 * 1000 } as const;

/**
 * Counts one more note or question of `seat` in the current window and writes `entries` in the
 * same put, or throws E_RATE_LIMITED (`notes_per_seat`) and writes nothing when the window's are used.
 */
export async function keepCounted(
  storage: DurableObjectStorage,
  seat: string,
  now: number,
  entries: Record<string, unknown>,
): Promise<void> {
  const key = `notes:${seat}:${windowOf(now, NOTE_LIMITS.window_ms)}`;
  const sent = (await storage.get<number>(key)) ?? 0;
  if (sent >= NOTE_LIMITS.per_window) {
    const wait = untilWindowEnds(now, NOTE_LIMITS.window_ms);
    throw rateLimited(
      "notes_per_seat",
      wait,
      `a seat sends its owner at most ${NOTE_LIMITS.per_window} notes and questions per ${NOTE_LIMITS.window_ms / 60_000} minutes; retry in ${waitText(wait)}`,
    );
  }
  await storage.put({ ...entries, [key]: sent + 1 });
}

/**
 * Hands `event` to the owner's OwnerDO; answers how many of the owner's channels it was queued for
 * (0 when the object already had the event: it keeps each id once, so handing it over again is
 * safe). The table checked every limit before, so a refusal there is the relay's own failure,
 * never the caller's: logged, and answered E_UNAVAILABLE (send the same request again) or
 * E_INTERNAL, without the object's internals.
 */
export async function notifyOwner(env: Env, ownerKey: string, event: Notification): Promise<number> {
  return queuedOrRefused(await ownerObject(env, ownerKey).notify({ owner_key: ownerKey, events: [event] }));
}

/** The count the owner's object queued, or its refusal as the caller is told it (notifyOwner). */
function queuedOrRefused(answer: Result<{ queued: number }>): number {
  if (answer.ok) return answer.value.queued;
  console.error("the owner's object refused a notification", answer.error);
  if (answer.error.code === "E_UNAVAILABLE")
    throw new TrestleError(
      "E_UNAVAILABLE",
      "the owner's chat channels could not be told now; send the same request again",
    );
  throw new TrestleError("E_INTERNAL");
}

/** A seat present at the table and not revoked. */
export function presentSeat(state: TableState, name: string) {
  const seat = own(state.seats, name);
  if (seat) checkNotRevoked(state, seat.key);
  if (!seat || seat.left !== null) throw new TrestleError("E_UNKNOWN_SEAT", `seat "${name}" is not at this table`);
  return seat;
}

/** The public key of a seated seat's owner. */
export function requireOwnerKey(state: TableState, owner: string): string {
  const key = ownerKeyOf(state, owner);
  if (key === undefined) throw new TrestleError("E_INTERNAL", "a seated seat always has an owner");
  return key;
}
