/**
 * A close the relay decides completes at once for its client, also after the table's object
 * hibernated (workerd evicts an object idle for 10 s; its hibernatable sockets stay open), as long
 * as the socket has sent a frame: a plain `ws` client that sends the keepalive ping as it opens
 * gets its 'close' event, with the relay's code and reason, right after the relay closes it (4408
 * at the authentication deadline, 4410 when a public table is deleted and on an upgrade to a
 * deleted table, 4403 E_REVOKED); and a TableSocket, whose connector sends that ping, reconnects
 * as soon as the relay closes it at the deadline before its answer was sent (a signer still at
 * work). Without a frame from the client, workerd ends the connection only when it next evicts
 * the object, ~10 s later (decision 0350). "At once" is an order, never a time: the close comes
 * before a timer that starts when the relay closes and runs LATER_MS.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { revokeSeat, type SocketStatus } from "../../../src/client/index.js";
import { connectWire, type WireConnect } from "../../../src/client/websocket.js";
import { signDelete } from "../../../src/client/owner-requests.js";
import {
  PING_FRAME,
  ServerFrameSchema,
  signSocketAuth,
  type ServerFrame,
  type Signer,
} from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { limitSettings } from "../../support/limits-env.js";
import { relayPerFile } from "../../support/local-relay.js";
import { beforeTimer } from "../../support/order.js";

/** The authentication deadline: past workerd's 10 s of inactivity, so the object hibernates before its alarm closes a silent socket. */
const AUTH_MS = 12_000;
/** workerd evicts (hibernates) an object this long after its last event. */
const HIBERNATED_MS = 11_000;
/** How much later than the relay's close the marker timer ends: the close must come first. */
const LATER_MS = 5_000;
const TEST_MS = 40_000;

const relay = relayPerFile({ vars: limitSettings({ socket_auth_ms: AUTH_MS }) });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A plain `ws` client on `path` that sends the keepalive ping once open: the server frames it got (the pong is none), and its close event as the relay sent it. */
async function plainSocket(path: string) {
  const ws = new WebSocket(`${relay().url.replace("http", "ws")}${path}`);
  const frames: ServerFrame[] = [];
  const waiters: (() => void)[] = [];
  ws.on("message", (data) => {
    const frame = ServerFrameSchema.safeParse(JSON.parse(String(data)));
    if (frame.success) frames.push(frame.data);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string; frames: ServerFrame[] }>((resolve) => {
    ws.on("close", (code, reason) => resolve({ code, reason: String(reason), frames: [...frames] }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(PING_FRAME);
  /** The first frame of `type`, received or to come. */
  const next = <T extends ServerFrame["type"]>(type: T) =>
    new Promise<Extract<ServerFrame, { type: T }>>((resolve) => {
      const look = () => {
        const seen = frames.find((f): f is Extract<ServerFrame, { type: T }> => f.type === type);
        if (seen) resolve(seen);
        else waiters.push(look);
      };
      look();
    });
  return { ws, closed, next };
}

const errorFrame = (code: string) => ({ type: "error", error: expect.objectContaining({ code }) });

describe.concurrent("a close the relay decides, after the table's object hibernated", { timeout: TEST_MS }, () => {
  it("reaches a silent seat socket that pinged at its deadline: 4408, no error frame, and the close event at once", async () => {
    const client = await tableClient(relay().url, uniqueTable("close-deadline"));
    await seatDebate(client);
    const socket = await plainSocket(`/tables/${client.table}/ws`);
    expect(await beforeTimer(socket.closed, AUTH_MS + LATER_MS)).toBe("event");
    const closed = await socket.closed;
    expect(closed).toMatchObject({ code: 4408, reason: "the authentication deadline passed; reconnect" });
    expect(closed.frames.filter((f) => f.type === "error")).toEqual([]);
  });

  it("reaches a public viewer when the table is deleted: the E_TABLE_DELETED frame, then 4410 at once", async () => {
    const client = await tableClient(relay().url, uniqueTable("close-viewer"));
    const k = await seatDebate(client, { public: true });
    const viewer = await plainSocket(`/tables/${client.table}/public/ws?after=0`);
    await viewer.next("entries");
    await sleep(HIBERNATED_MS);
    await client.http.deleteTable(
      client.table,
      await signDelete(k.ops, { table: client.table, owner: "ops", now: Date.now() }),
    );
    expect(await beforeTimer(viewer.closed, LATER_MS)).toBe("event");
    const closed = await viewer.closed;
    expect(closed).toMatchObject({ code: 4410, reason: "E_TABLE_DELETED" });
    expect(closed.frames.at(-1)).toEqual(errorFrame("E_TABLE_DELETED"));
  });

  it("reaches an upgrade to a deleted table: the E_TABLE_DELETED frame, then 4410 at once", async () => {
    const client = await tableClient(relay().url, uniqueTable("close-deleted"));
    const k = await seatDebate(client, { public: true });
    await client.http.deleteTable(
      client.table,
      await signDelete(k.ops, { table: client.table, owner: "ops", now: Date.now() }),
    );
    await sleep(HIBERNATED_MS);
    for (const route of ["ws", "public/ws?after=0"]) {
      const socket = await plainSocket(`/tables/${client.table}/${route}`);
      expect(await beforeTimer(socket.closed, LATER_MS)).toBe("event");
      expect(await socket.closed).toMatchObject({
        code: 4410,
        reason: "E_TABLE_DELETED",
        frames: [errorFrame("E_TABLE_DELETED")],
      });
    }
  });

  it("reaches a seat socket whose key its owner revokes: the E_REVOKED frame, then 4403 at once", async () => {
    const client = await tableClient(relay().url, uniqueTable("close-revoked"));
    const k = await seatDebate(client);
    const seat = await plainSocket(`/tables/${client.table}/ws`);
    const { challenge } = await seat.next("challenge");
    const sig = await signSocketAuth(k.botTao, { scope: "ws", table: client.table, seat: "bot-tao", challenge });
    seat.ws.send(JSON.stringify({ type: "auth", seat: "bot-tao", sig }));
    await seat.next("welcome");
    await sleep(HIBERNATED_MS);
    await revokeSeat(client, "tao", k.tao, "bot-tao");
    expect(await beforeTimer(seat.closed, LATER_MS)).toBe("event");
    const closed = await seat.closed;
    expect(closed).toMatchObject({ code: 4403, reason: "E_REVOKED" });
    expect(closed.frames.at(-1)).toEqual(errorFrame("E_REVOKED"));
  });

  it("reaches a TableSocket whose signer is still at work at the deadline: it reconnects at once and is welcomed", async () => {
    const client = await tableClient(relay().url, uniqueTable("close-signer"));
    const k = await seatDebate(client);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let signatures = 0;
    // The first challenge answer waits until the relay has closed its socket.
    const slow: Signer = {
      publicKey: k.botTao.publicKey,
      publicKeyText: k.botTao.publicKeyText,
      sign: async (message) => {
        signatures += 1;
        if (signatures === 1) await released;
        return k.botTao.sign(message);
      },
    };
    const statuses: SocketStatus[] = [];
    let dropped!: () => void;
    const reconnecting = new Promise<void>((resolve) => (dropped = resolve));
    // The answer is released once the next connection's challenge has arrived: signed late, it must not be sent on that connection.
    let connections = 0;
    let challenged!: () => void;
    const nextChallenge = new Promise<void>((resolve) => (challenged = resolve));
    const connect: WireConnect = (url, handlers) => {
      const connection = ++connections;
      return connectWire(url, {
        ...handlers,
        onMessage: (text) => {
          handlers.onMessage(text);
          if (connection === 2 && text.includes('"challenge"')) challenged();
        },
      });
    };
    const socket = client.socket({
      seat: "bot-tao",
      signer: slow,
      connect,
      backoff: { initialMs: 20, maxMs: 200 },
      handlers: {
        onStatus: (status) => {
          statuses.push(status);
          if (status === "reconnecting") dropped();
        },
      },
    });
    const started = socket.start();
    expect(await beforeTimer(reconnecting, AUTH_MS + LATER_MS)).toBe("event");
    await nextChallenge;
    release();
    await started;
    expect(statuses).toEqual(["connecting", "reconnecting", "connecting", "open"]);
    socket.close();
  });
});
