/**
 * The attempt log and channel health (docs/SPEC.md §11.4). Every attempt is recorded per channel:
 * queued when a message enters the outbox, then delivered or failed with the HTTP status, reason
 * and how many resends of it went out. A channel that never delivered is `unproven`, whatever else
 * happened to it; its health also counts the notifications it gave up on.
 */
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type {
  AttemptRecord,
  AttemptStatus,
  ChannelHealth,
  ChannelState,
  FailureReason,
  UndeliveredRecord,
} from "../../src/protocol/schemas/owner.js";
import type { Channel } from "./bindings.js";

const RECENT = 5;
const KEEP_PER_CHANNEL = 50;

/** One attempt to record. */
export interface Attempt {
  platform: ChatPlatform;
  account: string;
  event: string;
  status: AttemptStatus;
  http_status: number | null;
  reason: FailureReason | null;
  detail: string | null;
  /** Resends of this notification to this channel so far (0 for its first send). */
  resends: number;
  at: number;
}

/** The attempts table of one OwnerDO. */
export class AttemptLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Appends one attempt, keeping the newest KEEP_PER_CHANNEL of its channel. */
  record(a: Attempt): void {
    this.sql.exec(
      "INSERT INTO attempts (platform, account, event_id, status, http_status, reason, detail, resends, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      a.platform,
      a.account,
      a.event,
      a.status,
      a.http_status,
      a.reason,
      a.detail,
      a.resends,
      a.at,
    );
    this.sql.exec(
      `DELETE FROM attempts WHERE platform = ? AND account = ?
         AND id NOT IN (SELECT id FROM attempts WHERE platform = ? AND account = ? ORDER BY id DESC LIMIT ?)`,
      a.platform,
      a.account,
      a.platform,
      a.account,
      KEEP_PER_CHANNEL,
    );
  }

  /** The newest attempts of one channel, newest first. */
  recent(platform: ChatPlatform, account: string, limit = RECENT): AttemptRecord[] {
    return this.sql
      .exec(
        "SELECT * FROM attempts WHERE platform = ? AND account = ? ORDER BY id DESC LIMIT ?",
        platform,
        account,
        limit,
      )
      .toArray()
      .map((r) => ({
        event: String(r.event_id),
        status: String(r.status) as AttemptStatus,
        http_status: r.http_status === null ? null : Number(r.http_status),
        reason: r.reason === null ? null : (String(r.reason) as FailureReason),
        detail: r.detail === null ? null : String(r.detail),
        resends: Number(r.resends),
        at: Number(r.at),
      }));
  }

  /** The newest attempt that finished (delivered or failed), if any. */
  lastOutcome(platform: ChatPlatform, account: string): AttemptRecord | undefined {
    return this.recent(platform, account, KEEP_PER_CHANNEL).find((a) => a.status !== "queued");
  }

  /** A channel's health, from its delivery count, its newest finished attempt, and the notifications it gave up on. */
  health(channel: Channel, undelivered: { count: number; last: UndeliveredRecord | null }): ChannelHealth {
    const recent = this.recent(channel.platform, channel.account);
    const outcome = this.lastOutcome(channel.platform, channel.account);
    return {
      platform: channel.platform,
      account: channel.account,
      label: channel.label,
      lang: channel.lang,
      bound_at: channel.bound_at,
      state: stateOf(channel.delivered, outcome),
      delivered: channel.delivered,
      last_delivered_at: channel.last_delivered_at,
      last_attempt: recent[0] ?? null,
      recent,
      undelivered: undelivered.count,
      last_undelivered: undelivered.last,
    };
  }
}

/** removed or migrated when the newest finished attempt says so (the bot can no longer post there); else unproven until a first delivery, then ok, failing, or quota_exhausted by the newest finished attempt. */
export function stateOf(delivered: number, outcome: AttemptRecord | undefined): ChannelState {
  if (outcome?.reason === "removed" || outcome?.reason === "migrated") return outcome.reason;
  if (delivered === 0) return "unproven";
  if (outcome?.status !== "failed") return "ok";
  return outcome.reason === "quota_exhausted" ? "quota_exhausted" : "failing";
}
