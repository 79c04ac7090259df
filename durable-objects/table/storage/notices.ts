/**
 * Owner notifications that survive a crash (docs/SPEC.md §11.3). The batches an append causes
 * (src/protocol/reading/notifications.ts) are written in the same SQLite transaction as its entries, one
 * row per owner, and only when the append causes any; the same writes arm the table's alarm. Right
 * after the write the table hands each row to its owner's OwnerDO and deletes it once the OwnerDO
 * took it. A row still there (the object died first, or the OwnerDO did not answer) is handed over
 * again by the alarm, with backoff. So every notification reaches the OwnerDO at least once, and the
 * OwnerDO stores each event id once (its idempotency key), so a repeat is never queued twice.
 */
import type { ErrorCode } from "../../../src/protocol/errors.js";
import type { Notification } from "../../../src/protocol/schemas/notify.js";
import type { Result } from "../../result.js";
import { ownerObject } from "../../stubs.js";

/** First retry of a row not yet taken; doubled per attempt, up to NOTICE_RETRY_MAX_MS. */
export const NOTICE_RETRY_MS = 30_000;
export const NOTICE_RETRY_MAX_MS = 60 * 60 * 1000;
/** Rows one alarm hands over (one OwnerDO call each). */
export const NOTICE_BATCH = 50;
/** OwnerDO answers worth retrying; any other refusal is final (the row is dropped and logged). */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set(["E_UNAVAILABLE", "E_INTERNAL", "E_RATE_LIMITED"]);

/** Hands one owner its events: OwnerDO.notify. */
export type OwnerNotify = (ownerKey: string, events: Notification[]) => Promise<Result<{ queued: number }>>;

/** The relay's OwnerNotify: each owner key's OwnerDO. */
export function ownerNotify(env: Env): OwnerNotify {
  return (ownerKey, events) => ownerObject(env, ownerKey).notify({ owner_key: ownerKey, events });
}

/** The table's notifications not yet taken by their owners' objects. */
export class Notices {
  private fresh = false;
  /** MIN(next_at) over the rows, kept while no row changes; undefined when it must be read again. */
  private earliest: number | null | undefined;

  constructor(
    private readonly sql: SqlStorage,
    /** Makes sure the table's alarm fires by the given time, without waiting (Alarm.armBy). */
    private readonly armBy: (at: number) => void,
  ) {}

  /** Whether rows were recorded that no hand-off has tried yet. */
  get pending(): boolean {
    return this.fresh;
  }

  /** Writes one row per owner of `batches`; call inside the entries' transaction. True if it wrote any. */
  record(batches: ReadonlyMap<string, Notification[]>, now: number): boolean {
    for (const [ownerKey, events] of batches) {
      this.sql.exec("INSERT INTO notices (owner_key, events, attempts, next_at) VALUES (?, ?, 0, ?)", ownerKey, JSON.stringify(events), now + NOTICE_RETRY_MS);
    }
    if (batches.size > 0) {
      this.fresh = true;
      this.earliest = undefined;
    }
    return batches.size > 0;
  }

  /** Arms the alarm for the retry of rows just recorded; call right after their transaction, before any await. */
  armRetry(now: number): void {
    this.armBy(now + NOTICE_RETRY_MS);
  }

  /** Hands every row never tried to its owner (right after the write that recorded it). */
  async handOffFresh(notify: OwnerNotify, now: () => number): Promise<void> {
    if (!this.fresh) return;
    this.fresh = false;
    await this.handOff(this.sql.exec("SELECT id, owner_key, events, attempts FROM notices WHERE attempts = 0 ORDER BY id").toArray(), notify, now);
  }

  /** Hands over, at the alarm, every row never tried (its write's hand-off never ran) and every retry due at `now()`. */
  async handOffDue(notify: OwnerNotify, now: () => number): Promise<void> {
    const rows = this.sql.exec("SELECT id, owner_key, events, attempts FROM notices WHERE attempts = 0 OR next_at <= ? ORDER BY id LIMIT ?", now(), NOTICE_BATCH).toArray();
    await this.handOff(rows, notify, now);
  }

  /** When the alarm should hand over the next row, or null when none is waiting (read from SQLite only after rows changed). */
  nextAt(): number | null {
    if (this.earliest !== undefined) return this.earliest;
    const row = this.sql.exec("SELECT MIN(next_at) AS next FROM notices").toArray()[0];
    this.earliest = row?.next === null || row?.next === undefined ? null : Number(row.next);
    return this.earliest;
  }

  private async handOff(rows: Record<string, SqlStorageValue>[], notify: OwnerNotify, now: () => number): Promise<void> {
    for (const row of rows) {
      const id = Number(row.id);
      let answer: Result<{ queued: number }> | undefined;
      try {
        answer = await notify(String(row.owner_key), JSON.parse(String(row.events)) as Notification[]);
      } catch (error) {
        console.error("owner notification not handed over; the alarm retries", error);
      }
      if (answer && (answer.ok || !TRANSIENT.has(answer.error.code))) {
        if (!answer.ok) console.error("an owner's object refused a notification; dropped", answer.error);
        this.sql.exec("DELETE FROM notices WHERE id = ?", id);
        this.earliest = undefined;
        continue;
      }
      const attempts = Number(row.attempts) + 1;
      const delay = Math.min(NOTICE_RETRY_MAX_MS, NOTICE_RETRY_MS * 2 ** (attempts - 1));
      this.sql.exec("UPDATE notices SET attempts = ?, next_at = ? WHERE id = ?", attempts, now() + delay, id);
      this.earliest = undefined;
    }
  }
}
