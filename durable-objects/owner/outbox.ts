/**
 * The outbox (docs/SPEC.md §11.4): one row per (event, channel) with its idempotency key, drained
 * by the OwnerDO's alarm in batches that fit one free-plan invocation. Alarms run at least once,
 * so every row is marked `sending` (persisted before the request leaves: output gates) and then
 * `delivered` or back to `queued`/`failed`; a retried alarm only ever picks up `queued` rows.
 * A row found still `sending` was interrupted mid-request: on LINE and Discord it is sent again
 * with the same key (the platform drops the duplicate); on Telegram, which has no such key, it is
 * marked failed (`interrupted`) rather than risk a second message. Each row records whether the
 * message it sent offered Approve, so a tap can approve only from a message that showed every effect.
 */
import type { ChatEnv } from "../../src/chat/config.js";
import type { DeliveryResult } from "../../src/chat/delivery.js";
import type { Outgoing } from "../../src/chat/render.js";
import { DEDUPES, idempotencyKey, messageFor, offersApprove, sendTo } from "../../src/chat/send.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { Bindings, Channel } from "./bindings.js";
import type { AttemptLog } from "./health.js";
import type { Inbox } from "./inbox.js";

/** Deliveries per alarm: a free-plan invocation allows 50 subrequests; keep a margin. */
export const DELIVERY_BATCH = 40;
/** Attempts before a retryable failure becomes final. */
export const MAX_ATTEMPTS = 5;
/** First retry delay; doubled per attempt. */
export const BACKOFF_MS = 30_000;

/** What a drain did. */
export interface DrainReport {
  sent: number;
  delivered: number;
  failed: number;
  /** When the next alarm should run, or null when nothing is queued. */
  next: number | null;
}

/** One OwnerDO's outbox. */
export class Outbox {
  constructor(
    private readonly sql: SqlStorage,
    private readonly ownerKey: string,
    private readonly bindings: Bindings,
    private readonly log: AttemptLog,
    private readonly inbox: Inbox,
  ) {}

  /** Queues `event` for every bound channel (or just `only`); returns how many rows were queued. */
  enqueue(event: Outgoing, now: number, only?: Channel): number {
    let queued = 0;
    for (const channel of only ? [only] : this.bindings.all()) {
      const key = idempotencyKey(this.ownerKey, event.id, channel.platform, channel.account);
      const written = this.sql.exec(
        "INSERT OR IGNORE INTO outbox (event_id, platform, account, key, state, attempts, next_at, updated_at) VALUES (?, ?, ?, ?, 'queued', 0, ?, ?)",
        event.id, channel.platform, channel.account, key, now, now,
      ).rowsWritten;
      if (written === 0) continue;
      queued += 1;
      this.log.record({ platform: channel.platform, account: channel.account, event: event.id, status: "queued", http_status: null, reason: null, detail: null, at: now });
    }
    return queued;
  }

  /** Whether a message for `eventId` sent to `chat` on `platform` offered the Approve button. */
  approveOffered(eventId: string, platform: ChatPlatform, chat: string): boolean {
    return (
      this.sql
        .exec(
          "SELECT 1 FROM outbox o JOIN channels c ON c.platform = o.platform AND c.account = o.account WHERE o.event_id = ? AND o.platform = ? AND c.chat = ? AND o.approve = 1",
          eventId, platform, chat,
        )
        .toArray().length > 0
    );
  }

  /** Drops every row for an unbound channel. */
  forget(platform: ChatPlatform, account: string): void {
    this.sql.exec("DELETE FROM outbox WHERE platform = ? AND account = ? AND state IN ('queued', 'sending')", platform, account);
  }

  /** Sends up to DELIVERY_BATCH due rows, recording each attempt. */
  async drain(env: ChatEnv, now: () => number): Promise<DrainReport> {
    this.recoverInterrupted(now());
    const rows = this.sql
      .exec("SELECT event_id, platform, account, key, attempts FROM outbox WHERE state = 'queued' AND next_at <= ? ORDER BY next_at, event_id LIMIT ?", now(), DELIVERY_BATCH)
      .toArray();
    const report: DrainReport = { sent: 0, delivered: 0, failed: 0, next: null };
    for (const row of rows) {
      const platform = String(row.platform) as ChatPlatform;
      const account = String(row.account);
      const eventId = String(row.event_id);
      const channel = this.bindings.get(platform, account);
      const event = this.inbox.get(eventId);
      if (!channel || !event) {
        this.sql.exec("DELETE FROM outbox WHERE event_id = ? AND platform = ? AND account = ?", eventId, platform, account);
        continue;
      }
      const attempts = Number(row.attempts) + 1;
      const message = messageFor(platform, event, this.ownerKey, channel.lang);
      this.setState(eventId, platform, account, "sending", attempts, now(), now());
      this.sql.exec("UPDATE outbox SET approve = ? WHERE event_id = ? AND platform = ? AND account = ?", offersApprove(message) ? 1 : 0, eventId, platform, account);
      report.sent += 1;
      const result = await sendTo(env, platform, channel.chat, message, String(row.key));
      this.settle(channel, eventId, attempts, result, now());
      if (result.ok) report.delivered += 1;
      else report.failed += 1;
    }
    report.next = this.nextDue(now());
    return report;
  }

  private settle(channel: Channel, eventId: string, attempts: number, result: DeliveryResult, at: number): void {
    const { platform, account } = channel;
    if (result.ok) {
      this.setState(eventId, platform, account, "delivered", attempts, at, at);
      this.bindings.delivered(platform, account, at);
      this.log.record({ platform, account, event: eventId, status: "delivered", http_status: result.status, reason: null, detail: null, at });
      return;
    }
    const again = result.retry && attempts < MAX_ATTEMPTS;
    const next = at + (result.retryAfterMs ?? BACKOFF_MS * 2 ** (attempts - 1));
    this.setState(eventId, platform, account, again ? "queued" : "failed", attempts, again ? next : at, at);
    this.log.record({ platform, account, event: eventId, status: "failed", http_status: result.status, reason: result.reason, detail: result.detail, at });
  }

  private recoverInterrupted(at: number): void {
    for (const row of this.sql.exec("SELECT event_id, platform, account, attempts FROM outbox WHERE state = 'sending'").toArray()) {
      const platform = String(row.platform) as ChatPlatform;
      const [eventId, account] = [String(row.event_id), String(row.account)];
      if (DEDUPES[platform]) {
        this.setState(eventId, platform, account, "queued", Number(row.attempts), at, at);
        continue;
      }
      this.setState(eventId, platform, account, "failed", Number(row.attempts), at, at);
      const detail = "the send was interrupted before its answer was recorded; not resent, to never deliver twice";
      this.log.record({ platform, account, event: eventId, status: "failed", http_status: null, reason: "interrupted", detail, at });
    }
  }

  private setState(eventId: string, platform: string, account: string, state: string, attempts: number, nextAt: number, at: number): void {
    this.sql.exec(
      "UPDATE outbox SET state = ?, attempts = ?, next_at = ?, updated_at = ? WHERE event_id = ? AND platform = ? AND account = ?",
      state, attempts, nextAt, at, eventId, platform, account,
    );
  }

  /** The earliest time a queued row is due (now if one is already due), or null. */
  nextDue(now: number): number | null {
    const row = this.sql.exec("SELECT MIN(next_at) AS next FROM outbox WHERE state = 'queued'").toArray()[0];
    return row?.next === null || row?.next === undefined ? null : Math.max(now, Number(row.next));
  }
}
