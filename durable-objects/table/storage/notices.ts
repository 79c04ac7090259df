/**
 * Owner notifications that survive a crash (docs/SPEC.md §11.3, decision 0532). The batches an
 * append causes (src/protocol/reading/notifications.ts) are written in the entries' own row (its
 * `notices` column, on the append's last entry: no row of their own), and the same writes arm the
 * table's alarm. Right after the write the table hands each owner its batch, then moves its cursor
 * (`meta.notices_through`: every entry up to it was handed over) past it: one row per hand-off,
 * whatever the number of owners. A batch an owner's object did not take (it did not answer, or
 * answered with a transient error) is parked in `notices` and retried by the alarm with backoff
 * before the cursor moves. An entry past the cursor (the object died first) is handed over again
 * by the alarm. So every notification reaches the OwnerDO at least once, and the OwnerDO stores
 * each event id once (its idempotency key), so a repeat is never queued twice.
 */
import type { ErrorCode } from "../../../src/protocol/errors.js";
import type { Notification } from "../../../src/protocol/schemas/notify.js";
import type { Result } from "../../result.js";
import { ownerObject } from "../../stubs.js";
import { ensureTable, hasTable } from "../storage/schema.js";

/** First retry of a batch not yet taken; doubled per attempt, up to NOTICE_RETRY_MAX_MS. */
export const NOTICE_RETRY_MS = 30_000;
export const NOTICE_RETRY_MAX_MS = 60 * 60 * 1000;
/** Entries (and parked batches) one pass reads at a time. */
export const NOTICE_BATCH = 50;
/** OwnerDO answers worth retrying; any other refusal is final (the batch is dropped and logged). */
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
  /** The cursor: every entry up to this seq was handed over (or parked); undefined until read after a wake. */
  private through: number | undefined;
  /** When the alarm must hand over entries past the cursor; null when none is, undefined until known after a wake. */
  private waiting: number | null | undefined;
  /** MIN(next_at) over the parked rows, kept while no row changes; undefined when it must be read again. */
  private earliest: number | null | undefined;
  /** Hand-offs run one at a time: the cursor moves only past what the pass that moves it handed over. */
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: SqlStorage,
    /** Makes sure the table's alarm fires by the given time, without waiting (Alarm.armBy). */
    private readonly armBy: (at: number) => void,
  ) {}

  /** Whether an append recorded notifications that no hand-off has tried yet. */
  get pending(): boolean {
    return this.fresh;
  }

  /** The text the append's last entry row carries for `batches` (null when they are empty); call inside the entries' transaction. */
  record(batches: ReadonlyMap<string, Notification[]>, now: number): string | null {
    if (batches.size === 0) return null;
    this.fresh = true;
    this.waiting ??= now + NOTICE_RETRY_MS;
    return JSON.stringify([...batches]);
  }

  /** Arms the alarm for the retry of batches just recorded; call right after their transaction, before any await. */
  armRetry(now: number): void {
    this.armBy(now + NOTICE_RETRY_MS);
  }

  /** Hands over every entry's batches past the cursor (right after the write that recorded them). */
  handOffFresh(notify: OwnerNotify, now: () => number): Promise<void> {
    if (!this.fresh) return this.running;
    this.fresh = false;
    return this.serially(() => this.handOffEntries(notify, now));
  }

  /** Hands over, at the alarm, every entry's batches past the cursor and every parked batch due at `now()`. */
  handOffDue(notify: OwnerNotify, now: () => number): Promise<void> {
    return this.serially(async () => {
      await this.handOffEntries(notify, now);
      if (!hasTable(this.sql, "notices")) return;
      const rows = this.sql
        .exec(
          "SELECT id, owner_key, events, attempts FROM notices WHERE attempts = 0 OR next_at <= ? ORDER BY id LIMIT ?",
          now(),
          NOTICE_BATCH,
        )
        .toArray();
      await this.retryParked(rows, notify, now);
    });
  }

  /** When the alarm should hand something over next, or null when nothing is waiting (read from SQLite only after a wake or a change). */
  nextAt(now: number): number | null {
    if (this.waiting === undefined) {
      const past =
        this.sql.exec("SELECT 1 FROM entries WHERE seq > ? AND notices IS NOT NULL LIMIT 1", this.cursor()).toArray()
          .length > 0;
      this.waiting = past ? now : null;
    }
    if (this.earliest === undefined) {
      const row = hasTable(this.sql, "notices")
        ? this.sql.exec("SELECT MIN(next_at) AS next FROM notices").toArray()[0]
        : undefined;
      this.earliest = row?.next === null || row?.next === undefined ? null : Number(row.next);
    }
    const due = [this.waiting, this.earliest].filter((d): d is number => d !== null);
    return due.length > 0 ? Math.min(...due) : null;
  }

  private serially(pass: () => Promise<void>): Promise<void> {
    const run = this.running.then(pass);
    this.running = run.catch(() => undefined);
    return run;
  }

  private cursor(): number {
    this.through ??= Number(
      this.sql.exec("SELECT value FROM meta WHERE key = 'notices_through'").toArray()[0]?.value ?? 0,
    );
    return this.through;
  }

  /** Offers each owner its batch of every entry past the cursor, parks what was not taken, then moves the cursor (one row per pass). */
  private async handOffEntries(notify: OwnerNotify, now: () => number): Promise<void> {
    for (;;) {
      const rows = this.sql
        .exec(
          "SELECT seq, notices FROM entries WHERE seq > ? AND notices IS NOT NULL ORDER BY seq LIMIT ?",
          this.cursor(),
          NOTICE_BATCH,
        )
        .toArray();
      const last = rows.at(-1);
      if (last === undefined) {
        this.waiting = null;
        return;
      }
      for (const row of rows) {
        for (const [ownerKey, events] of JSON.parse(String(row.notices)) as [string, Notification[]][]) {
          if (await this.offer(notify, ownerKey, events)) continue;
          ensureTable(this.sql, "notices");
          this.sql.exec(
            "INSERT INTO notices (owner_key, events, attempts, next_at) VALUES (?, ?, 1, ?)",
            ownerKey,
            JSON.stringify(events),
            now() + NOTICE_RETRY_MS,
          );
          this.earliest = undefined;
        }
      }
      this.through = Number(last.seq);
      this.sql.exec(
        "INSERT INTO meta (key, value) VALUES ('notices_through', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        String(this.through),
      );
    }
  }

  /** Offers parked batches again: a batch taken (or refused for good) is deleted, one not taken waits twice as long. */
  private async retryParked(
    rows: Record<string, SqlStorageValue>[],
    notify: OwnerNotify,
    now: () => number,
  ): Promise<void> {
    for (const row of rows) {
      const id = Number(row.id);
      this.earliest = undefined;
      if (await this.offer(notify, String(row.owner_key), JSON.parse(String(row.events)) as Notification[])) {
        this.sql.exec("DELETE FROM notices WHERE id = ?", id);
        continue;
      }
      const attempts = Number(row.attempts) + 1;
      const delay = Math.min(NOTICE_RETRY_MAX_MS, NOTICE_RETRY_MS * 2 ** (attempts - 1));
      this.sql.exec("UPDATE notices SET attempts = ?, next_at = ? WHERE id = ?", attempts, now() + delay, id);
    }
  }

  /** Whether the owner's object took the batch, or refused it for good (logged; it is dropped); false when worth retrying. */
  private async offer(notify: OwnerNotify, ownerKey: string, events: Notification[]): Promise<boolean> {
    let answer: Result<{ queued: number }> | undefined;
    try {
      answer = await notify(ownerKey, events);
    } catch (error) {
      console.error("owner notification not handed over; the alarm retries", error);
    }
    if (!answer || (!answer.ok && TRANSIENT.has(answer.error.code))) return false;
    if (!answer.ok) console.error("an owner's object refused a notification; dropped", answer.error);
    return true;
  }
}
