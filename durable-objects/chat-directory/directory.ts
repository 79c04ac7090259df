/**
 * ChatDirectoryDO: one instance (named "directory") that routes chat accounts to owners
 * (docs/SPEC.md §11.2). It holds the one-time bind codes (hashed; 10 minutes, single use), the
 * guess limits on redeeming them, which owner keys each chat account is bound to, the ids of
 * webhook events already handled (platforms redeliver), and the events a platform's webhook left
 * for its alarm to answer (deferred.ts). Owners' own state lives in OwnerDO.
 */
import { toHex, utf8 } from "../../src/protocol/encoding/bytes.js";
import { sha256 } from "../../src/protocol/encoding/hash.js";
import { EVENTS_PER_INVOCATION } from "../../src/chat/platforms/platform.js";
import { parseOrThrow, TrestleError } from "../../src/protocol/errors.js";
import { rateLimited, untilWindowEnds, waitText } from "../../src/protocol/limits/rate-limited.js";
import { ChatPlatformSchema, type ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { BindCodeStatement, Lang } from "../../src/protocol/schemas/owner.js";
import type { GroupCodeRequest } from "../../src/protocol/schemas/market-group.js";
import { chatPlatforms, outboxDelay } from "../settings.js";
import { SqliteObject } from "../sqlite-object.js";
import { asResult, type Result } from "../result.js";
import { CODE_LIMITS, newCode, windowOf } from "./codes.js";
import { LIMIT_TABLE } from "../../src/protocol/limits/registry.js";
import type { GroupFlood } from "./calls.js";
import { DeferredEventsSchema, DeferredQueue } from "./deferred.js";
import { hookContext } from "./handle.js";
import type { Redeemed } from "./calls.js";

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE codes (hash TEXT PRIMARY KEY, owner_key TEXT NOT NULL, platform TEXT NOT NULL, lang TEXT NOT NULL,
     created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER, used_by TEXT);
   CREATE TABLE nonces (owner_key TEXT NOT NULL, nonce TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (owner_key, nonce));
   CREATE TABLE counters (name TEXT NOT NULL, window INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (name, window));
   CREATE TABLE accounts (platform TEXT NOT NULL, account TEXT NOT NULL, owner_key TEXT NOT NULL, at INTEGER NOT NULL,
     PRIMARY KEY (platform, account, owner_key));
   CREATE TABLE seen (id TEXT PRIMARY KEY, at INTEGER NOT NULL);`,
  `CREATE TABLE line_queue (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, event TEXT NOT NULL, at INTEGER NOT NULL);`,
  // The queue above became every platform's (decision 0360); the rows already in it came from the one platform that used it.
  `ALTER TABLE line_queue RENAME TO deferred;
   ALTER TABLE deferred ADD COLUMN platform TEXT NOT NULL DEFAULT 'line';`,
  // Markets' chat groups (decision 0500): a code that binds a group names its market and carries the creator's signed
  // request; each group (platform and id) is the front door of one market at most.
  `ALTER TABLE codes ADD COLUMN market TEXT;
   ALTER TABLE codes ADD COLUMN request TEXT;
   CREATE TABLE groups (platform TEXT NOT NULL, group_id TEXT NOT NULL, market TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (platform, group_id));`,
];

/** The chat directory. */
export class ChatDirectoryDO extends SqliteObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, MIGRATIONS);
  }

  /**
   * A new code for a verified bind-code statement; each nonce once, at most CODE_LIMITS.per_owner
   * codes per window. Both are checked before anything is written: a refused request spends
   * neither its nonce nor the window's count, so sent again it is refused the same way.
   */
  async createCode(statement: BindCodeStatement): Promise<Result<{ code: string; expires: number }>> {
    return asResult(() => this.newCode(statement.owner_key, statement, { market: null, request: null }));
  }

  /**
   * A new code that binds one group of `platform` to `market`, for its creator's request (the
   * market's object checked it): the same nonce, rate and guess rules as an owner's code, counted
   * against the creator's key.
   */
  async createGroupCode(
    market: string,
    creatorKey: string,
    request: GroupCodeRequest,
  ): Promise<Result<{ code: string; expires: number }>> {
    return asResult(() => this.newCode(creatorKey, request.statement, { market, request: JSON.stringify(request) }));
  }

  private newCode(
    ownerKey: string,
    statement: { platform: ChatPlatform; lang: Lang; nonce: string },
    group: { market: string | null; request: string | null },
  ): { code: string; expires: number } {
    const now = this.now();
    this.prune(now);
    const used =
      this.sql.exec("SELECT 1 FROM nonces WHERE owner_key = ? AND nonce = ?", ownerKey, statement.nonce).toArray()
        .length > 0;
    if (used) throw new TrestleError("E_NONCE_REUSED", "this code request was already used; sign a new one");
    const counter = `owner:${ownerKey}`;
    if (this.peek(counter, CODE_LIMITS.window_ms, now) >= CODE_LIMITS.per_owner) {
      const wait = untilWindowEnds(now, CODE_LIMITS.window_ms);
      throw rateLimited(
        "bind_codes_per_owner",
        wait,
        `at most ${CODE_LIMITS.per_owner} bind codes per ${CODE_LIMITS.window_ms / 60_000} minutes; retry in ${waitText(wait)}`,
      );
    }
    this.sql.exec("INSERT INTO nonces (owner_key, nonce, at) VALUES (?, ?, ?)", ownerKey, statement.nonce, now);
    this.count(counter, CODE_LIMITS.window_ms, now);
    const code = newCode(crypto.getRandomValues(new Uint8Array(8)));
    const expires = now + CODE_LIMITS.ttl_ms;
    this.sql.exec(
      "INSERT INTO codes (hash, owner_key, platform, lang, created_at, expires_at, market, request) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      codeHash(code),
      ownerKey,
      statement.platform,
      statement.lang,
      now,
      expires,
      group.market,
      group.request,
    );
    return { code, expires };
  }

  /**
   * Redeems `code` for `account`, sent in its private chat or in `group`: a locked-out account or
   * relay-wide guessing gets `too_many` before the code is even looked at; every miss counts against
   * both limits. An owner's code binds only from a private chat: one sent in a group, where others
   * read it, is spent without binding (`in_group`). A group's code binds only the group it is sent
   * in, one market per group: it stays unspent when sent privately or in a group another market has
   * (`group_taken`); otherwise the group is reserved for its market here, in the same step.
   */
  async redeem(
    platform: ChatPlatform,
    account: string,
    code: string,
    group: string | null = null,
  ): Promise<Result<Redeemed>> {
    return asResult((): Redeemed => {
      const now = this.now();
      const accountKey = `miss:${platform}:${account}`;
      if (this.peek(accountKey, CODE_LIMITS.window_ms, now) >= CODE_LIMITS.misses_per_account)
        return { outcome: "too_many" };
      if (this.peek("miss:*", CODE_LIMITS.global_window_ms, now) >= CODE_LIMITS.misses_global)
        return { outcome: "too_many" };
      const row = this.sql.exec("SELECT * FROM codes WHERE hash = ?", codeHash(code)).toArray()[0];
      if (!row || row.used_at !== null || Number(row.expires_at) < now) {
        this.count(accountKey, CODE_LIMITS.window_ms, now);
        this.count("miss:*", CODE_LIMITS.global_window_ms, now);
        return { outcome: "bad" };
      }
      if (row.platform !== platform)
        return { outcome: "wrong_platform", platform: String(row.platform) as ChatPlatform };
      const spend = (by: string) =>
        this.sql.exec("UPDATE codes SET used_at = ?, used_by = ? WHERE hash = ?", now, by, codeHash(code));
      if (row.market !== null) return this.redeemGroupCode(row, platform, group, spend, now);
      if (group !== null) {
        spend(`${platform}:${group}:${account}`);
        return { outcome: "in_group" };
      }
      const ownerKey = String(row.owner_key);
      spend(`${platform}:${account}`);
      this.sql.exec(
        "INSERT OR REPLACE INTO accounts (platform, account, owner_key, at) VALUES (?, ?, ?, ?)",
        platform,
        account,
        ownerKey,
        now,
      );
      return { outcome: "bound", owner_key: ownerKey, lang: String(row.lang) as Lang };
    });
  }

  private redeemGroupCode(
    row: Record<string, SqlStorageValue>,
    platform: ChatPlatform,
    group: string | null,
    spend: (by: string) => void,
    now: number,
  ): Redeemed {
    const market = String(row.market);
    if (group === null) return { outcome: "group_code_private", market };
    const taken = this.groupMarketOf(platform, group);
    if (taken !== null) return { outcome: "group_taken", market: taken };
    spend(`${platform}:${group}`);
    this.sql.exec(
      "INSERT INTO groups (platform, group_id, market, at) VALUES (?, ?, ?, ?)",
      platform,
      group,
      market,
      now,
    );
    return {
      outcome: "group",
      market,
      request: JSON.parse(String(row.request)) as unknown,
      lang: String(row.lang) as Lang,
    };
  }

  /** The market `group` of `platform` is the front door of, or null. */
  async groupMarket(platform: ChatPlatform, group: string): Promise<Result<string | null>> {
    return asResult(() => this.groupMarketOf(platform, group));
  }

  /** Frees `group` of `platform` if `market` holds it (its binding was refused, unbound, or never written); true if it did. */
  async releaseGroup(platform: ChatPlatform, group: string, market: string): Promise<Result<boolean>> {
    return asResult(
      () =>
        this.sql.exec("DELETE FROM groups WHERE platform = ? AND group_id = ? AND market = ?", platform, group, market)
          .rowsWritten > 0,
    );
  }

  private groupMarketOf(platform: ChatPlatform, group: string): string | null {
    const row = this.sql
      .exec("SELECT market FROM groups WHERE platform = ? AND group_id = ?", platform, group)
      .toArray()[0];
    return row ? String(row.market) : null;
  }

  /**
   * Counts one command `account` sent in bound `group` against its per-member and per-group windows
   * (`group_commands_per_member`, `group_commands_per_group`); the first it is past and the wait
   * until that window ends, or null. A command past a limit is still counted.
   */
  async countGroupCommand(platform: ChatPlatform, group: string, account: string): Promise<Result<GroupFlood | null>> {
    return asResult(() => {
      const now = this.now();
      const limits = [
        {
          limit: "group_commands_per_member" as const,
          name: `group:${platform}:${group}:${account}`,
          row: LIMIT_TABLE.group_commands_per_member,
        },
        {
          limit: "group_commands_per_group" as const,
          name: `group:${platform}:${group}`,
          row: LIMIT_TABLE.group_commands_per_group,
        },
      ];
      const counts = limits.map((l) => this.count(l.name, l.row.window_ms, now));
      const past = limits.find((l, i) => counts[i]! > l.row.count);
      return past ? { limit: past.limit, wait_ms: untilWindowEnds(now, past.row.window_ms) } : null;
    });
  }

  /** The owner keys `account` is bound to, oldest binding first. */
  async owners(platform: ChatPlatform, account: string): Promise<Result<string[]>> {
    return asResult(() =>
      this.sql
        .exec(
          "SELECT owner_key FROM accounts WHERE platform = ? AND account = ? ORDER BY at, owner_key",
          platform,
          account,
        )
        .toArray()
        .map((r) => String(r.owner_key)),
    );
  }

  /** Forgets that `account` is bound to `ownerKey` (or to anyone, when omitted). */
  async unindex(platform: ChatPlatform, account: string, ownerKey?: string): Promise<Result<number>> {
    return asResult(() =>
      ownerKey === undefined
        ? this.sql.exec("DELETE FROM accounts WHERE platform = ? AND account = ?", platform, account).rowsWritten
        : this.sql.exec(
            "DELETE FROM accounts WHERE platform = ? AND account = ? AND owner_key = ?",
            platform,
            account,
            ownerKey,
          ).rowsWritten,
    );
  }

  /** Records a webhook event id; true if it was already handled (a redelivery or replay). */
  async seen(id: string): Promise<Result<boolean>> {
    return asResult(() => {
      const now = this.now();
      return this.sql.exec("INSERT OR IGNORE INTO seen (id, at) VALUES (?, ?)", id, now).rowsWritten === 0;
    });
  }

  /** Queues events `platform`'s webhook could not answer within its invocation, for the alarm. */
  async defer(platform: ChatPlatform, events: unknown): Promise<Result<{ queued: number }>> {
    return asResult(async () => {
      const queued = new DeferredQueue(this.sql).add(
        parseOrThrow(ChatPlatformSchema, platform, "platform"),
        parseOrThrow(DeferredEventsSchema, events, "deferred events"),
        this.now(),
      );
      if ((await this.ctx.storage.getAlarm()) === null)
        await this.ctx.storage.setAlarm(this.now() + outboxDelay(this.env));
      return { queued };
    });
  }

  /** Answers the next EVENTS_PER_INVOCATION deferred events, each once, through its platform's `replay`, and comes back while any wait. */
  override async alarm(): Promise<void> {
    const queue = new DeferredQueue(this.sql);
    for (const { seq, platform, event } of queue.take(EVENTS_PER_INVOCATION)) {
      try {
        const connected = chatPlatforms(this.env)[platform];
        if (!connected.replay) throw new Error(`${platform} defers no events`);
        await connected.replay(event, hookContext(this.env, platform, this));
      } catch (error) {
        // Its event id is already marked seen: a retry would do nothing, so it leaves the queue either way.
        console.error("a deferred webhook event failed", error);
      }
      queue.done(seq);
    }
    if (queue.waiting()) await this.ctx.storage.setAlarm(this.now() + outboxDelay(this.env));
  }

  /** Increments a fixed-window counter and returns its new value. */
  private count(name: string, windowMs: number, now: number): number {
    const window = windowOf(now, windowMs);
    this.sql.exec(
      "INSERT INTO counters (name, window, count) VALUES (?, ?, 1) ON CONFLICT (name, window) DO UPDATE SET count = count + 1",
      name,
      window,
    );
    return this.peek(name, windowMs, now);
  }

  private peek(name: string, windowMs: number, now: number): number {
    const row = this.sql
      .exec("SELECT count FROM counters WHERE name = ? AND window = ?", name, windowOf(now, windowMs))
      .toArray()[0];
    return row ? Number(row.count) : 0;
  }

  private prune(now: number): void {
    this.sql.exec("DELETE FROM codes WHERE expires_at < ?", now - CODE_LIMITS.keep_ms);
    this.sql.exec("DELETE FROM nonces WHERE at < ?", now - CODE_LIMITS.keep_ms);
    this.sql.exec("DELETE FROM seen WHERE at < ?", now - CODE_LIMITS.keep_ms);
    this.sql.exec("DELETE FROM counters WHERE window < ?", now - CODE_LIMITS.keep_ms);
  }
}

function codeHash(code: string): string {
  return toHex(sha256(utf8(code)));
}
