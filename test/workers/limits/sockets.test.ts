/**
 * Socket limits: the authentication deadline, run by the table's alarm so that a socket that never
 * speaks is closed too (also after the object hibernated); the caps on sockets per table, per seat
 * and public sockets; frames per socket; upgrades per client address. A refusal is an E_RATE_LIMITED
 * error frame with the wait, then close 4429; refused traffic changes no ledger.
 */
import { SELF, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signSubmission } from "../../../src/protocol/index.js";
import { refusalOf } from "../../../src/client/refusal.js";
import { headUnmoved } from "../../support/relay-http.js";
import { clientAt, openTable } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";
import { TestSocket } from "../../support/socket.js";
import { nonceOf } from "../../support/table-fixture.js";

const fetcher = (url: string, init?: RequestInit) => SELF.fetch(url, init);

/** Expects `socket` to carry one E_RATE_LIMITED refusal for `limit` and close with 4429, which a client retries. */
async function refusedOver(socket: TestSocket, limit: string): Promise<void> {
  const { code, reason } = await socket.whenClosed();
  expect(code).toBe(4429);
  expect(refusalOf(code, reason, "x")).toBeNull();
  expect(socket.frames.filter((f) => f.type === "error")).toEqual([
    {
      type: "error",
      error: expect.objectContaining({
        code: "E_RATE_LIMITED",
        details: { limit, retry_after_ms: expect.any(Number) },
      }),
    },
  ]);
}

describe("a socket that does not authenticate", () => {
  it("is closed with 4408 once socket_auth_ms has passed, though it never sent a frame", async () => {
    const c = await clientAt(fetcher, "192.0.2.1", "silent");
    await openTable(c, "lim-silent");
    const socket = await TestSocket.open(c.fetch, "lim-silent");
    await socket.next("challenge");
    const opened = Date.now();
    const closed = await socket.whenClosed();
    expect(closed.code).toBe(4408);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(LIMITS_UNDER_TEST.socket_auth_ms - 50);
    expect(refusalOf(closed.code, closed.reason, "x")).toBeNull();
  });

  it("is closed by the alarm after the table object was evicted, and an authenticated socket stays open", async () => {
    const c = await clientAt(fetcher, "192.0.2.2", "silent-evicted");
    const k = await openTable(c, "lim-silent-evicted");
    const [silent, speaking] = [
      await TestSocket.open(c.fetch, "lim-silent-evicted"),
      await TestSocket.open(c.fetch, "lim-silent-evicted"),
    ];
    await speaking.auth("lim-silent-evicted", "bot-tao", k.botTao);
    await evictDurableObject(env.TABLES.getByName("lim-silent-evicted"));
    expect((await silent.whenClosed()).code).toBe(4408);
    const said = await c.relay.say("lim-silent-evicted", k.botJenny, {
      seat: "bot-jenny",
      kind: "say",
      body: "still here",
    });
    await speaking.until(said.body.seq);
    expect(speaking.closed).toBeNull();
    speaking.ws.close();
  });
});

describe("socket caps", () => {
  it("refuses the socket past sockets_per_table (silent ones count) with an error frame and 4429", async () => {
    const c = await clientAt(fetcher, "192.0.2.3", "table-cap");
    await openTable(c, "lim-table-cap");
    const open = await Promise.all(
      Array.from({ length: LIMITS_UNDER_TEST.sockets_per_table }, () => TestSocket.open(c.fetch, "lim-table-cap")),
    );
    await refusedOver(await TestSocket.open(c.fetch, "lim-table-cap"), "sockets_per_table");
    for (const socket of open) socket.ws.close();
  });

  it("refuses a seat's socket past sockets_per_seat when it authenticates, while another seat connects", async () => {
    const c = await clientAt(fetcher, "192.0.2.4", "seat-cap");
    const k = await openTable(c, "lim-seat-cap");
    const held: TestSocket[] = [];
    for (let i = 0; i < LIMITS_UNDER_TEST.sockets_per_seat; i++) {
      const socket = await TestSocket.open(c.fetch, "lim-seat-cap");
      await socket.auth("lim-seat-cap", "bot-tao", k.botTao);
      held.push(socket);
    }
    const over = await TestSocket.open(c.fetch, "lim-seat-cap");
    await over.answer("lim-seat-cap", "bot-tao", k.botTao);
    await refusedOver(over, "sockets_per_seat");
    const other = await TestSocket.open(c.fetch, "lim-seat-cap");
    expect((await other.auth("lim-seat-cap", "bot-jenny", k.botJenny)).seat).toBe("bot-jenny");
    for (const socket of [...held, other]) socket.ws.close();
  });

  it("refuses the public viewer past public_sockets_per_table", async () => {
    const c = await clientAt(fetcher, "192.0.2.5", "public-cap");
    await openTable(c, "lim-public-cap", { public: true });
    const open = await Promise.all(
      Array.from({ length: LIMITS_UNDER_TEST.public_sockets_per_table }, () =>
        TestSocket.open(c.fetch, "lim-public-cap", "public/ws"),
      ),
    );
    await refusedOver(await TestSocket.open(c.fetch, "lim-public-cap", "public/ws"), "public_sockets_per_table");
    for (const socket of open) socket.ws.close();
  });
});

describe("a socket that floods", () => {
  it("gets an error frame for each frame over socket_frames_per_s, is closed with 4429 when it keeps on, and only the frames let through were written", async () => {
    const c = await clientAt(fetcher, "192.0.2.6", "frame-flood");
    const k = await openTable(c, "lim-frame-flood");
    const socket = await TestSocket.open(c.fetch, "lim-frame-flood");
    const welcome = await socket.auth("lim-frame-flood", "bot-tao", k.botTao);
    const frames = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => ({
        type: "submit",
        id: `f${i}`,
        request: await signSubmission(k.botTao, {
          table: "lim-frame-flood",
          seat: "bot-tao",
          nonce: nonceOf(`flood-${i}`),
          kind: "say",
          body: `frame ${i}`,
        }),
      })),
    );
    for (const frame of frames) socket.send(frame);
    const closed = await socket.whenClosed();
    expect(closed.code).toBe(4429);
    const acks = socket.frames.filter((f) => f.type === "ack");
    const refused = socket.frames.filter((f) => f.type === "error" && f.error.code === "E_RATE_LIMITED");
    expect(acks.length).toBeGreaterThanOrEqual(1);
    expect(acks.length).toBeLessThan(LIMITS_UNDER_TEST.seat_writes_per_min);
    expect(refused.length).toBeGreaterThan(1);
    expect(refused[0]).toMatchObject({
      id: expect.stringMatching(/^f/),
      error: { details: { limit: "socket_frames_per_s" } },
    });
    const head = (await c.relay.request("GET", "/tables/lim-frame-flood/head")).body;
    expect(head.seq).toBe(welcome.head.seq + acks.length);
  });
});

describe("upgrades from one address", () => {
  it("refuses the upgrade past client_connects_per_min on a socket of its own, before the table sees it", async () => {
    const c = await clientAt(fetcher, "192.0.2.7", "connects");
    await openTable(c, "lim-connects");
    const open: TestSocket[] = [];
    for (let i = 0; i < LIMITS_UNDER_TEST.client_connects_per_min; i++) {
      const socket = await TestSocket.open(c.fetch, "lim-connects");
      await socket.next("challenge");
      socket.ws.close();
      open.push(socket);
    }
    const over = await headUnmoved(c.relay, "lim-connects", () => TestSocket.open(c.fetch, "lim-connects"));
    await refusedOver(over, "client_connects_per_min");
    expect(over.frames.some((f) => f.type === "challenge")).toBe(false);
  });
});
