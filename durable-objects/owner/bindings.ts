/**
 * The owner's bound chat accounts: where to deliver (chat id), in which language, and how often
 * each has delivered. A binding is made only by redeeming a one-time code (durable-objects/chat-directory/handle.ts),
 * removed by the owner's signed unbind or by /unbind from that account. A channel the bot can no
 * longer post to (a market's group it was removed from) is marked gone, and nothing more is sent there.
 */
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";

/** One bound account. */
export interface Channel {
  platform: ChatPlatform;
  account: string;
  chat: string;
  label: string;
  lang: Lang;
  bound_at: number;
  delivered: number;
  last_delivered_at: number | null;
  /** Why the bot can no longer post there (removed from the group, or the group moved to a new id), or null. */
  gone: "removed" | "migrated" | null;
}

/** The channels table of one OwnerDO. */
export class Bindings {
  constructor(private readonly sql: SqlStorage) {}

  /** Binds (or re-binds, keeping its delivery history) one account. */
  bind(channel: Omit<Channel, "delivered" | "last_delivered_at" | "gone">): void {
    this.sql.exec(
      `INSERT INTO channels (platform, account, chat, label, lang, bound_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, account) DO UPDATE SET chat = excluded.chat, label = excluded.label, lang = excluded.lang, gone = NULL`,
      channel.platform,
      channel.account,
      channel.chat,
      channel.label,
      channel.lang,
      channel.bound_at,
    );
  }

  /** Removes one account; true if it was bound. */
  unbind(platform: ChatPlatform, account: string): boolean {
    const found = this.get(platform, account) !== undefined;
    this.sql.exec("DELETE FROM channels WHERE platform = ? AND account = ?", platform, account);
    return found;
  }

  /** One bound account, if any. */
  get(platform: ChatPlatform, account: string): Channel | undefined {
    return this.sql
      .exec("SELECT * FROM channels WHERE platform = ? AND account = ?", platform, account)
      .toArray()
      .map(rowToChannel)[0];
  }

  /** Whether any account is bound (gone or not). */
  any(): boolean {
    return this.sql.exec("SELECT 1 FROM channels LIMIT 1").toArray().length > 0;
  }

  /** Every bound account, oldest first. */
  all(): Channel[] {
    return this.sql.exec("SELECT * FROM channels ORDER BY bound_at, platform, account").toArray().map(rowToChannel);
  }

  /** Marks the channel as one the bot can no longer post to, and why; a new binding of it clears that. */
  markGone(platform: ChatPlatform, account: string, reason: "removed" | "migrated"): void {
    this.sql.exec("UPDATE channels SET gone = ? WHERE platform = ? AND account = ?", reason, platform, account);
  }

  /** Records a delivery on the channel (this is what makes it proven). */
  delivered(platform: ChatPlatform, account: string, at: number): void {
    this.sql.exec(
      "UPDATE channels SET delivered = delivered + 1, last_delivered_at = ? WHERE platform = ? AND account = ?",
      at,
      platform,
      account,
    );
  }
}

function rowToChannel(row: Record<string, SqlStorageValue>): Channel {
  return {
    platform: String(row.platform) as ChatPlatform,
    account: String(row.account),
    chat: String(row.chat),
    label: String(row.label),
    lang: String(row.lang) as Lang,
    bound_at: Number(row.bound_at),
    delivered: Number(row.delivered),
    last_delivered_at: row.last_delivered_at === null ? null : Number(row.last_delivered_at),
    gone: row.gone === "removed" || row.gone === "migrated" ? row.gone : null,
  };
}
