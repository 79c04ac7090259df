/**
 * Ordered SQLite migrations for a Durable Object: `meta.schema_version` records how many ran; a
 * migration is never edited once shipped, only appended.
 */

/**
 * Brings `sql` up to `migrations.length`; index i brings the schema from version i to i + 1. A new
 * object (version 0) runs `fresh` instead when given: the schema the migrations end with, written
 * without their intermediate steps (a table rebuilt, columns added). Returns the version reached. The version row is written once, after the last migration: the object runs
 * them with no await between, so they and the row commit together (a row per migration cost a
 * new table a dozen rows written for nothing; docs/BENCHMARKS.md "A market").
 */
export function runMigrations(sql: SqlStorage, migrations: readonly string[], fresh?: readonly string[]): number {
  const hasMeta = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
  const from = hasMeta
    ? Number(sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0]?.value ?? 0)
    : 0;
  if (from >= migrations.length) return from;
  // A new object gets the schema the migrations would leave (`fresh`, one statement per exec, with a `meta` table) in one step.
  if (from === 0 && fresh) for (const statement of fresh) sql.exec(statement);
  else for (let version = from; version < migrations.length; version += 1) sql.exec(migrations[version]!);
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", String(migrations.length));
  return migrations.length;
}
