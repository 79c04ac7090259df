/**
 * The OwnerDO's SQLite schema: bound channels, received events (the inbox, with the owner's
 * table list), the outbox (one row per event and channel, with whether its message offered
 * Approve, whether an earlier send may have arrived, how often it was sent again, and why it was
 * given up) and the attempt log.
 */
import { runMigrations } from "../sqlite.js";

/** Ordered migrations; index i brings the schema from version i to i + 1. */
export const OWNER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE channels (
     platform TEXT NOT NULL, account TEXT NOT NULL, chat TEXT NOT NULL, label TEXT NOT NULL, lang TEXT NOT NULL,
     bound_at INTEGER NOT NULL, delivered INTEGER NOT NULL DEFAULT 0, last_delivered_at INTEGER,
     PRIMARY KEY (platform, account)
   );
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, table_id TEXT,
     ref TEXT UNIQUE, body TEXT NOT NULL, received_at INTEGER NOT NULL
   );
   CREATE TABLE tables (id TEXT PRIMARY KEY, topic TEXT NOT NULL, state TEXT NOT NULL, updated_at INTEGER NOT NULL);
   CREATE TABLE outbox (
     event_id TEXT NOT NULL, platform TEXT NOT NULL, account TEXT NOT NULL, key TEXT NOT NULL,
     state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
     PRIMARY KEY (event_id, platform, account)
   );
   CREATE INDEX outbox_due ON outbox (state, next_at);
   CREATE TABLE attempts (
     id INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, account TEXT NOT NULL, event_id TEXT NOT NULL,
     status TEXT NOT NULL, http_status INTEGER, reason TEXT, detail TEXT, at INTEGER NOT NULL
   );
   CREATE INDEX attempts_channel ON attempts (platform, account, id);`,
  // Whether the message sent for a row offered Approve; rows sent before this count as not (a tap there cannot approve).
  `ALTER TABLE outbox ADD COLUMN approve INTEGER NOT NULL DEFAULT 0;`,
  // At-least-once delivery (docs/SPEC.md §11.4): whether an earlier send of the row may have reached
  // the platform (its next send is a resend, marked), how many resends went out, and why a row
  // ended `failed`; each attempt records the resend count it went out with.
  `ALTER TABLE outbox ADD COLUMN maybe_sent INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE outbox ADD COLUMN resends INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE outbox ADD COLUMN reason TEXT;
   ALTER TABLE attempts ADD COLUMN resends INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX outbox_failed ON outbox (platform, account, state, updated_at);`,
  // Who holds which pause at each table (JSON PauseHolder[]), from the newest pause or lift event that said so.
  `ALTER TABLE tables ADD COLUMN pauses TEXT NOT NULL DEFAULT '[]';`,
  // A market's group audience (group-audience.ts): the rows of a market's news sent in one message share its batch (the key
  // of its first row), so a resend carries the same items under the same key; a group is posted to no sooner than next_send_at.
  `ALTER TABLE outbox ADD COLUMN batch TEXT;
   ALTER TABLE channels ADD COLUMN next_send_at INTEGER NOT NULL DEFAULT 0;`,
  // Why the bot can no longer post to a channel (a group it was removed from, or that moved to a new id): nothing more is sent there.
  `ALTER TABLE channels ADD COLUMN gone TEXT;`,
];

/** Brings the owner schema up to date. */
export function migrateOwner(sql: SqlStorage): number {
  return runMigrations(sql, OWNER_MIGRATIONS);
}
