/**
 * A market's news to its groups in batches (docs/SPEC.md §5.15 "Groups", §11.4): the outbox rows of
 * `group_news` events for one group go out as one message holding as many items as fit the
 * platform's limits (src/chat/send.ts newsBatchFor), no sooner than the platform's pace for a group
 * allows (its `groupPace`, cited in its module). The rows of one message share its batch, the key of
 * its first row: a message interrupted mid-send goes out again with exactly those items, marked as
 * a resend, under the same key, so LINE's retry key and Discord's nonce drop the repeat as they do
 * an owner's.
 */

/** Items one batch may hold at most, however short they are. */
export const NEWS_BATCH_ITEMS = 20;

/** One outbox row of a batch: its event and key, attempts, whether it may have been sent, resends. */
export interface NewsRow {
  event_id: string;
  key: string;
  attempts: number;
  maybe_sent: number;
  resends: number;
}

/** The news rows of one group audience's outbox. */
export class NewsBatches {
  constructor(private readonly sql: SqlStorage) {}

  /** The rows that go with `first`, oldest item first: its batch's, when it has one (a resend), else the group's due news rows not yet in a batch. */
  rowsWith(first: { batch: string | null; platform: string; account: string }, now: number): NewsRow[] {
    const cursor =
      first.batch !== null
        ? this.sql.exec(
            `SELECT o.event_id, o.key, o.attempts, o.maybe_sent, o.resends FROM outbox o JOIN events e ON e.id = o.event_id
             WHERE o.state = 'queued' AND o.platform = ? AND o.account = ? AND o.batch = ? ORDER BY e.seq`,
            first.platform,
            first.account,
            first.batch,
          )
        : this.sql.exec(
            `SELECT o.event_id, o.key, o.attempts, o.maybe_sent, o.resends FROM outbox o JOIN events e ON e.id = o.event_id
             WHERE o.state = 'queued' AND o.platform = ? AND o.account = ? AND o.batch IS NULL AND o.next_at <= ? AND e.type = 'group_news'
             ORDER BY e.seq LIMIT ?`,
            first.platform,
            first.account,
            now,
            NEWS_BATCH_ITEMS,
          );
    return cursor.toArray().map((r) => ({
      event_id: String(r.event_id),
      key: String(r.key),
      attempts: Number(r.attempts),
      maybe_sent: Number(r.maybe_sent),
      resends: Number(r.resends),
    }));
  }

  /** When the group may next be posted to (0: now). */
  nextSendAt(platform: string, account: string): number {
    return Number(
      this.sql
        .exec("SELECT next_send_at FROM channels WHERE platform = ? AND account = ?", platform, account)
        .toArray()[0]?.next_send_at ?? 0,
    );
  }

  /** Holds the group's queued news until `at`, when its pace lets the next post go. */
  holdUntil(platform: string, account: string, at: number): void {
    this.sql.exec(
      "UPDATE outbox SET next_at = ? WHERE state = 'queued' AND platform = ? AND account = ? AND next_at < ? AND event_id IN (SELECT id FROM events WHERE type = 'group_news')",
      at,
      platform,
      account,
      at,
    );
  }

  /** Records a post to the group at `now`: the next may go once `intervalMs` has passed. */
  posted(platform: string, account: string, now: number, intervalMs: number): void {
    this.sql.exec(
      "UPDATE channels SET next_send_at = ? WHERE platform = ? AND account = ?",
      now + intervalMs,
      platform,
      account,
    );
  }
}
