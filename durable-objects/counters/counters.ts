/**
 * CounterDO: one Durable Object per client address (`client:<address>`) or owner key
 * (`owner:<key>`), counting what happens across tables exactly (decision 0260): creations, joins,
 * socket upgrades and replica pages per client address; creations per owner key and the tables it holds. Only
 * traffic from that one address or key reaches its object, so a flood slows nobody else. Its
 * buckets are kept in SQLite (one row per bucket, rewritten on each allowed request; nothing is
 * written for a refusal), so they outlive a wake, unlike the per-table counters in memory.
 */
import { TrestleError } from "../../src/protocol/errors.js";
import type { OperatorLimitName } from "../../src/protocol/limits/operator-limits.js";
import { rateLimited, waitText } from "../../src/protocol/limits/rate-limited.js";
import { rateOf } from "../limits/config.js";
import { limitsOf } from "../settings.js";
import { step } from "../limits/gcra.js";
import { asResult, type Result } from "../result.js";
import { SqliteObject } from "../sqlite-object.js";

/** The limits counted per client address. */
export type ClientLimit =
  "client_tables_per_hour" | "client_joins_per_min" | "client_connects_per_min" | "client_pages_per_hour";

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE buckets (name TEXT PRIMARY KEY, tat INTEGER NOT NULL);
   CREATE TABLE tables (id TEXT PRIMARY KEY, at INTEGER NOT NULL);`,
];

const WHAT: Record<ClientLimit | "owner_tables_per_hour", string> = {
  client_tables_per_hour: "tables opened from this address",
  client_joins_per_min: "joins from this address",
  client_connects_per_min: "socket connections from this address",
  client_pages_per_hour: "replica pages sent from this address",
  owner_tables_per_hour: "tables opened by this owner key",
};

/** The counters of one client address or one owner key. */
export class CounterDO extends SqliteObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, MIGRATIONS);
  }

  /** Counts one request against this address's `limit`; E_RATE_LIMITED (with the wait) when its bucket is empty. */
  async take(limit: ClientLimit): Promise<Result<null>> {
    return asResult(() => {
      this.spend(limit, this.now());
      return null;
    });
  }

  /**
   * Counts `table` as opened by this owner key: against `owner_tables_per_hour`, then the quota of
   * tables held (`owner_tables`, E_QUOTA). A table already counted (a retried create) is not counted again.
   */
  async claimTable(table: string): Promise<Result<{ counted: boolean }>> {
    return asResult(() => {
      if (this.sql.exec("SELECT 1 FROM tables WHERE id = ?", table).toArray().length > 0) return { counted: false };
      const now = this.now();
      const quota = limitsOf(this.env).owner_tables;
      const held = Number(this.sql.exec("SELECT COUNT(*) AS n FROM tables").one().n);
      if (quota > 0 && held >= quota) {
        throw new TrestleError(
          "E_QUOTA",
          `this owner key already holds ${held} tables, the most this relay allows; delete one first`,
          { limit: "owner_tables", quota, held },
        );
      }
      this.spend("owner_tables_per_hour", now);
      this.sql.exec("INSERT INTO tables (id, at) VALUES (?, ?)", table, now);
      return { counted: true };
    });
  }

  /** Stops counting `table` for this owner key (it was deleted, or its creation failed after the claim). */
  async releaseTable(table: string): Promise<Result<{ released: boolean }>> {
    return asResult(() => ({ released: this.sql.exec("DELETE FROM tables WHERE id = ?", table).rowsWritten > 0 }));
  }

  /** Takes a token from bucket `limit` or throws E_RATE_LIMITED; a refusal writes nothing. */
  private spend(limit: ClientLimit | "owner_tables_per_hour", now: number): void {
    const name: OperatorLimitName = limit;
    const rate = rateOf(limitsOf(this.env), name);
    if (rate.count <= 0) return;
    const row = this.sql.exec("SELECT tat FROM buckets WHERE name = ?", name).toArray()[0];
    const { tat, waitMs } = step(rate, row ? Number(row.tat) : undefined, now);
    if (waitMs > 0)
      throw rateLimited(
        limit,
        waitMs,
        `too many ${WHAT[limit]} (${name}: ${rate.count}); retry in ${waitText(waitMs)}`,
      );
    this.sql.exec(
      "INSERT INTO buckets (name, tat) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET tat = excluded.tat",
      name,
      tat,
    );
  }
}
