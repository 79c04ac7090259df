/**
 * Reading a projection costs O(tail), never O(ledger) (docs/SPEC.md §7), measured where it
 * matters: the SQLite rows the TableDO reads to answer GET /tables/:id/projection.
 */
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

/** SQLite rows read by every statement the object runs while `meter.on` is true. */
const meter = { on: false, rows: 0, cursors: [] as SqlStorageCursor<Record<string, SqlStorageValue>>[] };

/** Wraps the table object's `storage.sql.exec` so each cursor it hands out is kept for counting. */
async function install(id: string): Promise<void> {
  await runInDurableObject(env.TABLES.getByName(id), (_: TableDO, state) => {
    const sql = state.storage.sql;
    const exec = sql.exec.bind(sql);
    sql.exec = ((query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...bindings);
      if (meter.on) meter.cursors.push(cursor);
      return cursor;
    }) as typeof sql.exec;
  });
}

/** Rows read from SQLite while answering `read`. */
async function rowsRead(read: () => Promise<unknown>): Promise<number> {
  meter.cursors = [];
  meter.on = true;
  try {
    await read();
  } finally {
    meter.on = false;
  }
  return meter.cursors.reduce((sum, c) => sum + c.rowsRead, 0);
}

describe("reading a projection from the table object", () => {
  it("reads only the tail's rows from SQLite, however long the ledger", async () => {
    const id = "projection-cost";
    const k = await seatedDebate(relay, id, {
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 1000 }] },
    });
    for (let i = 0; i < 60; i++)
      expect((await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: `turn ${i}` })).status).toBe(201);
    const head = (await relay.request("GET", `/tables/${id}/head`)).body as { seq: number };
    expect(head.seq).toBeGreaterThan(60);
    await install(id);

    const path = (after: number) => `/tables/${id}/projection?after=${after}`;
    let reply: Awaited<ReturnType<typeof relay.read>> | undefined;
    const tailOfTwo = await rowsRead(
      async () => (reply = await relay.read(id, path(head.seq - 2), k.botJenny, { seat: "bot-jenny" })),
    );
    expect(reply!.status).toBe(200);
    expect(reply!.body.tail.map((e: { seq: number }) => e.seq)).toEqual([head.seq - 1, head.seq]);
    expect(tailOfTwo).toBeGreaterThan(0);
    expect(tailOfTwo).toBeLessThanOrEqual(4);

    const nothingNew = await rowsRead(() => relay.read(id, path(head.seq), k.botJenny, { seat: "bot-jenny" }));
    expect(nothingNew).toBeLessThanOrEqual(2);

    // The whole ledger as a tail reads every row: the meter sees reads, so the small numbers above mean something.
    const whole = await rowsRead(() => relay.read(id, path(0), k.botJenny, { seat: "bot-jenny" }));
    expect(whole).toBeGreaterThanOrEqual(head.seq);
  });
});
