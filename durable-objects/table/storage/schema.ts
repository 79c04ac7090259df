/**
 * The table's SQLite schema and its ordered migrations. `meta.schema_version` records how many
 * migrations ran; a migration is never edited once shipped, only appended.
 */
import { runMigrations } from "../../sqlite.js";

/** Ordered migrations; index i brings the schema from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE entries (
     seq INTEGER PRIMARY KEY,
     nonce_key TEXT UNIQUE,
     entry TEXT NOT NULL
   );
   CREATE TABLE originals (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);`,
  // Owner notifications not yet taken by their owners' objects (notify.ts); since migration 7 only those an owner's object did not take.
  `CREATE TABLE notices (id INTEGER PRIMARY KEY AUTOINCREMENT, owner_key TEXT NOT NULL, events TEXT NOT NULL, attempts INTEGER NOT NULL, next_at INTEGER NOT NULL);
   CREATE INDEX notices_due ON notices (next_at);`,
  // One row written per entry (issue 12): no index on nonce_key (the nonces are kept in memory,
  // ledger.ts), and a `checkpoint` column a row carries every CHECKPOINT_EVERY entries (the constant is ledger.ts's; what it holds, checkpoint.ts).
  `CREATE TABLE entries_v3 (seq INTEGER PRIMARY KEY, nonce_key TEXT, entry TEXT NOT NULL, checkpoint TEXT);
   INSERT INTO entries_v3 (seq, nonce_key, entry) SELECT seq, nonce_key, entry FROM entries;
   DROP TABLE entries;
   ALTER TABLE entries_v3 RENAME TO entries;`,
  // Custody and mirrors (docs/SPEC.md §8.4, replica.ts): heads of the relays that held the table
  // before this one, or of the relay a mirror follows, with the export bytes up to each; and the
  // evidence a mirror keeps against that relay.
  `CREATE TABLE IF NOT EXISTS kept_heads (seq INTEGER PRIMARY KEY, head TEXT NOT NULL, bytes INTEGER NOT NULL);
   CREATE TABLE IF NOT EXISTS mirror_evidence (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);`,
  // The newest pages a mirror refused as not verifying (replica.ts, decision 0330).
  `CREATE TABLE IF NOT EXISTS mirror_refusals (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);`,
  // The transparency log (docs/SPEC.md §12, decision 0395): one row per full tile (merkle-tree.ts),
  // and the newest cosignature each configured witness gave (witness-cosignatures.ts).
  `CREATE TABLE IF NOT EXISTS tlog_tiles (level INTEGER NOT NULL, idx INTEGER NOT NULL, hashes BLOB NOT NULL, root BLOB NOT NULL, PRIMARY KEY (level, idx));
   CREATE TABLE IF NOT EXISTS tlog_cosignatures (witness TEXT PRIMARY KEY, size INTEGER NOT NULL, checkpoint TEXT NOT NULL, line TEXT NOT NULL);`,
  // Owner notifications ride in the row of the entry that causes them (notify.ts, decision 0532); `meta.notices_through`
  // is the entry up to which they were handed over, here every entry written before (their notices rows stay until taken).
  `ALTER TABLE entries ADD COLUMN notices TEXT;
   INSERT OR IGNORE INTO meta (key, value) SELECT 'notices_through', seq FROM entries ORDER BY seq DESC LIMIT 1;`,
  // `meta` without a rowid (decision 0534): a key is one row written, not a row and its primary key's index.
  `CREATE TABLE meta_v8 (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   INSERT INTO meta_v8 (key, value) SELECT key, value FROM meta;
   DROP TABLE meta;
   ALTER TABLE meta_v8 RENAME TO meta;`,
];

/**
 * A new table's schema, as MIGRATIONS leave it but for the tables most tables never use (a row
 * each in sqlite_master, and more for their indexes and AUTOINCREMENT counters): those are
 * LAZY_TABLES, made at their first write (decision 0534). One statement per exec.
 */
export const FRESH_SCHEMA: readonly string[] = [
  `CREATE TABLE "meta" (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE "entries" (seq INTEGER PRIMARY KEY, nonce_key TEXT, entry TEXT NOT NULL, checkpoint TEXT, notices TEXT)`,
];

/**
 * The tables a new table's schema leaves out, each as MIGRATIONS leave it, made by `ensureTable`
 * at its first write; a read finds no rows where the table is missing (`hasTable`). A migration
 * that changes one of them must change its statements here too, and apply only where it exists.
 */
export const LAZY_TABLES = {
  originals: ["CREATE TABLE IF NOT EXISTS originals (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)"],
  notices: [
    "CREATE TABLE IF NOT EXISTS notices (id INTEGER PRIMARY KEY AUTOINCREMENT, owner_key TEXT NOT NULL, events TEXT NOT NULL, attempts INTEGER NOT NULL, next_at INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS notices_due ON notices (next_at)",
  ],
  kept_heads: [
    "CREATE TABLE IF NOT EXISTS kept_heads (seq INTEGER PRIMARY KEY, head TEXT NOT NULL, bytes INTEGER NOT NULL)",
  ],
  mirror_evidence: [
    "CREATE TABLE IF NOT EXISTS mirror_evidence (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)",
  ],
  mirror_refusals: [
    "CREATE TABLE IF NOT EXISTS mirror_refusals (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)",
  ],
  tlog_tiles: [
    "CREATE TABLE IF NOT EXISTS tlog_tiles (level INTEGER NOT NULL, idx INTEGER NOT NULL, hashes BLOB NOT NULL, root BLOB NOT NULL, PRIMARY KEY (level, idx))",
  ],
  tlog_cosignatures: [
    "CREATE TABLE IF NOT EXISTS tlog_cosignatures (witness TEXT PRIMARY KEY, size INTEGER NOT NULL, checkpoint TEXT NOT NULL, line TEXT NOT NULL)",
  ],
} as const satisfies Record<string, readonly string[]>;

/** One of the tables made at its first write. */
export type LazyTable = keyof typeof LAZY_TABLES;

/** Whether `name` exists in this object (a read of it finds no rows otherwise); asked of SQLite each time, so a rolled-back write or a deletion is never misremembered. */
export function hasTable(sql: SqlStorage, name: LazyTable): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
}

/** Makes `name` if it does not exist yet; call before writing to it, inside the transaction of the write. */
export function ensureTable(sql: SqlStorage, name: LazyTable): void {
  if (hasTable(sql, name)) return;
  for (const statement of LAZY_TABLES[name]) sql.exec(statement);
}

/** Brings the schema up to date (a new table gets FRESH_SCHEMA); returns the version reached. */
export function migrate(sql: SqlStorage): number {
  return runMigrations(sql, MIGRATIONS, FRESH_SCHEMA);
}

/** Whether this object has any schema yet (false for a table id nobody created). */
export function hasSchema(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entries'").toArray().length > 0;
}
