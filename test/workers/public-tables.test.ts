/**
 * Public tables (docs/SPEC.md §6.4): a table whose config says `public: true` is read by anyone
 * without authorization, as its export and on a receive-only WebSocket; every other table, and
 * every sub-table, refuses both; a public socket can write nothing.
 */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signSubmission, verifyExport, type TableConfig } from "../../src/protocol/index.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { castOwners, nonceOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

const relayKey = async () => (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key as string;

describe("a public table", () => {
  it("serves its whole export to anyone, which verifies CLEAN against the relay key", async () => {
    const id = "public-export";
    const k = await seatedDebate(relay, id, { public: true, floor: { max_chars: 20 } });
    await relay.say(id, k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "a body longer than twenty characters, cut by the relay",
    });
    const reply = await relay.request("GET", `/tables/${id}/public/export`);
    expect(reply.status).toBe(200);
    const report = await verifyExport(reply.body as string, { relayKey: await relayKey() });
    expect(report).toMatchObject({
      verdict: "CLEAN",
      last_seq: 7,
      coverage: { by_content: 7, by_hash: 0, truncated_checked: 1, policy_replay: "full" },
    });
  });

  it("pushes every entry after the viewer's cursor, then each new one with its signed head, and again after an eviction", async () => {
    const id = "public-push";
    const k = await seatedDebate(relay, id, { public: true });
    const socket = await TestSocket.open(fetcher, id, "public/ws?after=3");
    await socket.until(5);
    expect(socket.seqs()).toEqual([4, 5]);

    await evictDurableObject(env.TABLES.getByName(id));
    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "seen by the public" });
    await socket.until(said.body.head.seq);
    expect(socket.seqs()).toEqual([4, 5, 6, 7]);
    const frame = socket.frames.findLast((f) => f.type === "entries")!;
    expect(frame).toMatchObject({
      type: "entries",
      head: { seq: 7 },
      items: [{ seq: 6, body: "seen by the public" }, { seq: 7 }],
    });
    socket.ws.close();
  });

  describe("when a public socket sends anything", () => {
    it("answers E_FORBIDDEN and writes nothing, even a validly signed submission", async () => {
      const id = "public-readonly";
      const k = await seatedDebate(relay, id, { public: true });
      const socket = await TestSocket.open(fetcher, id, "public/ws");
      await socket.until(5);
      const request = await signSubmission(k.botTao, {
        table: id,
        seat: "bot-tao",
        nonce: nonceOf("public-ws"),
        kind: "say",
        body: "via the public socket",
      });
      await headUnmoved(relay, id, async () => {
        socket.send({ type: "submit", id: "p1", request });
        expect(await socket.next("error")).toMatchObject({ error: { code: "E_FORBIDDEN" } });
      });
      socket.ws.close();
    });
  });

  describe("when the cursor is not a number", () => {
    it("refuses the upgrade with E_SCHEMA", async () => {
      await seatedDebate(relay, "public-bad-cursor", { public: true });
      const res = await SELF.fetch("https://relay.test/tables/public-bad-cursor/public/ws?after=-1", {
        headers: { upgrade: "websocket" },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "E_SCHEMA" } });
    });
  });
});

describe("when the table is not public", () => {
  it("refuses its export and its public socket with E_FORBIDDEN, and the signed routes still need a signature", async () => {
    const id = "private-table";
    await seatedDebate(relay, id);
    expect(await relay.request("GET", `/tables/${id}/public/export`)).toMatchObject({
      status: 403,
      body: { error: { code: "E_FORBIDDEN", message: `table ${id} is not public` } },
    });
    const res = await SELF.fetch(`https://relay.test/tables/${id}/public/ws`, { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(403);
    expect((await relay.request("GET", `/tables/${id}/export`)).body).toMatchObject({ error: { code: "E_AUTH" } });
  });

  it("refuses a sub-table that says public, even of a public parent", async () => {
    const [parent, child] = ["public-parent", "public-child"];
    const k = await seatedDebate(relay, parent, { public: true });
    const config: TableConfig = {
      id: child,
      topic: "a side room",
      parent,
      owners: { tao: castOwners(k).tao!, jenny: castOwners(k).jenny! },
      seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
      topology: { kind: "broadcast", order: ["bot-tao", "bot-jenny"], rounds: 1 },
      termination: { any: ["rounds_exhausted"] },
      public: true,
    };
    expect((await relay.openSubtable(parent, k.botTao, "bot-tao", config)).status).toBe(201);
    expect(await relay.request("GET", `/tables/${child}/public/export`)).toMatchObject({
      status: 403,
      body: { error: { code: "E_FORBIDDEN" } },
    });
  });

  it("answers E_TABLE_NOT_FOUND for a table nobody created", async () => {
    expect(await relay.request("GET", "/tables/nobody-made-this/public/export")).toMatchObject({
      status: 404,
      body: { error: { code: "E_TABLE_NOT_FOUND" } },
    });
  });
});
