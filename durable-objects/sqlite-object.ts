/** The shell of a Durable Object whose whole state is one SQLite schema (sqlite.ts), brought up to date when it wakes. */
import { DurableObject } from "cloudflare:workers";
import { runMigrations } from "./sqlite.js";

/** A Durable Object over its SQLite schema; `now` is the clock tests replace. */
export abstract class SqliteObject extends DurableObject<Env> {
  protected readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env, migrations: readonly string[]) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    runMigrations(this.sql, migrations);
  }

  now(): number {
    return Date.now();
  }
}
