/**
 * Counting across tables (durable-objects/counters/counters.ts): tables opened and joins sent per client
 * address, tables opened per owner key and the tables it holds. The counters live in SQLite, one
 * object per address or key, so they outlive a wake; a refused creation opens nothing.
 */
import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signCreate } from "../../../src/protocol/index.js";
import { signDelete } from "../../../src/client/owner-requests.js";
import type { CounterDO } from "../../../durable-objects/counters/counters.js";
import { clientAt, fromAddress } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";
import { RelayHttp } from "../../support/relay-http.js";
import { debateConfig, keyOf, seatedDebate, type Cast } from "../../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const counters = (name: string) => env.COUNTERS.getByName(name);

/** Creates debate table `id` as ops of `k` through `relay`. */
const create = (relay: RelayHttp, k: Cast, id: string) => relay.create(k.ops, "ops", debateConfig(k, { id }));

describe("tables opened from one address", () => {
  it("refuses the table past client_tables_per_hour with 429 and the wait, opens nothing, and lets another address open", async () => {
    const c = await clientAt(fetcher, "203.0.113.1", "create-burst");
    for (let i = 0; i < LIMITS_UNDER_TEST.client_tables_per_hour; i++)
      expect((await create(c.relay, c.k, `lim-burst-${i}`)).status).toBe(201);
    const over = await create(c.relay, c.k, "lim-burst-over");
    expect(over).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "client_tables_per_hour" } } },
    });
    expect(over.body.error.details.retry_after_ms).toBeGreaterThan(60_000);
    expect((await c.relay.request("GET", "/tables/lim-burst-over/head")).body.error.code).toBe("E_TABLE_NOT_FOUND");
    const elsewhere = await clientAt(fetcher, "203.0.113.2", "create-burst-elsewhere");
    expect((await create(elsewhere.relay, elsewhere.k, "lim-burst-over")).status).toBe(201);
  });

  it("keeps counting after the address's object is evicted", async () => {
    const c = await clientAt(fetcher, "203.0.113.3", "create-evicted");
    for (let i = 0; i < LIMITS_UNDER_TEST.client_tables_per_hour; i++) await create(c.relay, c.k, `lim-evicted-${i}`);
    await evictDurableObject(counters("client:203.0.113.3"));
    expect((await create(c.relay, c.k, "lim-evicted-over")).status).toBe(429);
  });

  it("counts an IPv6 client by its /64, so its other addresses share the count", async () => {
    const k = (await clientAt(fetcher, "2001:db8:1:2::1", "create-ipv6")).k;
    for (let i = 0; i < LIMITS_UNDER_TEST.client_tables_per_hour; i++) {
      expect(
        (await create(new RelayHttp(fromAddress(fetcher, `2001:db8:1:2::${i + 10}`)), k, `lim-v6-${i}`)).status,
      ).toBe(201);
    }
    expect(
      (await create(new RelayHttp(fromAddress(fetcher, "2001:0db8:0001:0002:ffff::9")), k, "lim-v6-over")).status,
    ).toBe(429);
  });
});

describe("tables one owner key holds", () => {
  it("refuses the table past owner_tables with E_QUOTA from any address, and takes one again once a table is deleted", async () => {
    const k = (await clientAt(fetcher, "203.0.113.10", "quota")).k;
    const from = (i: number) => new RelayHttp(fromAddress(fetcher, `203.0.113.${20 + i}`));
    for (let i = 0; i < LIMITS_UNDER_TEST.owner_tables; i++)
      expect((await create(from(i), k, `lim-quota-${i}`)).status).toBe(201);
    const over = await create(from(9), k, "lim-quota-over");
    expect(over).toMatchObject({
      status: 403,
      body: { error: { code: "E_QUOTA", details: { limit: "owner_tables", quota: LIMITS_UNDER_TEST.owner_tables } } },
    });
    expect((await from(9).request("GET", "/tables/lim-quota-over/head")).status).toBe(404);
    const deleted = await from(9).request(
      "POST",
      "/tables/lim-quota-0/delete",
      await signDelete(k.ops, { table: "lim-quota-0", owner: "ops", now: Date.now() }),
    );
    expect(deleted.status).toBe(200);
    expect((await create(from(9), k, "lim-quota-over")).status).toBe(201);
  });

  it("refuses the owner key's table past owner_tables_per_hour, even below its quota", async () => {
    const k = (await clientAt(fetcher, "203.0.113.40", "owner-rate")).k;
    const from = (i: number) => new RelayHttp(fromAddress(fetcher, `203.0.113.${41 + i}`));
    for (let i = 0; i < LIMITS_UNDER_TEST.owner_tables_per_hour; i++) {
      expect((await create(from(i), k, `lim-orate-${i}`)).status).toBe(201);
      await from(i).request(
        "POST",
        `/tables/lim-orate-${i}/delete`,
        await signDelete(k.ops, { table: `lim-orate-${i}`, owner: "ops", now: Date.now() }),
      );
    }
    expect(await create(from(9), k, "lim-orate-over")).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "owner_tables_per_hour" } } },
    });
  });

  it("counts a create retried as one table", async () => {
    const c = await clientAt(fetcher, "203.0.113.60", "create-retry");
    const other = new RelayHttp(fromAddress(fetcher, "203.0.113.61"));
    const request = await signCreate(c.k.ops, debateConfig(c.k, { id: "lim-retry" }), "ops");
    expect((await c.relay.request("POST", "/tables", request)).status).toBe(201);
    expect((await other.request("POST", "/tables", request)).status).toBe(201);
    const held = await runInDurableObject(counters(`owner:${c.k.ops.publicKeyText}`), (_: CounterDO, state) =>
      state.storage.sql.exec("SELECT id FROM tables").toArray(),
    );
    expect(held).toEqual([{ id: "lim-retry" }]);
  });

  it("counts a mirror against its creator's key as a table it opened: E_QUOTA past owner_tables, and nothing of it stored", async () => {
    const k = (await clientAt(fetcher, "203.0.113.11", "mirror-quota")).k;
    const relayKey = await keyOf("relay-elsewhere");
    const feed = async (id: string, address: string) => {
      const l = await seatedDebate(k, relayKey, { id });
      return new RelayHttp(fromAddress(fetcher, address)).request("POST", `/tables/${id}/replica`, {
        items: l.entries,
        originals: [],
        head: await l.head(),
      });
    };
    for (let i = 0; i < LIMITS_UNDER_TEST.owner_tables; i++)
      expect((await feed(`lim-mirror-${i}`, `203.0.113.${12 + i}`)).status).toBe(200);
    const over = await feed("lim-mirror-over", "203.0.113.19");
    expect(over).toMatchObject({
      status: 403,
      body: { error: { code: "E_QUOTA", details: { limit: "owner_tables" } } },
    });
    expect((await new RelayHttp(fetcher).request("GET", "/tables/lim-mirror-over/head")).status).toBe(404);
    const held = await runInDurableObject(counters(`owner:${k.ops.publicKeyText}`), (_: CounterDO, state) =>
      state.storage.sql
        .exec("SELECT id FROM tables ORDER BY id")
        .toArray()
        .map((r) => r.id),
    );
    expect(held).toEqual(["lim-mirror-0", "lim-mirror-1", "lim-mirror-2"]);
  });

  describe("when the create is not the owner's", () => {
    it("counts nothing against the owner key it names: only a verified create is counted", async () => {
      const c = await clientAt(fetcher, "203.0.113.70", "create-forged");
      const forged = await signCreate(c.k.tao, debateConfig(c.k, { id: "lim-forged" }), "ops");
      expect((await c.relay.request("POST", "/tables", forged)).body.error.code).toBe("E_BAD_SIGNATURE");
      const held = await runInDurableObject(counters(`owner:${c.k.ops.publicKeyText}`), (_: CounterDO, state) =>
        state.storage.sql.exec("SELECT id FROM tables").toArray(),
      );
      expect(held).toEqual([]);
    });
  });
});

describe("joins sent from one address", () => {
  it("refuses the join past client_joins_per_min with 429 before the table sees it, and the ledger does not move", async () => {
    const c = await clientAt(fetcher, "203.0.113.80", "joins");
    expect((await create(c.relay, c.k, "lim-joins")).status).toBe(201);
    const head = (await c.relay.request("GET", "/tables/lim-joins/head")).body;
    // Joins the table refuses (a key that is not the seat's owner's) count too: the address is what is counted.
    for (let i = 0; i < LIMITS_UNDER_TEST.client_joins_per_min; i++) {
      expect((await c.relay.join("lim-joins", c.k.jenny, "tao", "bot-tao", c.k.botTao)).body.error.code).toBe(
        "E_BAD_SIGNATURE",
      );
    }
    const over = await c.relay.join("lim-joins", c.k.tao, "tao", "bot-tao", c.k.botTao);
    expect(over).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "client_joins_per_min" } } },
    });
    expect((await c.relay.request("GET", "/tables/lim-joins/head")).body).toEqual(head);
  });
});

describe("the other routes counted per address", () => {
  it.each([
    ["POST /invites/join", "client_joins_per_min", "/invites/join", "203.0.113.90"],
    ["POST /tables/:id/replica", "client_pages_per_hour", "/tables/lim-pages/replica", "203.0.113.91"],
    ["POST /tables/:id/custody", "client_tables_per_hour", "/tables/lim-custody/custody", "203.0.113.92"],
  ] as const)(
    "counts %s against %s, refused requests included, and refuses the one past it with 429",
    async (_, limit, path, address) => {
      const relay = new RelayHttp(fromAddress(fetcher, address));
      for (let i = 0; i < LIMITS_UNDER_TEST[limit]; i++) {
        const refused = await relay.request("POST", path, {});
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.status).not.toBe(429);
      }
      const over = await relay.request("POST", path, {});
      expect(over).toMatchObject({ status: 429, body: { error: { code: "E_RATE_LIMITED", details: { limit } } } });
      expect(over.body.error.details.retry_after_ms).toBeGreaterThan(0);
    },
  );
});
