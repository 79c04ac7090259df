/**
 * The tombstone a deleted table leaves on this relay (docs/SPEC.md §6.6, decision 0261): burying
 * deletes all of the object's storage (its alarm with it) and writes the tombstone in the same
 * batch of writes, with no await between them, so they commit together: the id is never a fresh,
 * empty object again, and every later request for it (a create included) reads the tombstone as
 * E_TABLE_DELETED.
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { TombstoneSchema, type Tombstone } from "../../../src/protocol/schemas/lifetime.js";

/** The tombstone of a deleted table, with the canonical text of the signed delete that made it (none for an expiry). */
export interface Burial {
  tombstone: Tombstone;
  request: string | null;
}

/** The tombstone this object holds, or null for a table (or an id) that was never deleted. */
export function readBurial(sql: SqlStorage): Burial | null {
  const exists =
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tombstone'").toArray().length > 0;
  const row = exists ? sql.exec("SELECT body, request FROM tombstone WHERE id = 1").toArray()[0] : undefined;
  if (!row) return null;
  return {
    tombstone: TombstoneSchema.parse(JSON.parse(String(row.body))),
    request: row.request === null ? null : String(row.request),
  };
}

/** Deletes everything the object stores (alarm included) and writes `burial` in the same batch; resolves once the deletion is done. */
export function bury(storage: DurableObjectStorage, burial: Burial): Promise<void> {
  const deleted = storage.deleteAll();
  // No await before these: they commit with the deletion, never without it.
  storage.sql.exec("CREATE TABLE tombstone (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL, request TEXT)");
  storage.sql.exec(
    "INSERT INTO tombstone (id, body, request) VALUES (1, ?, ?)",
    JSON.stringify(burial.tombstone),
    burial.request,
  );
  return deleted;
}

/** The refusal of every request for a deleted table, its tombstone as details. */
export function deletedError(tombstone: Tombstone): TrestleError {
  const why =
    tombstone.reason === "owner"
      ? `by its creator ${tombstone.owner ?? ""}`.trim()
      : "when its lifetime on this relay ended";
  return new TrestleError(
    "E_TABLE_DELETED",
    `table ${tombstone.table} was deleted ${why}; its id is never used again`,
    { ...tombstone },
  );
}

/** A repeat of the signed delete that made `burial` (`request`: its canonical text) gets its tombstone again; anything else is E_TABLE_DELETED. */
export function repeatedDelete(burial: Burial, request: string | null): Tombstone {
  if (request !== null && request === burial.request) return burial.tombstone;
  throw deletedError(burial.tombstone);
}
