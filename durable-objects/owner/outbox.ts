/**
 * The outbox (docs/SPEC.md §11.4): one row per (event, channel) with its idempotency key, drained
 * by the OwnerDO's alarm in batches that fit one free-plan invocation. Delivery is at least once:
 * every row is marked `sending` (persisted before the request leaves: output gates) and then
 * `delivered`, back to `queued`, or `failed` with its reason. A row found still `sending` when no
 * drain runs in this object was interrupted (the object died mid-send): it is queued again and sent
 * at once, later ones with backoff, within MAX_ATTEMPTS. Once a send may have reached the platform
 * (interrupted, 5xx, no answer), every later send of the row is a resend: it carries the resend
 * mark and the same key (LINE and Discord drop the duplicate; Telegram has no such guard, so the
 * mark is what tells the owner). Each row records whether the message it sent offered Approve, so
 * a tap can approve only from a message that showed every effect. A market's group audience sends
 * its news in batches, paced per group (news-batches.ts).
 */
import type { DeliveryResult } from "../../src/chat/delivery.js";
import type { Outgoing } from "../../src/chat/render.js";
import {
  idempotencyKey,
  messageFor,
  newsBatchFor,
  offersApprove,
  sendTo,
  type ConnectedPlatforms,
} from "../../src/chat/send.js";
import { PLATFORMS } from "../../src/chat/platforms/index.js";
import type { GroupNews } from "../../src/protocol/schemas/notify.js";
import { NewsBatches } from "./news-batches.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { FailureReason, UndeliveredRecord } from "../../src/protocol/schemas/owner.js";
import type { Bindings, Channel } from "./bindings.js";
import type { AttemptLog } from "./health.js";
import type { Inbox } from "./inbox.js";

/** Deliveries per alarm: a free-plan invocation allows 50 subrequests; keep a margin. */
export const DELIVERY_BATCH = 40;
/** Attempts per row, interrupted ones included, before a retryable failure becomes final. */
export const MAX_ATTEMPTS = 5;
/** First retry delay; doubled per attempt. */
export const BACKOFF_MS = 30_000;

/** The wait before the next send after `failed` failed attempts: none after none, then BACKOFF_MS doubling. */
export function retryDelay(failed: number): number {
  return failed <= 0 ? 0 : BACKOFF_MS * 2 ** (failed - 1);
}

/** What a drain did. */
export interface DrainReport {
  sent: number;
  delivered: number;
  failed: number;
  /** When the next alarm should run, or null when nothing is queued. */
  next: number | null;
}

/** One send of a row: its attempt number, whether it is a resend, and the resends so far including it. */
interface Sent {
  eventId: string;
  attempts: number;
  resend: boolean;
  resends: number;
}

/** Columns a state change writes (names are fixed here, never from input). */
interface RowUpdate {
  state: "queued" | "delivered" | "failed";
  next_at: number;
  updated_at: number;
  maybe_sent?: 0 | 1;
  reason?: FailureReason;
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
        event.id,
        channel.platform,
        channel.account,
        key,
        now,
        now,
      ).rowsWritten;
      if (written === 0) continue;
      queued += 1;
      this.log.record({
        platform: channel.platform,
        account: channel.account,
        event: event.id,
        status: "queued",
        http_status: null,
        reason: null,
        detail: null,
        resends: 0,
        at: now,
      });
    }
    return queued;
  }

  /** Whether a message for `eventId` sent to `chat` on `platform` offered the Approve button. */
  approveOffered(eventId: string, platform: ChatPlatform, chat: string): boolean {
    return (
      this.sql
        .exec(
          "SELECT 1 FROM outbox o JOIN channels c ON c.platform = o.platform AND c.account = o.account WHERE o.event_id = ? AND o.platform = ? AND c.chat = ? AND o.approve = 1",
          eventId,
          platform,
          chat,
        )
        .toArray().length > 0
    );
  }

  /** Drops every row for an unbound channel. */
  forget(platform: ChatPlatform, account: string): void {
    this.sql.exec(
      "DELETE FROM outbox WHERE platform = ? AND account = ? AND state IN ('queued', 'sending')",
      platform,
      account,
    );
  }

  /** Sends up to DELIVERY_BATCH due rows, recording each attempt; call it only while no other drain of this object runs. */
  async drain(platforms: ConnectedPlatforms, now: () => number): Promise<DrainReport> {
    this.recoverInterrupted(now());
    const rows = this.sql
      .exec(
        "SELECT event_id, platform, account, key, attempts, maybe_sent, resends, batch FROM outbox WHERE state = 'queued' AND next_at <= ? ORDER BY next_at, event_id LIMIT ?",
        now(),
        DELIVERY_BATCH,
      )
      .toArray();
    const report: DrainReport = { sent: 0, delivered: 0, failed: 0, next: null };
    // Rows that went out in a batch of news earlier in this drain (news-batches.ts).
    const batched = new Set<string>();
    const gaveUp = new Set<string>();
    for (const row of rows) {
      const platform = String(row.platform) as ChatPlatform;
      const account = String(row.account);
      const eventId = String(row.event_id);
      if (batched.has(`${eventId}\n${platform}\n${account}`)) continue;
      const channel = this.bindings.get(platform, account);
      const event = this.inbox.get(eventId);
      if (!channel || !event) {
        this.sql.exec(
          "DELETE FROM outbox WHERE event_id = ? AND platform = ? AND account = ?",
          eventId,
          platform,
          account,
        );
        continue;
      }
      if (channel.gone !== null) {
        // Its queued rows are all given up at once; the rest of them in this drain are skipped.
        if (!gaveUp.has(`${platform}\n${account}`))
          this.giveUp(channel, channel.gone, "the bot can no longer post there", now());
        gaveUp.add(`${platform}\n${account}`);
        continue;
      }
      if (event.type === "group_news") {
        const sent = await this.sendNews(platforms, channel, row.batch === null ? null : String(row.batch), now);
        for (const id of sent.rows) batched.add(`${id}\n${platform}\n${account}`);
        if (sent.result) {
          report.sent += 1;
          if (sent.result.ok) report.delivered += 1;
          else report.failed += 1;
        }
        continue;
      }
      const resend = Number(row.maybe_sent) === 1;
      const attempt: Sent = {
        eventId,
        attempts: Number(row.attempts) + 1,
        resend,
        resends: Number(row.resends) + (resend ? 1 : 0),
      };
      const message = messageFor(platform, event, this.ownerKey, channel.lang, resend);
      this.sql.exec(
        "UPDATE outbox SET state = 'sending', attempts = ?, resends = ?, approve = ?, updated_at = ? WHERE event_id = ? AND platform = ? AND account = ?",
        attempt.attempts,
        attempt.resends,
        offersApprove(message) ? 1 : 0,
        now(),
        eventId,
        platform,
        account,
      );
      report.sent += 1;
      const result = await sendTo(platforms, platform, channel.chat, message, String(row.key));
      this.settle(channel, attempt, result, now());
      if (result.ok) report.delivered += 1;
      else report.failed += 1;
    }
    report.next = this.nextDue(now());
    return report;
  }

  /**
   * Sends a market's news to one group as one message (news-batches.ts): the batch `batch` names
   * again, or the group's due news not yet in one, as many items as fit; nothing before the
   * platform's pace for a group allows, the rows held until then. The rows it covered, and the
   * platform's answer (none when it was held).
   */
  private async sendNews(
    platforms: ConnectedPlatforms,
    channel: Channel,
    batch: string | null,
    now: () => number,
  ): Promise<{ rows: string[]; result: DeliveryResult | null }> {
    const { platform, account } = channel;
    const news = new NewsBatches(this.sql);
    const allowed = news.nextSendAt(platform, account);
    if (batch === null && allowed > now()) {
      news.holdUntil(platform, account, allowed);
      return { rows: [], result: null };
    }
    const rows = news
      .rowsWith({ batch, platform, account }, now())
      .filter((r) => this.inbox.get(r.event_id)?.type === "group_news");
    const events = rows.map((r) => this.inbox.get(r.event_id) as GroupNews);
    const resend = rows.some((r) => r.maybe_sent === 1);
    const { message, count } = newsBatchFor(platform, events, channel.lang, resend);
    const members = batch === null ? rows.slice(0, count) : rows;
    const key = batch ?? members[0]!.key;
    const sent = members.map((r): Sent => ({
      eventId: r.event_id,
      attempts: r.attempts + 1,
      resend,
      resends: r.resends + (resend ? 1 : 0),
    }));
    for (const s of sent) {
      this.sql.exec(
        "UPDATE outbox SET state = 'sending', attempts = ?, resends = ?, batch = ?, updated_at = ? WHERE event_id = ? AND platform = ? AND account = ?",
        s.attempts,
        s.resends,
        key,
        now(),
        s.eventId,
        platform,
        account,
      );
    }
    const result = await sendTo(platforms, platform, channel.chat, message, key);
    for (const s of sent) this.settle(channel, s, result, now());
    const pace = PLATFORMS[platform].groupPace;
    news.posted(platform, account, now(), Math.ceil(pace.per_ms / pace.messages));
    return { rows: sent.map((s) => s.eventId), result };
  }

  /** Marks `channel` gone for `reason` and gives up every row still queued for it, recording why; nothing more is sent there. */
  giveUp(channel: Channel, reason: "removed" | "migrated", detail: string, at: number): void {
    const { platform, account } = channel;
    this.bindings.markGone(platform, account, reason);
    const rows = this.sql
      .exec(
        "SELECT event_id, resends FROM outbox WHERE state = 'queued' AND platform = ? AND account = ?",
        platform,
        account,
      )
      .toArray();
    this.sql.exec(
      "UPDATE outbox SET state = 'failed', reason = ?, updated_at = ? WHERE state = 'queued' AND platform = ? AND account = ?",
      reason,
      at,
      platform,
      account,
    );
    const last = rows.at(-1);
    const event = last === undefined ? `gone:${platform}:${account}` : String(last.event_id);
    this.log.record({
      platform,
      account,
      event,
      status: "failed",
      http_status: null,
      reason,
      detail,
      resends: last === undefined ? 0 : Number(last.resends),
      at,
    });
  }

  private settle(channel: Channel, sent: Sent, result: DeliveryResult, at: number): void {
    const { platform, account } = channel;
    const { eventId, attempts, resends } = sent;
    if (!result.ok && (result.reason === "removed" || result.reason === "migrated"))
      this.bindings.markGone(platform, account, result.reason);
    if (result.ok) {
      this.update(eventId, platform, account, { state: "delivered", next_at: at, updated_at: at });
      this.bindings.delivered(platform, account, at);
      this.log.record({
        platform,
        account,
        event: eventId,
        status: "delivered",
        http_status: result.status,
        reason: null,
        detail: null,
        resends,
        at,
      });
      return;
    }
    const again = result.retry && attempts < MAX_ATTEMPTS;
    const next = at + (result.retryAfterMs ?? retryDelay(attempts));
    const maybeSent = sent.resend || result.maybeDelivered ? 1 : 0;
    this.update(
      eventId,
      platform,
      account,
      again
        ? { state: "queued", next_at: next, maybe_sent: maybeSent, updated_at: at }
        : { state: "failed", next_at: at, maybe_sent: maybeSent, reason: result.reason, updated_at: at },
    );
    this.log.record({
      platform,
      account,
      event: eventId,
      status: "failed",
      http_status: result.status,
      reason: result.reason,
      detail: result.detail,
      resends,
      at,
    });
  }

  /** Rows left `sending` by a drain that died mid-request: queued again as resends, or failed once out of attempts. */
  private recoverInterrupted(at: number): void {
    for (const row of this.sql
      .exec("SELECT event_id, platform, account, attempts, resends FROM outbox WHERE state = 'sending'")
      .toArray()) {
      const platform = String(row.platform) as ChatPlatform;
      const [eventId, account, attempts] = [String(row.event_id), String(row.account), Number(row.attempts)];
      const again = attempts < MAX_ATTEMPTS;
      const reason: FailureReason = "interrupted";
      this.update(
        eventId,
        platform,
        account,
        again
          ? { state: "queued", next_at: at + retryDelay(attempts - 1), maybe_sent: 1, updated_at: at }
          : { state: "failed", next_at: at, maybe_sent: 1, reason, updated_at: at },
      );
      const detail = again
        ? "interrupted before the platform's answer was recorded; sent again, marked as a resend"
        : `interrupted before the platform's answer was recorded; given up after ${attempts} attempts`;
      this.log.record({
        platform,
        account,
        event: eventId,
        status: "failed",
        http_status: null,
        reason,
        detail,
        resends: Number(row.resends),
        at,
      });
    }
  }

  private update(eventId: string, platform: string, account: string, fields: RowUpdate): void {
    const names = Object.keys(fields) as (keyof RowUpdate)[];
    this.sql.exec(
      `UPDATE outbox SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE event_id = ? AND platform = ? AND account = ?`,
      ...names.map((n) => fields[n] ?? null),
      eventId,
      platform,
      account,
    );
  }

  /** How many of `platform`/`account`'s notifications were given up on (never delivered), and the newest of them. */
  undelivered(platform: ChatPlatform, account: string): { count: number; last: UndeliveredRecord | null } {
    const where = "FROM outbox WHERE platform = ? AND account = ? AND state = 'failed'";
    const count = Number(this.sql.exec(`SELECT COUNT(*) AS n ${where}`, platform, account).toArray()[0]?.n ?? 0);
    const row = this.sql
      .exec(
        `SELECT event_id, reason, updated_at ${where} ORDER BY updated_at DESC, event_id LIMIT 1`,
        platform,
        account,
      )
      .toArray()[0];
    const last = row
      ? {
          event: String(row.event_id),
          reason: row.reason === null ? null : (String(row.reason) as FailureReason),
          at: Number(row.updated_at),
        }
      : null;
    return { count, last };
  }

  /** How many rows still wait to be delivered (queued, or sending right now): neither delivered nor given up on. */
  pending(): number {
    return Number(
      this.sql.exec("SELECT COUNT(*) AS n FROM outbox WHERE state IN ('queued', 'sending')").toArray()[0]?.n ?? 0,
    );
  }

  /** The earliest time a queued row is due (now if one is already due), or null. */
  nextDue(now: number): number | null {
    const row = this.sql.exec("SELECT MIN(next_at) AS next FROM outbox WHERE state = 'queued'").toArray()[0];
    return row?.next === null || row?.next === undefined ? null : Math.max(now, Number(row.next));
  }
}
