/**
 * The write path's optimisations are correct (issue 12): one SQLite row written per entry, a
 * nonce retried after an eviction still answers with its first seq, shared head signatures all
 * verify and cover their writes, a checkpointed state equals a fold of the whole ledger (and one
 * of another policy version is ignored), and a socket that is behind still gets every entry once.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  fold,
  signSubmission,
  verifyHeadSignature,
  type SignedHead,
  type SubmitRequest,
  type SubmitResponse,
} from "../../src/protocol/index.js";
import type { Result } from "../../durable-objects/result.js";
import { CHECKPOINT_EVERY } from "../../durable-objects/table/storage/ledger.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { nonceOf, type Cast } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
/** A table object's answer as the type it is (RPC wraps it in a type that does not narrow). */
const answered = (answer: unknown) => answer as Result<SubmitResponse>;
const stubOf = (id: string) => env.TABLES.getByName(id);
const OPEN = { topology: { kind: "open" as const }, termination: { any: [{ max_entries: 5000 }] } };

/** A signed say by bot-tao (or `seat`) at `id`. */
function say(
  id: string,
  k: Cast,
  body: string,
  nonce = nonceOf(`${id}:${body}:${Math.random()}`),
  seat: "bot-tao" | "bot-jenny" = "bot-tao",
): Promise<SubmitRequest> {
  return signSubmission(seat === "bot-tao" ? k.botTao : k.botJenny, { table: id, seat, kind: "say", body, nonce });
}

/** Writes `count` says straight to the table object, `parallel` at a time. */
async function write(id: string, k: Cast, count: number, parallel = 16): Promise<void> {
  const requests = await Promise.all(Array.from({ length: count }, (_, i) => say(id, k, `turn ${i}`)));
  for (let i = 0; i < requests.length; i += parallel) {
    const answers = await Promise.all(
      requests.slice(i, i + parallel).map(async (r) => answered(await stubOf(id).submit(r))),
    );
    for (const answer of answers) expect(answer.ok).toBe(true);
  }
}

const stateOf = (id: string) =>
  runInDurableObject(stubOf(id), (instance: TableDO) => canonicalize(instance.table.state));
const foldedOf = (id: string) =>
  runInDurableObject(stubOf(id), (instance: TableDO) => canonicalize(fold(instance.table.ledger.all())));

describe("the write path", () => {
  it("writes one SQLite row per entry, index writes included", async () => {
    const id = "wp-rows";
    const k = await seatedDebate(relay, id, OPEN);
    const request = await say(id, k, "one row");
    const rows = await runInDurableObject(stubOf(id), async (instance: TableDO, state) => {
      const sql = state.storage.sql;
      const exec = sql.exec.bind(sql);
      const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
      sql.exec = ((query: string, ...bindings: unknown[]) => {
        const cursor = exec(query, ...bindings);
        cursors.push(cursor);
        return cursor;
      }) as typeof sql.exec;
      const before = instance.table.ledger.seq;
      try {
        expect((await instance.submit(request)).ok).toBe(true);
      } finally {
        sql.exec = exec as typeof sql.exec;
      }
      return {
        written: cursors.reduce((sum, c) => sum + c.rowsWritten, 0),
        appended: instance.table.ledger.seq - before,
      };
    });
    expect(rows.appended).toBe(1);
    expect(rows.written).toBe(1);
  });

  describe("when a write is retried after the table was evicted", () => {
    it("answers the same request with its first seq, and refuses its nonce on another statement, changing nothing", async () => {
      const id = "wp-nonce";
      const k = await seatedDebate(relay, id, OPEN);
      const nonce = nonceOf(`${id}:retried`);
      const first = answered(await stubOf(id).submit(await say(id, k, "said once", nonce)));
      if (!first.ok) throw new Error(first.error.message);
      await write(id, k, 5);
      await evictDurableObject(stubOf(id));
      const again = answered(await stubOf(id).submit(await say(id, k, "said once", nonce)));
      expect(again.ok && again.value.seq).toBe(first.value.seq);
      await evictDurableObject(stubOf(id));
      const reused = await headUnmoved(relay, id, async () =>
        answered(await stubOf(id).submit(await say(id, k, "said otherwise", nonce))),
      );
      expect(!reused.ok && reused.error.code).toBe("E_NONCE_REUSED");
    });
  });

  it("gives writes that land together heads that verify, each at or after its entry and on the ledger's chain", async () => {
    const id = "wp-heads";
    const k = await seatedDebate(relay, id, OPEN);
    const requests = await Promise.all(Array.from({ length: 40 }, (_, i) => say(id, k, `burst ${i}`)));
    const answers = await Promise.all(requests.map(async (r) => answered(await stubOf(id).submit(r))));
    const heads = new Map<number, SignedHead>();
    for (const answer of answers) {
      if (!answer.ok) throw new Error(answer.error.message);
      expect(answer.value.head.seq).toBeGreaterThanOrEqual(answer.value.seq);
      heads.set(answer.value.head.seq, answer.value.head);
    }
    const links = await runInDurableObject(stubOf(id), (instance: TableDO) =>
      instance.table.ledger.all().map((e) => e.link),
    );
    for (const head of heads.values()) {
      expect(await verifyHeadSignature(head)).toBe(true);
      expect(head.link).toBe(links[head.seq - 1]);
    }
    expect(new Set(answers.map((a) => a.ok && a.value.seq)).size).toBe(40);
  });

  describe("checkpoints", () => {
    it("wake to the same state as a fold of the whole ledger, and the table takes writes after", async () => {
      const id = "wp-checkpoint";
      const k = await seatedDebate(relay, id, OPEN);
      await write(id, k, CHECKPOINT_EVERY * 2 + 17);
      const marks = await runInDurableObject(stubOf(id), (_: TableDO, state) =>
        state.storage.sql
          .exec("SELECT seq FROM entries WHERE checkpoint IS NOT NULL ORDER BY seq")
          .toArray()
          .map((r) => Number(r.seq)),
      );
      expect(marks).toEqual([CHECKPOINT_EVERY, CHECKPOINT_EVERY * 2]);
      const before = await stateOf(id);
      await evictDurableObject(stubOf(id));
      expect(await stateOf(id)).toBe(before);
      expect(await stateOf(id)).toBe(await foldedOf(id));
      expect((await stubOf(id).submit(await say(id, k, "after the wake", undefined, "bot-jenny"))).ok).toBe(true);
      expect(await stateOf(id)).toBe(await foldedOf(id));
    });

    describe("when the newest checkpoint is of another policy version, or does not name its own row", () => {
      it.each([
        ["another policy version", (text: string) => JSON.stringify({ ...JSON.parse(text), version: -1 })],
        [
          "another row's state",
          (text: string) => JSON.stringify({ ...JSON.parse(text), state: { ...JSON.parse(text).state, seq: 3 } }),
        ],
        ["not JSON", () => "{"],
      ])("ignores one of %s and folds the ledger from the start", async (_, spoil) => {
        const id = `wp-spoiled-${Math.random().toString(36).slice(2, 8)}`;
        const k = await seatedDebate(relay, id, OPEN);
        await write(id, k, CHECKPOINT_EVERY + 3);
        const folded = await foldedOf(id);
        await runInDurableObject(stubOf(id), (_: TableDO, state) => {
          const row = state.storage.sql
            .exec("SELECT seq, checkpoint FROM entries WHERE checkpoint IS NOT NULL")
            .toArray()[0]!;
          // A poisoned cache: a state that would say the table is closed, under a checkpoint the code must not trust.
          const text = spoil(String(row.checkpoint)).replace('"closed":null', '"closed":{"reason":"decision","seq":1}');
          state.storage.sql.exec("UPDATE entries SET checkpoint = ? WHERE seq = ?", text, row.seq);
        });
        await evictDurableObject(stubOf(id));
        expect(await stateOf(id)).toBe(folded);
      });
    });
  });

  it("migrates a table written under the previous schema (a UNIQUE nonce index): same state, retries still answered", async () => {
    const id = "wp-migrated";
    const k = await seatedDebate(relay, id, OPEN);
    const nonce = nonceOf(`${id}:before the upgrade`);
    const first = answered(await stubOf(id).submit(await say(id, k, "before the upgrade", nonce)));
    if (!first.ok) throw new Error(first.error.message);
    const before = await stateOf(id);
    // Back to the shape schema version 2 had: the nonce key UNIQUE, no checkpoint column.
    await runInDurableObject(stubOf(id), (_: TableDO, state) => {
      state.storage.sql
        .exec(`CREATE TABLE entries_v2 (seq INTEGER PRIMARY KEY, nonce_key TEXT UNIQUE, entry TEXT NOT NULL);
        INSERT INTO entries_v2 SELECT seq, nonce_key, entry FROM entries; DROP TABLE entries; ALTER TABLE entries_v2 RENAME TO entries;
        UPDATE meta SET value = '2' WHERE key = 'schema_version';`);
    });
    await evictDurableObject(stubOf(id));
    expect(await stateOf(id)).toBe(before);
    const columns = await runInDurableObject(stubOf(id), (_: TableDO, state) =>
      state.storage.sql
        .exec("SELECT name FROM pragma_table_info('entries')")
        .toArray()
        .map((r) => r.name),
    );
    expect(columns).toEqual(["seq", "nonce_key", "entry", "checkpoint", "notices"]);
    const again = answered(await stubOf(id).submit(await say(id, k, "before the upgrade", nonce)));
    expect(again.ok && again.value.seq).toBe(first.value.seq);
  });

  it("brings a socket that is behind up to date while writes go on, every entry once and in order", async () => {
    const id = "wp-behind";
    const k = await seatedDebate(relay, id, OPEN);
    const current = await TestSocket.open(SELF.fetch.bind(SELF), id);
    const head = (await relay.request("GET", `/tables/${id}/head`)).body as SignedHead;
    await current.auth(id, "bot-jenny", k.botJenny, head.seq);
    const writing = write(id, k, 120, 8);
    const behind = await TestSocket.open(SELF.fetch.bind(SELF), id);
    await behind.auth(id, "judge", k.judge, 0);
    await writing;
    const last = (await relay.request("GET", `/tables/${id}/head`)).body as SignedHead;
    await Promise.all([current.until(last.seq), behind.until(last.seq)]);
    expect(behind.seqs()).toEqual(Array.from({ length: last.seq }, (_, i) => i + 1));
    expect(current.seqs()).toEqual(Array.from({ length: last.seq - head.seq }, (_, i) => head.seq + i + 1));
    for (const frame of [...current.frames, ...behind.frames])
      if (frame.type === "entries") expect(frame.head.seq).toBeGreaterThanOrEqual(frame.items.at(-1)!.seq);
  });
});
