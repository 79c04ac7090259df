/**
 * Upgrading a deployment keeps its tables (docs/SELF-HOST.md): a table created by this code, then
 * a later version's SQLite migration appended to the table's list and run on it (as the next
 * wake after a deploy would), still rebuilds the same state, verifies CLEAN and takes writes; and
 * so it does if that deploy is rolled back to code that knows fewer migrations; and the migrations
 * record their version once, not once each. A new table's schema (its fresh schema, and each table
 * made at its first write) is exactly the one the migrations leave.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize, verifyExport } from "../../src/protocol/index.js";
import { runMigrations } from "../../durable-objects/sqlite.js";
import {
  ensureTable,
  FRESH_SCHEMA,
  LAZY_TABLES,
  migrate,
  MIGRATIONS,
  type LazyTable,
} from "../../durable-objects/table/storage/schema.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

/** What a later version might append: a new table and a new column on the ledger's table. */
const NEXT_VERSION = [
  ...MIGRATIONS,
  "CREATE TABLE upgrade_probe (key TEXT PRIMARY KEY); ALTER TABLE entries ADD COLUMN probe TEXT;",
];

const stubOf = (id: string) => env.TABLES.getByName(id);
const stateOf = (id: string) =>
  runInDurableObject(stubOf(id), (instance: TableDO) => canonicalize(instance.table.state));

describe("a table created before an upgrade", () => {
  it("keeps its ledger through an appended SQLite migration and a rollback: same state, CLEAN export, new writes", async () => {
    const id = "upgrade-keeps";
    const k = await seatedDebate(relay, id);
    await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "written before the upgrade" });
    const before = await stateOf(id);

    const reached = await runInDurableObject(stubOf(id), (_: TableDO, state) =>
      runMigrations(state.storage.sql, NEXT_VERSION),
    );
    expect(reached).toBe(MIGRATIONS.length + 1);
    // Migrations run once: a second run with the same list does nothing (re-running the CREATE would throw).
    expect(
      await runInDurableObject(stubOf(id), (_: TableDO, state) => runMigrations(state.storage.sql, NEXT_VERSION)),
    ).toBe(reached);

    // This code wakes on the upgraded schema (as after a rollback): it leaves the newer version alone.
    await evictDurableObject(stubOf(id));
    expect(await stateOf(id)).toBe(before);
    expect(await runInDurableObject(stubOf(id), (_: TableDO, state) => migrate(state.storage.sql))).toBe(reached);

    const relayKey = (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string;
    const exported = await relay.read(id, `/tables/${id}/export`, k.ops, { owner: "ops" });
    expect((await verifyExport(exported.body as string, { relayKey })).verdict).toBe("CLEAN");
    const said = await relay.say(id, k.botJenny, { seat: "bot-jenny", kind: "say", body: "written after it" });
    expect(said.status).toBe(201);
  });
});

describe("running migrations", () => {
  it("writes the schema version once for several new migrations, and not at all when there are none", async () => {
    const id = "upgrade-version-once";
    await seatedDebate(relay, id);
    const NEXT = [
      ...MIGRATIONS,
      "CREATE TABLE probe_a (key TEXT PRIMARY KEY);",
      "CREATE TABLE probe_b (key TEXT PRIMARY KEY);",
      "CREATE TABLE probe_c (key TEXT PRIMARY KEY);",
    ];
    const versionWrites = (migrations: readonly string[]) =>
      runInDurableObject(stubOf(id), (_: TableDO, state) => {
        const sql = state.storage.sql;
        const exec = sql.exec.bind(sql);
        let writes = 0;
        sql.exec = ((query: string, ...bindings: unknown[]) => {
          if (query.includes("schema_version") && !query.startsWith("SELECT")) writes += 1;
          return exec(query, ...bindings);
        }) as typeof sql.exec;
        try {
          return { reached: runMigrations(sql, migrations), writes };
        } finally {
          sql.exec = exec as typeof sql.exec;
        }
      });
    expect(await versionWrites(NEXT)).toEqual({ reached: MIGRATIONS.length + 3, writes: 1 });
    expect(await versionWrites(NEXT)).toEqual({ reached: MIGRATIONS.length + 3, writes: 0 });
    expect(
      await runInDurableObject(
        stubOf(id),
        (_: TableDO, state) =>
          state.storage.sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one().value,
      ),
    ).toBe(String(MIGRATIONS.length + 3));
  });
});

/** Every table and index of `sql` with its statement, spelled one way (no quotes, no IF NOT EXISTS, no spaces around punctuation). */
function schemaOf(sql: SqlStorage): string[] {
  const spelled = (text: unknown) =>
    String(text ?? "")
      .replace(/IF NOT EXISTS /g, "")
      .replace(/"/g, "")
      .replace(/\s+/g, " ")
      .replace(/\s*([(),])\s*/g, "$1")
      .trim();
  return sql
    .exec("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name <> '_cf_KV' ORDER BY type, name")
    .toArray()
    .map((r) => `${String(r.type)} ${String(r.name)} on ${String(r.tbl_name)}: ${spelled(r.sql)}`);
}

describe("a new table's schema", () => {
  it("is the migrations' schema: the fresh schema with every table made at its first write", async () => {
    const migrated = await runInDurableObject(stubOf("schema-migrated"), (_: TableDO, state) => {
      runMigrations(state.storage.sql, MIGRATIONS);
      return schemaOf(state.storage.sql);
    });
    const fresh = await runInDurableObject(stubOf("schema-fresh"), (_: TableDO, state) => {
      expect(migrate(state.storage.sql)).toBe(MIGRATIONS.length);
      const made = schemaOf(state.storage.sql);
      for (const name of Object.keys(LAZY_TABLES) as LazyTable[]) ensureTable(state.storage.sql, name);
      return { made, all: schemaOf(state.storage.sql) };
    });
    expect(fresh.all).toEqual(migrated);
    expect(fresh.made.filter((line) => line.startsWith("table "))).toHaveLength(FRESH_SCHEMA.length);
  });
});
