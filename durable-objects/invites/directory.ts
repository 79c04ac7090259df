/**
 * InviteDirectoryDO: one instance (named "invites") mapping a room invite's short code to its room
 * and invite id (docs/SPEC.md §5.10, §11.2's rules applied to rooms). It sees every redemption, so
 * it holds the exact guess counters: a client that sent 5 wrong codes in 15 minutes is refused
 * outright (even with a right code) until the window passes, and after 100 wrong codes relay-wide
 * in an hour every redemption is refused for the rest of that hour. Codes are stored with their
 * hash as the key; the ledger never sees them. A code is single purpose (one invite of one room),
 * expires with its invite, is dropped when the creator rotates the invite, and is spent by the join
 * it admits.
 */
import { DurableObject } from "cloudflare:workers";
import { toHex, utf8 } from "../../src/protocol/encoding/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { rateLimited, untilWindowEnds, waitText } from "../../src/protocol/limits/rate-limited.js";
import { LIMIT_TABLE } from "../../src/protocol/limits/registry.js";
import { sha256 } from "../../src/protocol/encoding/hash.js";
import { normalizeInviteCode } from "../../src/protocol/schemas/room.js";
import { newCode, windowOf } from "../chat-directory/codes.js";
import { asResult, type Result } from "../result.js";
import { runMigrations } from "../sqlite.js";

/** Guess limits on redeeming invite codes (their rows in src/protocol/limits/registry.ts). */
export const INVITE_LIMITS = {
  /** Wrong codes one client may send per window before it is refused outright (`invite_misses_per_client`). */
  misses_per_client: LIMIT_TABLE.invite_misses_per_client.count,
  window_ms: LIMIT_TABLE.invite_misses_per_client.window_ms,
  /** Wrong codes the whole relay accepts per global window before all redemption pauses (`invite_misses_relay`). */
  misses_global: LIMIT_TABLE.invite_misses_relay.count,
  global_window_ms: LIMIT_TABLE.invite_misses_relay.window_ms,
  /** Spent, rotated and expired codes and old counters are kept this long. */
  keep_ms: 24 * 60 * 60 * 1000,
} as const;

/** Where a code points. */
export interface InviteTarget {
  table: string;
  invite: string;
  expires: number;
}

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE codes (hash TEXT PRIMARY KEY, code TEXT NOT NULL, table_id TEXT NOT NULL, invite TEXT NOT NULL,
     expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL, ended_at INTEGER, UNIQUE (table_id, invite));
   CREATE TABLE counters (name TEXT NOT NULL, window INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (name, window));`,
];

/** The invite directory. */
export class InviteDirectoryDO extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    runMigrations(this.sql, MIGRATIONS);
  }

  now(): number {
    return Date.now();
  }

  /**
   * The code for `invite` of `table` (a new one, or the same one again for a retried issue), valid
   * until `expires`; the code of the invite it `replaces`, if any, stops working.
   */
  async register(target: InviteTarget & { replaces?: string }): Promise<Result<{ code: string }>> {
    return asResult(() => {
      const now = this.now();
      this.prune(now);
      if (target.replaces !== undefined) {
        this.sql.exec(
          "UPDATE codes SET ended_at = ? WHERE table_id = ? AND invite = ? AND ended_at IS NULL",
          now,
          target.table,
          target.replaces,
        );
      }
      const existing = this.sql
        .exec("SELECT code FROM codes WHERE table_id = ? AND invite = ?", target.table, target.invite)
        .toArray()[0];
      if (existing) return { code: String(existing.code) };
      for (;;) {
        const code = newCode(crypto.getRandomValues(new Uint8Array(8)));
        const written = this.sql.exec(
          "INSERT OR IGNORE INTO codes (hash, code, table_id, invite, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
          codeHash(code),
          code,
          target.table,
          target.invite,
          target.expires,
          now,
        ).rowsWritten;
        if (written > 0) return { code };
      }
    });
  }

  /**
   * Where `typed` points, for `client` (an IP address or other per-client key): a locked-out client
   * or relay-wide guessing is refused (E_RATE_LIMITED, with the wait until its window ends) before the code is looked at; a code that is
   * unknown, spent, rotated or expired is E_INVITE and counts against both limits.
   */
  async resolve(typed: string, client: string): Promise<Result<InviteTarget>> {
    return asResult(() => {
      const now = this.now();
      const clientKey = `miss:${client}`;
      if (this.peek(clientKey, INVITE_LIMITS.window_ms, now) >= INVITE_LIMITS.misses_per_client) {
        const wait = untilWindowEnds(now, INVITE_LIMITS.window_ms);
        throw rateLimited(
          "invite_misses_per_client",
          wait,
          `too many wrong invite codes from here; try again in ${waitText(wait)}`,
        );
      }
      if (this.peek("miss:*", INVITE_LIMITS.global_window_ms, now) >= INVITE_LIMITS.misses_global) {
        const wait = untilWindowEnds(now, INVITE_LIMITS.global_window_ms);
        throw rateLimited(
          "invite_misses_relay",
          wait,
          `too many wrong invite codes on this relay; redemption is paused for ${waitText(wait)}`,
        );
      }
      const code = normalizeInviteCode(typed);
      const row =
        code === null ? undefined : this.sql.exec("SELECT * FROM codes WHERE hash = ?", codeHash(code)).toArray()[0];
      if (!row || row.ended_at !== null || Number(row.expires_at) <= now) {
        this.count(clientKey, INVITE_LIMITS.window_ms, now);
        this.count("miss:*", INVITE_LIMITS.global_window_ms, now);
        throw new TrestleError("E_INVITE", "no live invite has this code (unknown, used, rotated or expired)");
      }
      return { table: String(row.table_id), invite: String(row.invite), expires: Number(row.expires_at) };
    });
  }

  /** Spends the code of `invite` of `table` once the join it admitted is in the ledger. */
  async spend(table: string, invite: string): Promise<Result<{ spent: boolean }>> {
    return asResult(() => {
      const written = this.sql.exec(
        "UPDATE codes SET ended_at = ? WHERE table_id = ? AND invite = ? AND ended_at IS NULL",
        this.now(),
        table,
        invite,
      ).rowsWritten;
      return { spent: written > 0 };
    });
  }

  /** Increments a fixed-window counter. */
  private count(name: string, windowMs: number, now: number): void {
    this.sql.exec(
      "INSERT INTO counters (name, window, count) VALUES (?, ?, 1) ON CONFLICT (name, window) DO UPDATE SET count = count + 1",
      name,
      windowOf(now, windowMs),
    );
  }

  private peek(name: string, windowMs: number, now: number): number {
    const row = this.sql
      .exec("SELECT count FROM counters WHERE name = ? AND window = ?", name, windowOf(now, windowMs))
      .toArray()[0];
    return row ? Number(row.count) : 0;
  }

  private prune(now: number): void {
    this.sql.exec(
      "DELETE FROM codes WHERE expires_at < ? OR ended_at < ?",
      now - INVITE_LIMITS.keep_ms,
      now - INVITE_LIMITS.keep_ms,
    );
    this.sql.exec("DELETE FROM counters WHERE window < ?", now - INVITE_LIMITS.keep_ms);
  }
}

function codeHash(code: string): string {
  return toHex(sha256(utf8(`trestle invite code\n${code}`)));
}
