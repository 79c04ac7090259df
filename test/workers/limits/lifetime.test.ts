/**
 * A table's end on the relay (durable-objects/table/object/lifetime.ts): its creator's signed delete frees
 * its storage and alarm, closes its sockets (4410) and leaves a tombstone, so its id is never opened
 * again by anyone, also after the object is evicted; the operator's lifetime after closing is run by
 * the table's alarm. Refused deletes change nothing.
 */
import { SELF, env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { castOwners, debateConfig, keyOf, seatedDebate, type Cast } from "../../support/table-fixture.js";
import { signDelete } from "../../../src/client/owner-requests.js";
import { refusalOf } from "../../../src/client/refusal.js";
import { verifyExport, type Signer, type TableConfig } from "../../../src/protocol/index.js";
import type { TableDO } from "../../../durable-objects/table/table.js";
import type { CounterDO } from "../../../durable-objects/counters/counters.js";
import { headUnmoved, type RelayHttp } from "../../support/relay-http.js";
import { clientAt, openTable, type Client } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";
import { TestSocket } from "../../support/socket.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const stub = (id: string) => env.TABLES.getByName(id);
const storedTables = (id: string) =>
  runInDurableObject(stub(id), (_: TableDO, state) =>
    state.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((r) => r.name),
  );
const alarmOf = (id: string) => runInDurableObject(stub(id), (_: TableDO, state) => state.storage.getAlarm());
const heldBy = (k: Cast) =>
  runInDurableObject(env.COUNTERS.getByName(`owner:${k.ops.publicKeyText}`), (_: CounterDO, state) =>
    state.storage.sql
      .exec("SELECT id FROM tables")
      .toArray()
      .map((r) => r.id),
  );

/** POST /tables/:id/delete as `owner` with `key`, at `now`. */
async function deleteAs(
  relay: RelayHttp,
  id: string,
  key: Signer,
  owner: string,
  fields: { table?: string; now?: number } = {},
) {
  return relay.request(
    "POST",
    `/tables/${id}/delete`,
    await signDelete(key, { table: fields.table ?? id, owner, now: fields.now ?? Date.now() }),
  );
}

describe("the creator's delete", () => {
  it("frees the table's storage and alarm, closes its sockets with 4410, and answers every later request with E_TABLE_DELETED", async () => {
    const c = await clientAt(fetcher, "192.0.2.101", "delete");
    const k = await openTable(c, "lim-delete");
    const reader = await TestSocket.open(c.fetch, "lim-delete");
    await reader.auth("lim-delete", "bot-tao", k.botTao);
    const silent = await TestSocket.open(c.fetch, "lim-delete");
    expect(await alarmOf("lim-delete")).not.toBeNull();
    expect(await heldBy(k)).toEqual(["lim-delete"]);

    const deleted = await deleteAs(c.relay, "lim-delete", k.ops, "ops");
    expect(deleted).toMatchObject({
      status: 200,
      body: { table: "lim-delete", reason: "owner", owner: "ops", deleted_at: expect.any(Number) },
    });
    for (const socket of [reader, silent]) {
      const closed = await socket.whenClosed();
      expect(closed.code).toBe(4410);
      expect(refusalOf(closed.code, closed.reason, "x")?.code).toBe("E_TABLE_DELETED");
    }
    expect(await storedTables("lim-delete")).toEqual(["tombstone"]);
    expect(await alarmOf("lim-delete")).toBeNull();
    expect(await heldBy(k)).toEqual([]);

    const head = await c.relay.request("GET", "/tables/lim-delete/head");
    expect(head).toMatchObject({ status: 410, body: { error: { code: "E_TABLE_DELETED", details: deleted.body } } });
    expect((await c.relay.read("lim-delete", "/tables/lim-delete/export", k.ops, { owner: "ops" })).status).toBe(410);
    expect(
      (await c.relay.say("lim-delete", k.botTao, { seat: "bot-tao", kind: "say", body: "anyone here?" })).status,
    ).toBe(410);
    expect((await c.relay.join("lim-delete", k.tao, "tao", "bot-tao", k.botTao)).status).toBe(410);
  });

  it("leaves an export taken before it verifying CLEAN against the relay key", async () => {
    const c = await clientAt(fetcher, "192.0.2.109", "delete-export");
    const k = await openTable(c, "lim-delete-export");
    await c.relay.say("lim-delete-export", k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "kept by whoever exported it",
    });
    const exported = (
      await c.relay.read("lim-delete-export", "/tables/lim-delete-export/export", k.tao, { owner: "tao" })
    ).body as string;
    expect((await deleteAs(c.relay, "lim-delete-export", k.ops, "ops")).status).toBe(200);
    const relayKey = (await c.relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string;
    expect((await verifyExport(exported, { relayKey })).verdict).toBe("CLEAN");
  });

  it("answers the same signed delete again with the same tombstone", async () => {
    const c = await clientAt(fetcher, "192.0.2.102", "delete-again");
    const k = await openTable(c, "lim-delete-again");
    const request = await signDelete(k.ops, { table: "lim-delete-again", owner: "ops", now: Date.now() });
    const first = await c.relay.request("POST", "/tables/lim-delete-again/delete", request);
    expect(await c.relay.request("POST", "/tables/lim-delete-again/delete", request)).toEqual(first);
    expect((await deleteAs(c.relay, "lim-delete-again", k.ops, "ops")).body.error.code).toBe("E_TABLE_DELETED");
  });

  it("never opens the id again, for its creator or anyone else, also after the object was evicted", async () => {
    const c = await clientAt(fetcher, "192.0.2.103", "delete-reuse");
    const k = await openTable(c, "lim-reuse");
    expect((await deleteAs(c.relay, "lim-reuse", k.ops, "ops")).status).toBe(200);
    await evictDurableObject(stub("lim-reuse"));
    const again = await c.relay.create(
      k.ops,
      "ops",
      debateConfig(k, { id: "lim-reuse", topology: { kind: "open" }, termination: { any: ["decision"] } }),
    );
    expect(again).toMatchObject({ status: 410, body: { error: { code: "E_TABLE_DELETED" } } });
    const someone = await clientAt(fetcher, "192.0.2.104", "delete-reuse-other");
    expect(
      (await someone.relay.create(someone.k.ops, "ops", debateConfig(someone.k, { id: "lim-reuse" }))).body.error.code,
    ).toBe("E_TABLE_DELETED");
    expect(await storedTables("lim-reuse")).toEqual(["tombstone"]);
    expect(await heldBy(someone.k)).toEqual([]);
  });

  it("never takes a replica page under the deleted id either (E_TABLE_DELETED), so a mirror or an import cannot bring it back", async () => {
    const c = await clientAt(fetcher, "192.0.2.105", "delete-replica");
    const k = await openTable(c, "lim-replica");
    expect((await deleteAs(c.relay, "lim-replica", k.ops, "ops")).status).toBe(200);
    const other = await seatedDebate(k, await keyOf("relay-elsewhere"), { id: "lim-replica" });
    const fed = await c.relay.request("POST", "/tables/lim-replica/replica", {
      items: other.entries,
      originals: [],
      head: await other.head(),
    });
    expect(fed).toMatchObject({ status: 410, body: { error: { code: "E_TABLE_DELETED" } } });
    expect(await storedTables("lim-replica")).toEqual(["tombstone"]);
  });

  describe("when the delete is not the creator's", () => {
    it.each([
      ["another owner of the table", "E_FORBIDDEN", (k: Cast) => ({ key: k.tao, owner: "tao" }), "192.0.2.111"],
      ["a signature by another key", "E_BAD_SIGNATURE", (k: Cast) => ({ key: k.tao, owner: "ops" }), "192.0.2.112"],
      ["a name that is no owner", "E_NOT_OWNER", (k: Cast) => ({ key: k.ops, owner: "mallory" }), "192.0.2.113"],
      [
        "a time outside the window",
        "E_EXPIRED",
        (k: Cast) => ({ key: k.ops, owner: "ops", now: Date.now() - 10 * 60_000 }),
        "192.0.2.114",
      ],
      [
        "a statement for another table",
        "E_WRONG_TABLE",
        (k: Cast) => ({ key: k.ops, owner: "ops", table: "lim-elsewhere" }),
        "192.0.2.115",
      ],
    ])("refuses %s with %s and changes nothing", async (what, code, who, address) => {
      const c = await clientAt(fetcher, address, `refused-${code}`);
      const id = `lim-refused-${code.toLowerCase().replace(/_/g, "-")}`;
      const k = await openTable(c, id);
      const { key, owner, ...fields } = who(k);
      const reply = await headUnmoved(c.relay, id, () => deleteAs(c.relay, id, key, owner, fields));
      expect(reply.body.error.code, what).toBe(code);
      expect((await storedTables(id)).includes("entries")).toBe(true);
    });

    it("refuses to delete a sub-table by signature (E_FORBIDDEN)", async () => {
      const c = await clientAt(fetcher, "192.0.2.106", "delete-sub");
      const k = await openTable(c, "lim-sub-parent");
      const child: TableConfig = {
        id: "lim-sub-child",
        topic: "a side room",
        parent: "lim-sub-parent",
        owners: { tao: castOwners(k).tao!, jenny: castOwners(k).jenny! },
        seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
        topology: { kind: "open" },
        termination: { any: ["decision"] },
      };
      expect((await c.relay.openSubtable("lim-sub-parent", k.botTao, "bot-tao", child)).status).toBe(201);
      const reply = await headUnmoved(c.relay, "lim-sub-child", () => deleteAs(c.relay, "lim-sub-child", k.tao, "tao"));
      expect(reply.body.error.code).toBe("E_FORBIDDEN");
    });
  });
});

describe("the lifetime after closing", () => {
  it("arms the table's alarm for closed_table_ttl_ms after the close, and the alarm deletes the table then (reason expired)", async () => {
    const c: Client = await clientAt(fetcher, "192.0.2.107", "ttl");
    const k = await openTable(c, "lim-ttl", { termination: { any: [{ max_entries: 1 }] } });
    const closing = await c.relay.say("lim-ttl", k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "the first authored entry closes it",
    });
    expect(closing.status).toBe(201);
    const closedAt = await runInDurableObject(stub("lim-ttl"), async (instance: TableDO) => {
      expect(instance.table.state?.closed).not.toBeNull();
      // The close notifies the owners; once their objects took it, the close's lifetime is the next deadline.
      await instance.table.noticesSettled();
      return instance.table.ledger.range(instance.table.state!.closed!.seq, instance.table.state!.closed!.seq, 1)[0]!
        .ts;
    });
    expect(await alarmOf("lim-ttl")).toBe(closedAt + LIMITS_UNDER_TEST.closed_table_ttl_ms);
    await runInDurableObject(stub("lim-ttl"), (instance: TableDO) => {
      instance.table.now = () => closedAt + LIMITS_UNDER_TEST.closed_table_ttl_ms;
    });
    expect(await runDurableObjectAlarm(stub("lim-ttl"))).toBe(true);
    const head = await c.relay.request("GET", "/tables/lim-ttl/head");
    expect(head).toMatchObject({
      status: 410,
      body: {
        error: {
          code: "E_TABLE_DELETED",
          details: { reason: "expired", deleted_at: closedAt + LIMITS_UNDER_TEST.closed_table_ttl_ms },
        },
      },
    });
    expect(await storedTables("lim-ttl")).toEqual(["tombstone"]);
    expect(await alarmOf("lim-ttl")).toBeNull();
    expect(await heldBy(k)).toEqual([]);
  });

  it("deletes a mirror when its lifetime here ends, like any table, and its creator's key stops counting it", async () => {
    const c = await clientAt(fetcher, "192.0.2.109", "ttl-mirror");
    const l = await seatedDebate(c.k, await keyOf("relay-elsewhere"), { id: "lim-ttl-mirror" });
    expect(
      (
        await c.relay.request("POST", "/tables/lim-ttl-mirror/replica", {
          items: l.entries,
          originals: [],
          head: await l.head(),
        })
      ).status,
    ).toBe(200);
    expect(await heldBy(c.k)).toEqual(["lim-ttl-mirror"]);
    const openedAt = l.entries[0]!.ts;
    expect(await alarmOf("lim-ttl-mirror")).toBe(openedAt + LIMITS_UNDER_TEST.table_ttl_ms);
    await runInDurableObject(stub("lim-ttl-mirror"), (instance: TableDO) => {
      instance.table.now = () => openedAt + LIMITS_UNDER_TEST.table_ttl_ms;
    });
    expect(await runDurableObjectAlarm(stub("lim-ttl-mirror"))).toBe(true);
    const head = await c.relay.request("GET", "/tables/lim-ttl-mirror/head");
    expect(head).toMatchObject({
      status: 410,
      body: { error: { code: "E_TABLE_DELETED", details: { reason: "expired" } } },
    });
    expect(await storedTables("lim-ttl-mirror")).toEqual(["tombstone"]);
    expect(await heldBy(c.k)).toEqual([]);
  });

  it("leaves an open table alone until its own lifetime (table_ttl_ms) ends", async () => {
    const c = await clientAt(fetcher, "192.0.2.108", "ttl-open");
    await openTable(c, "lim-ttl-open");
    const openedAt = await runInDurableObject(
      stub("lim-ttl-open"),
      (instance: TableDO) => instance.table.ledger.range(1, 1, 1)[0]!.ts,
    );
    expect(await alarmOf("lim-ttl-open")).toBe(openedAt + LIMITS_UNDER_TEST.table_ttl_ms);
    await runInDurableObject(stub("lim-ttl-open"), (instance: TableDO) => {
      instance.table.now = () => openedAt + LIMITS_UNDER_TEST.table_ttl_ms - 1;
    });
    expect(await runDurableObjectAlarm(stub("lim-ttl-open"))).toBe(true);
    expect((await c.relay.request("GET", "/tables/lim-ttl-open/head")).status).toBe(200);
  });
});
