/**
 * Ordered SQLite migrations for a Durable Object: `meta.schema_version` records how many ran; a
 * migration is never edited once shipped, only appended.
 */

/** Brings `sql` up to `migrations.length`; index i brings the schema from version i to i + 1. Returns the version reached. */
export function runMigrations(sql: SqlStorage, migrations: readonly string[]): number {
  const hasMeta = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
  let version = hasMeta ? Number(sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0]?.value ?? 0) : 0;
  while (version < migrations.length) {
    sql.exec(migrations[version]!);
    version += 1;
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", String(version));
  }
  return version;
}
