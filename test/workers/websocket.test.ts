import { SELF, env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  LIMITS,
  signSocketAuth,
  signSubmission,
  verifyHeadSignature,
  PING_FRAME,
  PONG_FRAME,
} from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { refusalOf } from "../../src/client/refusal.js";
import { RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { nonceOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

describe("the table WebSocket", () => {
  it("catches up, then pushes each new entry with a signed head", async () => {
    const id = "ws-push";
    const k = await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const welcome = await socket.auth(id, "bot-jenny", k.botJenny);
    expect(welcome.seat).toBe("bot-jenny");
    await socket.until(welcome.head.seq);
    expect(socket.seqs()).toEqual(Array.from({ length: welcome.head.seq }, (_, i) => i + 1));

    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "pushed" });
    await socket.until(said.body.head.seq);
    const frame = socket.frames.findLast((f) => f.type === "entries")!;
    expect(frame.type === "entries" && frame.items.map((i) => i.seq)).toEqual([said.body.seq, said.body.seq + 1]);
    expect(frame.type === "entries" && (await verifyHeadSignature(frame.head))).toBe(true);
    socket.ws.close();
  });

  it("accepts submissions and acks them with the seq", async () => {
    const id = "ws-submit";
    const k = await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "bot-tao", k.botTao);
    const request = await signSubmission(k.botTao, {
      table: id,
      seat: "bot-tao",
      nonce: nonceOf("ws-1"),
      kind: "say",
      body: "over ws",
    });
    socket.send({ type: "submit", id: "c1", request });
    const ack = await socket.next("ack");
    expect(ack).toMatchObject({ id: "c1", seq: 6 });
    socket.send({
      type: "submit",
      id: "c2",
      request: { ...request, submission: { ...request.submission, seat: "bot-jenny" } },
    });
    expect(await socket.next("error", (f) => f.id === "c2")).toMatchObject({ error: { code: "E_FORBIDDEN" } });
    socket.ws.close();
  });

  it("resumes from a cursor and sends only what came after it", async () => {
    const id = "ws-resume";
    const k = await seatedDebate(relay, id);
    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "before reconnect" });
    const socket = await TestSocket.open(fetcher, id);
    await socket.auth(id, "bot-jenny", k.botJenny, said.body.seq - 1);
    await socket.until(said.body.head.seq);
    expect(socket.seqs()).toEqual([said.body.seq, said.body.seq + 1]);
    socket.ws.close();
  });

  it("takes a cursor past the head as the head, says so in the welcome, and pushes what comes next", async () => {
    const id = "ws-resume-ahead";
    const k = await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const welcome = await socket.auth(id, "bot-jenny", k.botJenny, 10_000);
    expect(welcome.cursor).toBe(welcome.head.seq);
    const said = await relay.say(id, k.botTao, {
      seat: "bot-tao",
      kind: "say",
      body: "after a cursor from the future",
    });
    await socket.until(said.body.head.seq);
    expect(socket.seqs()).toEqual([said.body.seq, said.body.seq + 1]);
    socket.ws.close();
  });

  it("keeps pushing to a socket after the table is evicted (hibernation)", async () => {
    const id = "ws-hibernate";
    const k = await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const welcome = await socket.auth(id, "bot-jenny", k.botJenny);
    await socket.until(welcome.head.seq);
    await evictDurableObject(env.TABLES.getByName(id));
    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "after eviction" });
    await socket.until(said.body.head.seq);
    expect(socket.seqs()).toEqual(Array.from({ length: said.body.head.seq }, (_, i) => i + 1));
    socket.ws.close();
  });

  it("answers pings without waking the table", async () => {
    const id = "ws-ping";
    await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const pong = new Promise<string>((resolve) =>
      socket.ws.addEventListener("message", (e) => e.data === PONG_FRAME && resolve(String(e.data))),
    );
    socket.send(PING_FRAME);
    expect(await pong).toBe(PONG_FRAME);
    // The runtime's auto-response answered it (the stamp is set only then), not the table's handler.
    const stamps = await runInDurableObject(env.TABLES.getByName(id), (_: TableDO, state) =>
      state.getWebSockets().map((ws) => state.getWebSocketAutoResponseTimestamp(ws)),
    );
    expect(stamps).toEqual([expect.any(Date)]);
    socket.ws.close();
  });

  describe("when the challenge answer is wrong", () => {
    it("reports E_AUTH and closes with 4401", async () => {
      const id = "ws-bad-auth";
      const k = await seatedDebate(relay, id);
      const socket = await TestSocket.open(fetcher, id);
      await socket.next("challenge");
      const closed = new Promise<number>((resolve) => socket.ws.addEventListener("close", (e) => resolve(e.code)));
      // bot-jenny's key answering for bot-tao
      await socket.answer(id, "bot-tao", k.botJenny);
      expect(await socket.next("error")).toMatchObject({ error: { code: "E_AUTH" } });
      expect(await closed).toBe(4401);
    });

    it("refuses a submit before authentication", async () => {
      const id = "ws-unauthenticated";
      const k = await seatedDebate(relay, id);
      const socket = await TestSocket.open(fetcher, id);
      const request = await signSubmission(k.botTao, {
        table: id,
        seat: "bot-tao",
        nonce: nonceOf("ws-u"),
        kind: "say",
        body: "x",
      });
      socket.send({ type: "submit", id: "early", request });
      expect(await socket.next("error")).toMatchObject({ id: "early", error: { code: "E_AUTH" } });
    });
  });
});

describe("the table WebSocket's refusals", () => {
  const head = async (id: string) => (await relay.request("GET", `/tables/${id}/head`)).body;

  describe("when an answer or a submission is wrong", () => {
    it("refuses an answer to another socket's challenge with E_AUTH and closes (challenges are fresh per socket)", async () => {
      const id = "ws-replayed-answer";
      const k = await seatedDebate(relay, id);
      const [first, second] = [await TestSocket.open(fetcher, id), await TestSocket.open(fetcher, id)];
      const [a, b] = [await first.next("challenge"), await second.next("challenge")];
      expect(a.challenge).not.toBe(b.challenge);
      const closed = new Promise<number>((resolve) => second.ws.addEventListener("close", (e) => resolve(e.code)));
      second.send({
        type: "auth",
        seat: "bot-tao",
        sig: await signSocketAuth(k.botTao, { scope: "ws", table: id, seat: "bot-tao", challenge: a.challenge }),
      });
      expect(await second.next("error")).toMatchObject({ error: { code: "E_AUTH" } });
      expect(await closed).toBe(4401);
      first.ws.close();
    });

    it("closes an answer given after the challenge window with 4408 and no error frame, which a client retries (a fresh socket gets a fresh challenge)", async () => {
      const id = "ws-stale-answer";
      const k = await seatedDebate(relay, id);
      const socket = await TestSocket.open(fetcher, id);
      await socket.next("challenge");
      await runInDurableObject(env.TABLES.getByName(id), (instance: TableDO) => {
        instance.table.now = () => Date.now() + LIMITS.auth_window_ms + 1000;
      });
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
      );
      await socket.answer(id, "bot-tao", k.botTao);
      const { code, reason } = await closed;
      expect(code).toBe(4408);
      expect(reason).toContain("expired");
      expect(refusalOf(code, reason, "x")).toBeNull();
      // An error frame would end a client's session on its own (it is how the relay refuses), before the close is seen.
      expect(socket.frames.map((f) => f.type)).toEqual(["challenge"]);
    });

    it("refuses a frame over the published limit in UTF-8 bytes with E_TOO_LARGE, though it has fewer characters than that", async () => {
      const id = "ws-frame-bytes";
      const k = await seatedDebate(relay, id);
      const before = await head(id);
      const socket = await TestSocket.open(fetcher, id);
      await socket.auth(id, "bot-tao", k.botTao);
      const frame = JSON.stringify({ type: "submit", id: "big", request: { pad: "é".repeat(140_000) } });
      expect(frame.length).toBeLessThan(262_144);
      expect(new TextEncoder().encode(frame).byteLength).toBeGreaterThan(262_144);
      socket.send(frame);
      expect(await socket.next("error")).toMatchObject({ error: { code: "E_TOO_LARGE" } });
      expect(await head(id)).toEqual(before);
      socket.ws.close();
    });

    it("refuses a frame nested deeper than the published limit with E_SCHEMA, not E_INTERNAL", async () => {
      const id = "ws-frame-depth";
      const k = await seatedDebate(relay, id);
      const before = await head(id);
      const socket = await TestSocket.open(fetcher, id);
      await socket.auth(id, "bot-tao", k.botTao);
      const request = await signSubmission(k.botTao, {
        table: id,
        seat: "bot-tao",
        nonce: nonceOf("ws-deep"),
        kind: "proposal",
        body: "x",
        effects: [{ owner: "tao", resource: "repo:x", action: "merge", args: { pr: 1 } }],
      });
      const deep = JSON.stringify({ type: "submit", id: "deep", request }).replace(
        '{"pr":1}',
        '{"a":'.repeat(30_000) + "1" + "}".repeat(30_000),
      );
      socket.send(deep);
      expect(await socket.next("error", (f) => f.id === "deep" || f.id === undefined)).toMatchObject({
        error: { code: "E_SCHEMA" },
      });
      expect(await head(id)).toEqual(before);
      socket.ws.close();
    });

    it("refuses a bad signature, another table, a seat without the floor and a reused nonce over the socket, and the head does not move", async () => {
      const id = "ws-refusals";
      const k = await seatedDebate(relay, id);
      const before = await head(id);
      const tao = await TestSocket.open(fetcher, id);
      await tao.auth(id, "bot-tao", k.botTao);
      const jenny = await TestSocket.open(fetcher, id);
      await jenny.auth(id, "bot-jenny", k.botJenny);
      const good = await signSubmission(k.botTao, {
        table: id,
        seat: "bot-tao",
        nonce: nonceOf("ws-r-1"),
        kind: "say",
        body: "signed text",
      });
      const cases: [TestSocket, string, unknown, string][] = [
        [tao, "sig", { ...good, submission: { ...good.submission, body: "altered text" } }, "E_BAD_SIGNATURE"],
        [
          tao,
          "table",
          await signSubmission(k.botTao, {
            table: "ws-elsewhere",
            seat: "bot-tao",
            nonce: nonceOf("ws-r-2"),
            kind: "say",
            body: "x",
          }),
          "E_WRONG_TABLE",
        ],
        [
          jenny,
          "floor",
          await signSubmission(k.botJenny, {
            table: id,
            seat: "bot-jenny",
            nonce: nonceOf("ws-r-3"),
            kind: "say",
            body: "x",
          }),
          "E_NOT_FLOOR",
        ],
      ];
      for (const [socket, frame, request, code] of cases) {
        socket.send({ type: "submit", id: frame, request });
        expect(await socket.next("error", (f) => f.id === frame)).toMatchObject({ id: frame, error: { code } });
        expect(await head(id)).toEqual(before);
      }
      tao.send({ type: "submit", id: "ok", request: good });
      await tao.next("ack", (f) => f.id === "ok");
      const after = await head(id);
      const reused = await signSubmission(k.botTao, {
        table: id,
        seat: "bot-tao",
        nonce: nonceOf("ws-r-1"),
        kind: "say",
        body: "another text",
      });
      tao.send({ type: "submit", id: "reused", request: reused });
      expect(await tao.next("error", (f) => f.id === "reused")).toMatchObject({ error: { code: "E_NONCE_REUSED" } });
      expect(await head(id)).toEqual(after);
      tao.ws.close();
      jenny.ws.close();
    });
  });
});
