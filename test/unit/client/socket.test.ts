/**
 * The seat socket against a real relay behind a cuttable proxy: verified pushes, writes with
 * known_head, reconnect with backoff and resume from the last cursor, idempotent resends, refused
 * auth, and a relay caught forking, truncating or signing with another key behind the same URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backoffDelay,
  connectWire,
  DEFAULT_BACKOFF,
  HttpClient,
  refusalOf,
  revokeSeat,
  TableClient,
  TableSocket,
  type ChainPoint,
  type Evidence,
  type HeadStore,
  type SocketStatus,
  type WireConnect,
} from "../../../src/client/index.js";
import {
  isForkProof,
  toBase64url,
  verifyHeadSignature,
  type Entry,
  type HiddenEntry,
  type Signer,
} from "../../../src/protocol/index.js";
import { seatDebate, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { debateConfig, keyOf } from "../../support/table-fixture.js";
import { startProxy, type TcpProxy } from "../../support/tcp-proxy.js";

const SEED = toBase64url(new Uint8Array(32).fill(7));
const FAST = { initialMs: 20, maxMs: 200 };

let a: LocalRelay;
let b: LocalRelay;
let c: LocalRelay;
let proxy: TcpProxy;

beforeAll(async () => {
  // a and b share one relay key (one operator, two histories); c has its own.
  [a, b, c] = await Promise.all([startRelay({ signingKey: SEED }), startRelay({ signingKey: SEED }), startRelay()]);
  proxy = await startProxy(a.port);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await Promise.all([a, b, c].map((r) => r?.dispose()));
});

/** A seat socket through the proxy, recording what it reports. */
function watch(client: TableClient, seat: string, signer: Signer, anchor?: ChainPoint) {
  const seen: (Entry | HiddenEntry)[] = [];
  const statuses: SocketStatus[] = [];
  const evidence: Evidence[] = [];
  const waiters: { seq: number; resolve(): void }[] = [];
  const socket = new TableSocket({
    url: client.http.socketUrl(client.table),
    table: client.table,
    seat,
    signer,
    tracker: client.tracker,
    backoff: FAST,
    ...(anchor ? { anchor } : {}),
    handlers: {
      onEntries: (items) => {
        seen.push(...items);
        for (const w of waiters.filter((w) => seen.some((e) => e.seq >= w.seq))) w.resolve();
      },
      onStatus: (s) => statuses.push(s),
      onEvidence: (e) => evidence.push(e),
    },
  });
  const until = (seq: number) =>
    seen.some((e) => e.seq >= seq) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ seq, resolve }));
  return { socket, seen, statuses, evidence, until };
}

async function proxiedClient(table: string): Promise<TableClient> {
  const http = new HttpClient({ url: proxy.url });
  return TableClient.open({ http, table, relayKey: (await http.wellKnown()).relay_key });
}

describe("backoffDelay", () => {
  it("doubles up to the cap and keeps half of each delay random", () => {
    expect(backoffDelay(0, DEFAULT_BACKOFF, () => 0)).toBe(125);
    expect(backoffDelay(0, DEFAULT_BACKOFF, () => 0.999999)).toBeCloseTo(250, 0);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(1000);
    expect(backoffDelay(40, DEFAULT_BACKOFF, () => 0)).toBe(15_000);
    expect(backoffDelay(40, DEFAULT_BACKOFF, () => 0.999999)).toBeLessThan(30_000);
  });
});

describe("refusalOf", () => {
  it("stops for the 4xx closes that refuse for good, with the relay's code", () => {
    expect(refusalOf(4401, "bad answer", "x")).toMatchObject({
      code: "E_AUTH",
      details: { close_code: 4401, reason: "bad answer" },
    });
    expect(refusalOf(4403, "seat left", "x")).toMatchObject({ code: "E_UNKNOWN_SEAT" });
    expect(refusalOf(4404, "", "x")).toMatchObject({ code: "E_TABLE_NOT_FOUND" });
    expect(refusalOf(4409, "", "x")).toMatchObject({ code: "E_FORBIDDEN", details: { close_code: 4409 } });
    expect(refusalOf(4403, "E_REVOKED: tao revoked this key", "x")).toMatchObject({
      code: "E_REVOKED",
      details: { close_code: 4403 },
    });
    expect(refusalOf(4401, "E_REVOKED", "x")).toMatchObject({ code: "E_AUTH" });
  });

  describe("when the close is transient", () => {
    it("returns null for drops, restarts, timeouts, rate limits, keepalive and relay faults", () => {
      for (const code of [1000, 1001, 1006, 1011, 1012, 1013, 4000, 4408, 4429, 4500, 4503])
        expect(refusalOf(code, "", "x")).toBeNull();
    });
  });
});

describe("TableSocket", () => {
  it("receives the verified history, then writes over the socket with known_head", async () => {
    proxy.retarget(a.port);
    const client = await proxiedClient(uniqueTable("ws-basic"));
    const k = await seatDebate(client);
    const w = watch(client, "bot-tao", k.botTao);
    await w.socket.start();
    const joined = client.tracker.held!.seq;
    await w.until(joined);
    const { seq } = await w.socket.submit({ kind: "say", body: "over the socket" });
    await w.until(seq);
    expect(w.seen.map((e) => e.seq)).toEqual(Array.from({ length: w.seen.length }, (_, i) => i + 1));
    expect(w.socket.position.seq).toBe(client.tracker.held!.seq);
    w.socket.close();
    expect(await w.socket.ended).toEqual({ reason: "closed" });
  });

  it("reconnects after the connection drops and resumes from its cursor without gaps or repeats", async () => {
    proxy.retarget(a.port);
    const client = await proxiedClient(uniqueTable("ws-resume"));
    const k = await seatDebate(client);
    const w = watch(client, "bot-jenny", k.botJenny);
    await w.socket.start();
    await w.until(client.tracker.held!.seq);
    proxy.cut();
    // While the socket is down, the table moves on through the direct relay URL.
    const direct = await TableClient.open({
      http: new HttpClient({ url: a.url }),
      table: client.table,
      relayKey: client.tracker.relayKey,
    });
    const said = await direct.submit(k.botTao, "bot-tao", { kind: "say", body: "while you were away" });
    await w.until(said.seq);
    expect(w.statuses).toContain("reconnecting");
    expect(w.statuses.filter((s) => s === "open")).toHaveLength(2);
    expect(w.seen.map((e) => e.seq)).toEqual(
      Array.from({ length: said.seq + 1 }, (_, i) => i + 1).slice(0, w.seen.length),
    );
    expect(new Set(w.seen.map((e) => e.seq)).size).toBe(w.seen.length);
    w.socket.close();
  });

  it("resends an unacknowledged write after a reconnect and gets the same seq once", async () => {
    proxy.retarget(a.port);
    const client = await proxiedClient(uniqueTable("ws-resend"));
    const k = await seatDebate(client);
    const w = watch(client, "bot-tao", k.botTao);
    await w.socket.start();
    const write = w.socket.submit({ kind: "say", body: "said exactly once" });
    proxy.cut();
    const { seq } = await write;
    await w.until(seq + 1);
    const history = await client.history({ signer: k.ops, as: { owner: "ops" } });
    const says = history.items.filter((e) => "kind" in e && e.kind === "say");
    expect(says).toHaveLength(1);
    expect(says[0]!.seq).toBe(seq);
    w.socket.close();
  });

  it("uses the `ws` package in Node even where the runtime has a global WebSocket (undici's offers compression; decision 0541)", async () => {
    proxy.retarget(a.port);
    const client = await proxiedClient(uniqueTable("ws-global"));
    const k = await seatDebate(client);
    const { WebSocket } = await import("ws");
    let constructed = 0;
    const counting = class extends WebSocket {
      constructor(url: string) {
        super(url);
        constructed += 1;
      }
    };
    const global = globalThis as { WebSocket?: unknown };
    const before = global.WebSocket;
    global.WebSocket = counting;
    try {
      const w = watch(client, "bot-tao", k.botTao);
      await w.socket.start();
      await w.until(client.tracker.held!.seq);
      w.socket.close();
      expect(constructed).toBe(0);
    } finally {
      global.WebSocket = before;
    }
  });

  describe("when the relay refuses the seat", () => {
    it("ends with E_AUTH and does not reconnect", async () => {
      proxy.retarget(a.port);
      const client = await proxiedClient(uniqueTable("ws-auth"));
      await seatDebate(client);
      const w = watch(client, "bot-tao", await keyOf("not the seat key"));
      await expect(w.socket.start()).rejects.toMatchObject({ code: "E_AUTH" });
      expect(await w.socket.ended).toMatchObject({ reason: "error", error: { code: "E_AUTH" } });
      expect(w.statuses).not.toContain("reconnecting");
    });
  });

  describe("when its answer to a challenge comes too late", () => {
    it("reconnects after the relay's 4408 close and is welcomed on the fresh challenge", async () => {
      proxy.retarget(a.port);
      const client = await proxiedClient(uniqueTable("ws-late"));
      const k = await seatDebate(client);
      // The first connection's answer is late: the relay closes it with 4408 and no error frame (test/workers/websocket.test.ts).
      let dials = 0;
      const connect: WireConnect = async (url, handlers) => {
        dials += 1;
        if (dials > 1) return connectWire(url, handlers);
        queueMicrotask(() =>
          handlers.onMessage(JSON.stringify({ type: "challenge", table: client.table, challenge: "stale" })),
        );
        return {
          send: () => queueMicrotask(() => handlers.onClose(4408, "the challenge expired; reconnect")),
          close: () => undefined,
        };
      };
      const statuses: SocketStatus[] = [];
      const socket = new TableSocket({
        url: client.http.socketUrl(client.table),
        table: client.table,
        seat: "bot-tao",
        signer: k.botTao,
        tracker: client.tracker,
        backoff: FAST,
        connect,
        handlers: { onStatus: (s) => statuses.push(s) },
      });
      await socket.start();
      expect(dials).toBe(2);
      expect(statuses).toEqual(["connecting", "reconnecting", "connecting", "open"]);
      socket.close();
    });
  });

  describe("when the seat leaves the table", () => {
    it("ends with the relay's 4403 as E_UNKNOWN_SEAT and does not reconnect", async () => {
      proxy.retarget(a.port);
      const client = await proxiedClient(uniqueTable("ws-left"));
      const k = await seatDebate(client);
      const w = watch(client, "bot-jenny", k.botJenny);
      await w.socket.start();
      await client.submit(k.botTao, "bot-tao", {
        kind: "request",
        request_id: "stop-jenny",
        type: "shutdown",
        to: ["bot-jenny"],
        body: "please leave",
      });
      const left = await client.submit(k.botJenny, "bot-jenny", {
        kind: "response",
        request_id: "stop-jenny",
        type: "shutdown",
        verdict: "approve",
        body: "",
      });
      const end = await w.socket.ended;
      expect(end).toMatchObject({ reason: "error", error: { code: "E_UNKNOWN_SEAT", details: { close_code: 4403 } } });
      expect(w.seen.at(-1)?.seq).toBe(left.seq + 1);
      expect(w.statuses).not.toContain("reconnecting");
      await expect(w.socket.submit({ kind: "say", body: "still here?" })).rejects.toMatchObject({
        code: "E_UNKNOWN_SEAT",
      });
    });
  });

  describe("when the seat's owner revokes its key", () => {
    it("ends at once with E_REVOKED, does not reconnect, and refuses a write over it", async () => {
      proxy.retarget(a.port);
      const client = await proxiedClient(uniqueTable("ws-revoked"));
      const k = await seatDebate(client);
      const w = watch(client, "bot-tao", k.botTao);
      await w.socket.start();
      await revokeSeat(client, "tao", k.tao, "bot-tao");
      expect(await w.socket.ended).toMatchObject({
        reason: "error",
        error: { code: "E_REVOKED", details: { seat: "bot-tao" } },
      });
      expect(w.statuses).not.toContain("reconnecting");
      await expect(w.socket.submit({ kind: "say", body: "the leaked key speaks" })).rejects.toMatchObject({
        code: "E_REVOKED",
      });
    });
  });

  describe("when the relay cannot be reached at first", () => {
    it("rejects start with E_NETWORK", async () => {
      const client = await TableClient.open({
        http: new HttpClient({ url: "http://127.0.0.1:9" }),
        table: "t-none",
        relayKey: "A".repeat(43),
      });
      const w = watch(client, "bot-tao", await keyOf("x"));
      await expect(w.socket.start()).rejects.toMatchObject({ code: "E_NETWORK" });
    });
  });

  describe("when another relay answers behind the same URL", () => {
    async function tables(prefix: string) {
      const table = uniqueTable(prefix);
      proxy.retarget(a.port);
      const client = await proxiedClient(table);
      const k = await seatDebate(client);
      const other = await TableClient.open({
        http: new HttpClient({ url: b.url }),
        table,
        relayKey: client.tracker.relayKey,
      });
      return { client, k, other };
    }

    it("reports two conflicting signed heads at one seq as a fork", async () => {
      const { client, k, other } = await tables("ws-fork");
      await seatDebate(other);
      const w = watch(client, "bot-tao", k.botTao);
      await w.socket.start();
      await w.until(client.tracker.held!.seq);
      proxy.retarget(b.port);
      proxy.cut();
      const end = await w.socket.ended;
      expect(end).toMatchObject({ reason: "error", error: { code: "E_FORK" } });
      const [evidence] = w.evidence;
      expect(evidence?.kind).toBe("fork");
      expect(isForkProof(evidence!.heads[0]!, evidence!.heads[1]!)).toBe(true);
      for (const head of evidence!.heads) {
        expect(head.relay).toBe(client.tracker.relayKey);
        expect(await verifyHeadSignature(head)).toBe(true);
      }
    });

    it("reports a current head older than the one held (from an earlier run) as truncation", async () => {
      const { client, k, other } = await tables("ws-trunc");
      await other.create(k.ops, "ops", debateConfig(k, { id: client.table }));
      await other.join(k.tao, {
        seat: "bot-tao",
        owner: "tao",
        seatKey: k.botTao.publicKeyText,
        card: { summary: "bot-tao" },
        expires: Date.now() + 60_000,
      });
      const held = client.tracker.held!;
      // A later run: only the stored head is known, and the relay it reaches (the same key) now has
      // less. It reaches b directly: through the proxy, Node 22's WebSocket may upgrade on a pooled
      // connection still open to a, which no retargeting moves.
      const store: HeadStore = { load: () => held, save: () => undefined, evidence: () => [], keep: () => undefined };
      const later = await TableClient.open({
        http: new HttpClient({ url: b.url }),
        table: client.table,
        relayKey: held.relay,
        store,
      });
      const w = watch(later, "bot-tao", k.botTao, { seq: held.seq, link: held.link });
      await expect(w.socket.start()).rejects.toMatchObject({ code: "E_FORK" });
      expect(w.evidence[0]).toMatchObject({ kind: "truncation", seq: 2 });
      expect(w.evidence[0]!.heads.map((h) => h.seq)).toEqual([held.seq, 2]);
    });

    it("refuses heads signed by a relay key other than the pinned one", async () => {
      const { client, k } = await tables("ws-key");
      const impostor = await TableClient.open({
        http: new HttpClient({ url: c.url }),
        table: client.table,
        relayKey: (await new HttpClient({ url: c.url }).wellKnown()).relay_key,
      });
      await seatDebate(impostor);
      const w = watch(client, "bot-tao", k.botTao);
      await w.socket.start();
      await w.until(client.tracker.held!.seq);
      proxy.retarget(c.port);
      proxy.cut();
      expect(await w.socket.ended).toMatchObject({ reason: "error", error: { code: "E_RELAY_KEY" } });
    });
  });
});
