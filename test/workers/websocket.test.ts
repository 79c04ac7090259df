import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signSubmission, verifyHeadSignature, PING_FRAME, PONG_FRAME } from "../../src/protocol/index.js";
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
    const request = await signSubmission(k.botTao, { table: id, seat: "bot-tao", nonce: nonceOf("ws-1"), kind: "say", body: "over ws" });
    socket.send({ type: "submit", id: "c1", request });
    const ack = await socket.next("ack");
    expect(ack).toMatchObject({ id: "c1", seq: 6 });
    socket.send({ type: "submit", id: "c2", request: { ...request, submission: { ...request.submission, seat: "bot-jenny" } } });
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

  it("keeps pushing to a socket after the table is evicted (hibernation)", async () => {
    const id = "ws-hibernate";
    const k = await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const welcome = await socket.auth(id, "bot-jenny", k.botJenny);
    await socket.until(welcome.head.seq);
    await evictDurableObject(env.TABLES.get(env.TABLES.idFromName(id)));
    const said = await relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: "after eviction" });
    await socket.until(said.body.head.seq);
    expect(socket.seqs()).toEqual(Array.from({ length: said.body.head.seq }, (_, i) => i + 1));
    socket.ws.close();
  });

  it("answers pings without waking the table", async () => {
    const id = "ws-ping";
    await seatedDebate(relay, id);
    const socket = await TestSocket.open(fetcher, id);
    const pong = new Promise<string>((resolve) => socket.ws.addEventListener("message", (e) => e.data === PONG_FRAME && resolve(String(e.data))));
    socket.send(PING_FRAME);
    expect(await pong).toBe(PONG_FRAME);
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
      const request = await signSubmission(k.botTao, { table: id, seat: "bot-tao", nonce: nonceOf("ws-u"), kind: "say", body: "x" });
      socket.send({ type: "submit", id: "early", request });
      expect(await socket.next("error")).toMatchObject({ id: "early", error: { code: "E_AUTH" } });
    });
  });
});
