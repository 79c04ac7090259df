/**
 * Rates a table counts itself (durable-objects/table/limits.ts), on a relay run with the small
 * limits of test/support/limits-env.ts: writes per seat over HTTP and socket alike, owner-signed
 * writes per owner, signed reads per reader. Each refusal is 429 E_RATE_LIMITED with the wait (and
 * `Retry-After`), and leaves the ledger where it was; one table's flood leaves another alone.
 */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signSubmission, type Signer } from "../../../src/protocol/index.js";
import { signControl } from "../../../src/client/owner-requests.js";
import { headUnmoved, type RelayHttp } from "../../support/relay-http.js";
import { clientAt, openTable } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";
import { TestSocket } from "../../support/socket.js";
import { nonceOf } from "../../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const WRITES = LIMITS_UNDER_TEST.seat_writes_per_min;

/** Writes `n` entries as bot-tao; each must land. */
async function writeMany(relay: RelayHttp, id: string, key: Signer, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    expect((await relay.say(id, key, { seat: "bot-tao", kind: "say", body: `entry ${i}` })).status).toBe(201);
}

describe("a seat's writes", () => {
  it("refuses the write past seat_writes_per_min with 429, Retry-After and the wait, and appends nothing", async () => {
    const c = await clientAt(fetcher, "198.51.100.1", "writes-flood");
    const k = await openTable(c, "lim-writes-flood");
    await writeMany(c.relay, "lim-writes-flood", k.botTao, WRITES);
    const request = await signSubmission(k.botTao, {
      table: "lim-writes-flood",
      seat: "bot-tao",
      nonce: nonceOf("flood-over"),
      kind: "say",
      body: "one too many",
    });
    const res = await headUnmoved(c.relay, "lim-writes-flood", () =>
      c.fetch("https://relay.test/tables/lim-writes-flood/entries", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
      }),
    );
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: { code: string; details: { limit: string; retry_after_ms: number } } };
    expect(body.error).toMatchObject({ code: "E_RATE_LIMITED", details: { limit: "seat_writes_per_min" } });
    expect(body.error.details.retry_after_ms).toBeGreaterThan(0);
    expect(Number(res.headers.get("retry-after"))).toBe(Math.ceil(body.error.details.retry_after_ms / 1000));
  });

  it("answers a retry of a write already recorded, without counting it", async () => {
    const c = await clientAt(fetcher, "198.51.100.2", "writes-retry");
    const k = await openTable(c, "lim-writes-retry");
    const first = await c.relay.say("lim-writes-retry", k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "once",
      nonce: nonceOf("retry-once"),
    });
    await writeMany(c.relay, "lim-writes-retry", k.botTao, WRITES - 1);
    const again = await c.relay.say("lim-writes-retry", k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "once",
      nonce: nonceOf("retry-once"),
    });
    expect(again).toMatchObject({ status: 201, body: { seq: first.body.seq } });
  });

  it("counts each seat apart, and a flood at one table leaves another table's same seat writing", async () => {
    const c = await clientAt(fetcher, "198.51.100.3", "writes-apart");
    const k = await openTable(c, "lim-writes-apart-a");
    await openTable(c, "lim-writes-apart-b");
    await writeMany(c.relay, "lim-writes-apart-a", k.botTao, WRITES);
    expect(
      (await c.relay.say("lim-writes-apart-a", k.botTao, { seat: "bot-tao", kind: "say", body: "over" })).status,
    ).toBe(429);
    expect(
      (await c.relay.say("lim-writes-apart-a", k.botJenny, { seat: "bot-jenny", kind: "say", body: "another seat" }))
        .status,
    ).toBe(201);
    expect(
      (await c.relay.say("lim-writes-apart-b", k.botTao, { seat: "bot-tao", kind: "say", body: "another table" }))
        .status,
    ).toBe(201);
  });

  it("counts writes over the seat's socket with its HTTP writes: the refusal is an error frame for that write, and the ledger does not move", async () => {
    const c = await clientAt(fetcher, "198.51.100.4", "writes-socket");
    const k = await openTable(c, "lim-writes-socket");
    await writeMany(c.relay, "lim-writes-socket", k.botTao, WRITES);
    const socket = await TestSocket.open(c.fetch, "lim-writes-socket");
    await socket.auth("lim-writes-socket", "bot-tao", k.botTao);
    const request = await signSubmission(k.botTao, {
      table: "lim-writes-socket",
      seat: "bot-tao",
      nonce: nonceOf("socket-over"),
      kind: "say",
      body: "over the socket",
    });
    const refused = await headUnmoved(c.relay, "lim-writes-socket", async () => {
      socket.send({ type: "submit", id: "w1", request });
      return socket.next("error", (f) => f.id === "w1");
    });
    expect(refused.error).toMatchObject({
      code: "E_RATE_LIMITED",
      details: { limit: "seat_writes_per_min", retry_after_ms: expect.any(Number) },
    });
    expect(socket.closed).toBeNull();
    socket.ws.close();
  });

  describe("when the table object is evicted", () => {
    it("starts the seat's bucket full again on the wake (the in-memory rate is documented as such)", async () => {
      const c = await clientAt(fetcher, "198.51.100.5", "writes-evicted");
      const k = await openTable(c, "lim-writes-evicted");
      await writeMany(c.relay, "lim-writes-evicted", k.botTao, WRITES);
      expect(
        (await c.relay.say("lim-writes-evicted", k.botTao, { seat: "bot-tao", kind: "say", body: "over" })).status,
      ).toBe(429);
      await evictDurableObject(env.TABLES.getByName("lim-writes-evicted"));
      expect(
        (await c.relay.say("lim-writes-evicted", k.botTao, { seat: "bot-tao", kind: "say", body: "after the wake" }))
          .status,
      ).toBe(201);
    });
  });
});

describe("an owner's signed writes", () => {
  it("refuses pauses and resumes past owner_writes_per_min, and the ledger does not move", async () => {
    const c = await clientAt(fetcher, "198.51.100.6", "owner-writes");
    const k = await openTable(c, "lim-owner-writes");
    const control = async (action: "pause" | "resume", i: number) =>
      c.relay.request(
        "POST",
        "/tables/lim-owner-writes/control",
        await signControl(k.tao, { table: "lim-owner-writes", owner: "tao", action, nonce: nonceOf(`control-${i}`) }),
      );
    for (let i = 0; i < LIMITS_UNDER_TEST.owner_writes_per_min; i++)
      expect((await control(i % 2 === 0 ? "pause" : "resume", i)).status).toBe(201);
    const over = await headUnmoved(c.relay, "lim-owner-writes", () => control("pause", 99));
    expect(over).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "owner_writes_per_min" } } },
    });
  });
});

describe("signed reads", () => {
  it("refuses a reader past reads_per_min, while another reader still reads", async () => {
    const c = await clientAt(fetcher, "198.51.100.7", "reads");
    const k = await openTable(c, "lim-reads");
    const path = "/tables/lim-reads/entries?from=1";
    for (let i = 0; i < LIMITS_UNDER_TEST.reads_per_min; i++)
      expect((await c.relay.read("lim-reads", path, k.botTao, { seat: "bot-tao" })).status).toBe(200);
    expect(await c.relay.read("lim-reads", path, k.botTao, { seat: "bot-tao" })).toMatchObject({
      status: 429,
      body: { error: { code: "E_RATE_LIMITED", details: { limit: "reads_per_min" } } },
    });
    expect((await c.relay.read("lim-reads", path, k.tao, { owner: "tao" })).status).toBe(200);
  });
});
