import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS, signSocketAuth, signSubmission } from "../../src/protocol/index.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { seatedDebate } from "../support/seated.js";
import { TestSocket } from "../support/socket.js";
import { nonceOf } from "../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);
const relay = new RelayHttp(fetcher);

/** The close code of `socket`, once it closes. */
function closeOf(socket: TestSocket): Promise<number> {
  return new Promise((resolve) => socket.ws.addEventListener("close", (e) => resolve(e.code)));
}

describe("the table WebSocket before the challenge is answered", () => {
  describe("when the answer is malformed", () => {
    const cases: [string, (challenge: string, sig: string) => string][] = [
      [
        "a signature that is not 64 bytes of base64url",
        () => JSON.stringify({ type: "auth", seat: "bot-tao", sig: "not-a-signature" }),
      ],
      ["a missing seat", (_, sig) => JSON.stringify({ type: "auth", sig })],
      ["an unknown field", (_, sig) => JSON.stringify({ type: "auth", seat: "bot-tao", sig, extra: 1 })],
      ["a repeated key", (_, sig) => `{"type":"auth","seat":"judge","seat":"bot-tao","sig":"${sig}"}`],
      ["a fractional cursor", (_, sig) => `{"type":"auth","seat":"bot-tao","sig":"${sig}","cursor":1.5}`],
      ["text that is not JSON", () => "hello"],
      ["a frame of another type", () => JSON.stringify({ type: "hello" })],
    ];

    it.each(cases)("refuses %s with an E_AUTH error frame and closes with 4401", async (_, frame) => {
      const id = `ws-malformed-${Math.random().toString(36).slice(2, 10)}`;
      const k = await seatedDebate(relay, id);
      const socket = await TestSocket.open(fetcher, id);
      const { challenge } = await socket.next("challenge");
      const sig = await signSocketAuth(k.botTao, { scope: "ws", table: id, seat: "bot-tao", challenge });
      const closed = closeOf(socket);
      socket.send(frame(challenge, sig));
      const error = await socket.next("error");
      expect(error).toMatchObject({
        error: { code: "E_AUTH", message: expect.stringContaining("not an answer to the challenge") },
      });
      expect(error.id).toBeUndefined();
      expect(await closed).toBe(4401);
    });
  });
});

/** A seated debate `id` and bot-tao's authenticated socket, with a say bot-tao signed (`fields` added). */
async function taoSocket(id: string, fields: Record<string, unknown> = {}) {
  const k = await seatedDebate(relay, id);
  const socket = await TestSocket.open(fetcher, id);
  await socket.auth(id, "bot-tao", k.botTao);
  const request = await signSubmission(k.botTao, {
    table: id,
    seat: "bot-tao",
    nonce: nonceOf(id),
    kind: "say",
    body: "b",
    ...fields,
  } as never);
  return { socket, request };
}

describe("the table WebSocket after the challenge is answered", () => {
  describe("when a frame is malformed", () => {
    it("refuses a submit frame with a repeated key with E_NOT_CANONICAL addressed to its id, writes nothing and stays open", async () => {
      const id = "ws-frame-duplicate";
      const { socket, request } = await taoSocket(id);
      const doubled = JSON.stringify({ type: "submit", id: "dup", request }).replace(
        '"body":"b"',
        '"body":"a","body":"b"',
      );
      await headUnmoved(relay, id, async () => {
        socket.send(doubled);
        expect(await socket.next("error", (f) => f.id === "dup")).toMatchObject({
          error: { code: "E_NOT_CANONICAL", details: { path: "$.request.submission.body" } },
        });
      });
      socket.send({ type: "submit", id: "ok", request });
      expect(await socket.next("ack", (f) => f.id === "ok")).toMatchObject({ seq: expect.any(Number) });
      expect(socket.closed).toBeNull();
      socket.ws.close();
    });

    it("addresses a schema refusal to the frame's id and names the failing path", async () => {
      const { socket, request } = await taoSocket("ws-frame-schema-id");
      socket.send({
        type: "submit",
        id: "bad-shape",
        request: { ...request, submission: { ...request.submission, body: 5 } },
      });
      const error = await socket.next("error", (f) => f.id === "bad-shape");
      expect(error).toMatchObject({
        error: { code: "E_SCHEMA", message: expect.stringContaining("request.submission.body") },
      });
      expect(socket.closed).toBeNull();
      socket.ws.close();
    });

    it("refuses a frame over LIMITS.request_bytes in UTF-8, though not in UTF-16 code units, with E_TOO_LARGE and writes nothing", async () => {
      const id = "ws-frame-utf8-size";
      const { socket, request } = await taoSocket(id);
      // Three UTF-8 bytes a character: about 87,000 characters, over 262,144 bytes (a frame read past its size would be E_SCHEMA for the unknown field).
      const pad = "€".repeat(Math.ceil(LIMITS.request_bytes / 3) + 10);
      await headUnmoved(relay, id, async () => {
        socket.send({ type: "submit", id: "wide", request, pad });
        expect(await socket.next("error")).toMatchObject({ error: { code: "E_TOO_LARGE" } });
      });
      socket.ws.close();
    });

    it("refuses a number that is not a safe integer literal with E_NOT_CANONICAL", async () => {
      const { socket, request } = await taoSocket("ws-frame-number", { re: 1 });
      socket.send(JSON.stringify({ type: "submit", id: "num", request }).replace('"re":1', '"re":1e0'));
      expect(await socket.next("error", (f) => f.id === "num")).toMatchObject({ error: { code: "E_NOT_CANONICAL" } });
      socket.ws.close();
    });
  });
});
