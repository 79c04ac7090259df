/**
 * Every refusal over a limit, walked one source at a time (docs/SPEC.md §9, §10): the table below
 * names each limit the relay refuses with E_RATE_LIMITED (typed by RateLimitName, so a new limit
 * cannot be left out) and drives it to its refusal. Each one carries the wait both ways: over HTTP
 * `details.retry_after_ms` and `Retry-After` agreeing, over a socket an `error` frame with the wait
 * and a 4429 close whose reason names it; and the wait is true, the time until the limit would
 * admit the request (a bucket's next token, a fixed window's end, a cap's suggested wait).
 */
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signBindCode, signControl, signDelete } from "../../../src/client/owner-requests.js";
import { signSubmission, untilWindowEnds, waitText, type RateLimitName } from "../../../src/protocol/index.js";
import type { InviteDirectoryDO } from "../../../durable-objects/invites/directory.js";
import { INVITE_LIMITS } from "../../../durable-objects/invites/directory.js";
import { NOTE_LIMITS } from "../../../durable-objects/table/writing/notes.js";
import { CODE_LIMITS } from "../../../durable-objects/chat-directory/codes.js";
import { CAP_RETRY_MS } from "../../../durable-objects/table/limits.js";
import { clientAt, fromAddress, openTable, type Client } from "../../support/limited.js";
import { LIMITS_UNDER_TEST } from "../../support/limits-env.js";
import { RelayHttp, type Fetch, type Reply } from "../../support/relay-http.js";
import { RoomHttp } from "../../support/room-http.js";
import { TestSocket } from "../../support/socket.js";
import { debateConfig, keyOf, nonceOf } from "../../support/table-fixture.js";

/** The bounds of a true wait, in ms. */
type Wait = readonly [min: number, max: number];

/** A refusal as it reached the client: an HTTP reply with its headers, or the socket that carried it. */
type Refusal = { reply: Reply; headers: Headers; wait: Wait } | { socket: TestSocket; wait: Wait };

/** A client whose fetch remembers the headers of the last response; `anywhere` sends from any address. */
interface Recorded extends Client {
  last: () => Headers;
  anywhere: Fetch;
}

/** The wait of a bucket of `count` per `period` ms just emptied: at most one token's time. */
const bucket = (count: number, periodMs: number): Wait => [1, Math.ceil(periodMs / count)];
/** A fixed window's wait, between its end seen after and before the refused request. */
async function windowed(windowMs: number, refused: () => Promise<Reply>, last: () => Headers): Promise<Refusal> {
  const before = Date.now();
  const reply = await refused();
  return { reply, headers: last(), wait: [untilWindowEnds(Date.now(), windowMs), untilWindowEnds(before, windowMs)] };
}
const http = (c: Recorded, reply: Reply, wait: Wait): Refusal => ({ reply, headers: c.last(), wait });
const MIN = 60_000;
const HOUR = 60 * MIN;

/** `n` requests whose answers do not matter (they count, refused or not). */
async function times(n: number, send: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < n; i++) await send(i);
}

/** How each limit is driven to its refusal, by a client of its own at table `id`. */
const SOURCES: Record<RateLimitName, (c: Recorded, id: string) => Promise<Refusal>> = {
  seat_writes_per_min: async (c, id) => {
    const k = await openTable(c, id);
    const say = (i: number) => c.relay.say(id, k.botTao, { seat: "bot-tao", kind: "say", body: `entry ${i}` });
    await times(LIMITS_UNDER_TEST.seat_writes_per_min, say);
    return http(c, await say(-1), bucket(LIMITS_UNDER_TEST.seat_writes_per_min, MIN));
  },
  owner_writes_per_min: async (c, id) => {
    const k = await openTable(c, id);
    const control = async (i: number) =>
      c.relay.request(
        "POST",
        `/tables/${id}/control`,
        await signControl(k.tao, {
          table: id,
          owner: "tao",
          action: i % 2 === 0 ? "pause" : "resume",
          nonce: nonceOf(`${id}-${i}`),
        }),
      );
    await times(LIMITS_UNDER_TEST.owner_writes_per_min, control);
    return http(
      c,
      await control(LIMITS_UNDER_TEST.owner_writes_per_min),
      bucket(LIMITS_UNDER_TEST.owner_writes_per_min, MIN),
    );
  },
  reads_per_min: async (c, id) => {
    const k = await openTable(c, id);
    const read = () => c.relay.read(id, `/tables/${id}/entries?from=1`, k.botTao, { seat: "bot-tao" });
    await times(LIMITS_UNDER_TEST.reads_per_min, read);
    return http(c, await read(), bucket(LIMITS_UNDER_TEST.reads_per_min, MIN));
  },
  socket_frames_per_s: async (c, id) => {
    const k = await openTable(c, id);
    const socket = await TestSocket.open(c.fetch, id);
    await socket.auth(id, "bot-tao", k.botTao);
    const flood = 6 * LIMITS_UNDER_TEST.socket_frames_per_s;
    for (let i = 0; i < flood; i++) socket.send({ type: "ping-not" });
    return { socket, wait: [1, Math.ceil((flood * 1000) / LIMITS_UNDER_TEST.socket_frames_per_s)] };
  },
  sockets_per_table: async (c, id) => {
    await openTable(c, id);
    await Promise.all(Array.from({ length: LIMITS_UNDER_TEST.sockets_per_table }, () => TestSocket.open(c.fetch, id)));
    return { socket: await TestSocket.open(c.fetch, id), wait: [CAP_RETRY_MS, CAP_RETRY_MS] };
  },
  sockets_per_seat: async (c, id) => {
    const k = await openTable(c, id);
    await times(LIMITS_UNDER_TEST.sockets_per_seat, async () =>
      (await TestSocket.open(c.fetch, id)).auth(id, "bot-tao", k.botTao),
    );
    const over = await TestSocket.open(c.fetch, id);
    await over.answer(id, "bot-tao", k.botTao);
    return { socket: over, wait: [CAP_RETRY_MS, CAP_RETRY_MS] };
  },
  public_sockets_per_table: async (c, id) => {
    await openTable(c, id, { public: true });
    await Promise.all(
      Array.from({ length: LIMITS_UNDER_TEST.public_sockets_per_table }, () =>
        TestSocket.open(c.fetch, id, "public/ws"),
      ),
    );
    return { socket: await TestSocket.open(c.fetch, id, "public/ws"), wait: [CAP_RETRY_MS, CAP_RETRY_MS] };
  },
  client_tables_per_hour: async (c) => {
    await times(LIMITS_UNDER_TEST.client_tables_per_hour, () => c.relay.request("POST", "/tables", {}));
    return http(
      c,
      await c.relay.request("POST", "/tables", {}),
      bucket(LIMITS_UNDER_TEST.client_tables_per_hour, HOUR),
    );
  },
  client_joins_per_min: async (c, id) => {
    await times(LIMITS_UNDER_TEST.client_joins_per_min, () => c.relay.request("POST", `/tables/${id}/join`, {}));
    return http(
      c,
      await c.relay.request("POST", `/tables/${id}/join`, {}),
      bucket(LIMITS_UNDER_TEST.client_joins_per_min, MIN),
    );
  },
  client_connects_per_min: async (c, id) => {
    await times(LIMITS_UNDER_TEST.client_connects_per_min, () =>
      c.fetch(`https://relay.test/tables/${id}/ws`, { headers: { upgrade: "websocket" } }),
    );
    return { socket: await TestSocket.open(c.fetch, id), wait: bucket(LIMITS_UNDER_TEST.client_connects_per_min, MIN) };
  },
  client_pages_per_hour: async (c, id) => {
    await times(LIMITS_UNDER_TEST.client_pages_per_hour, () => c.relay.request("POST", `/tables/${id}/replica`, {}));
    return http(
      c,
      await c.relay.request("POST", `/tables/${id}/replica`, {}),
      bucket(LIMITS_UNDER_TEST.client_pages_per_hour, HOUR),
    );
  },
  edge_reads_per_min: async (c, id) => {
    await times(LIMITS_UNDER_TEST.edge_reads_per_min, () => c.fetch(`https://relay.test/tables/${id}/head`));
    return http(c, await c.relay.request("GET", `/tables/${id}/head`), [MIN, MIN]);
  },
  owner_tables_per_hour: async (c, id) => {
    // Each table from an address of its own (client_tables_per_hour is smaller), deleted again (owner_tables is smaller too).
    const from = (i: number) => new RelayHttp(fromAddress(c.anywhere, `100.64.23.${200 + i}`));
    const create = (i: number) => from(i).create(c.k.ops, "ops", debateConfig(c.k, { id: `${id}-${i}` }));
    await times(LIMITS_UNDER_TEST.owner_tables_per_hour, async (i) => {
      await create(i);
      await from(i).request(
        "POST",
        `/tables/${id}-${i}/delete`,
        await signDelete(c.k.ops, { table: `${id}-${i}`, owner: "ops", now: Date.now() }),
      );
    });
    return http(
      c,
      await create(LIMITS_UNDER_TEST.owner_tables_per_hour),
      bucket(LIMITS_UNDER_TEST.owner_tables_per_hour, HOUR),
    );
  },
  invite_misses_per_client: async (c) => {
    const lookup = () => c.relay.request("POST", "/invites/lookup", { code: "ZZZZ-ZZZZ" });
    await times(INVITE_LIMITS.misses_per_client, lookup);
    return windowed(INVITE_LIMITS.window_ms, lookup, c.last);
  },
  invite_misses_relay: async (c) => {
    const window = Math.floor(Date.now() / INVITE_LIMITS.global_window_ms) * INVITE_LIMITS.global_window_ms;
    await invites(
      "INSERT OR REPLACE INTO counters (name, window, count) VALUES ('miss:*', ?, ?)",
      window,
      INVITE_LIMITS.misses_global,
    );
    try {
      return await windowed(
        INVITE_LIMITS.global_window_ms,
        () => c.relay.request("POST", "/invites/lookup", { code: "ZZZZ-ZZZZ" }),
        c.last,
      );
    } finally {
      await invites("DELETE FROM counters WHERE name = 'miss:*'");
    }
  },
  notes_per_seat: async (c, id) => {
    const room = await RoomHttp.open(c.relay, id);
    await times(NOTE_LIMITS.per_window, (i) => room.note("sara-bot", `note ${i}`));
    return windowed(NOTE_LIMITS.window_ms, () => room.note("sara-bot", "one too many"), c.last);
  },
  bind_codes_per_owner: async (c, id) => {
    const owner = await keyOf(`owner:${id}`);
    const ask = async (i: number) =>
      c.relay.request(
        "POST",
        `/owners/${owner.publicKeyText}/bind-codes`,
        await signBindCode(owner, { platform: "telegram", lang: "en", nonce: nonceOf(`${id}-${i}`), now: Date.now() }),
      );
    await times(CODE_LIMITS.per_owner, ask);
    return windowed(CODE_LIMITS.window_ms, () => ask(CODE_LIMITS.per_owner), c.last);
  },
};

describe("every refusal over a limit", () => {
  for (const [index, [limit, drive]] of Object.entries(SOURCES).entries()) {
    it(`${limit}: carries the true wait in its details and in Retry-After, or in its socket's error frame and 4429 close`, async () => {
      const c = await recorded(`100.64.23.${index + 1}`, `refusal-${limit}`);
      const refusal = await drive(c, `refusal-${limit.replaceAll("_", "-")}`);
      if ("reply" in refusal) {
        expect(refusal.reply.status).toBe(429);
        expect(refusal.reply.body.error).toMatchObject({ code: "E_RATE_LIMITED", details: { limit } });
        const wait = waitOf(refusal.reply.body.error.details, refusal.wait);
        expect(refusal.headers.get("retry-after")).toBe(String(Math.ceil(wait / 1000)));
      } else {
        const { code, reason } = await refusal.socket.whenClosed();
        expect(code).toBe(4429);
        // The frame the socket was closed with (a flood's earlier refusals carry their frames' ids, or none).
        const frame = [...refusal.socket.frames].reverse().find((f) => f.type === "error");
        expect(frame).toMatchObject({ error: { code: "E_RATE_LIMITED", details: { limit } } });
        const wait = waitOf(frame?.type === "error" ? frame.error.details : undefined, refusal.wait);
        expect(reason).toBe(`rate limited; retry in ${waitText(wait)}`);
      }
    });
  }
});

/** The refusal's `retry_after_ms`, checked to be a whole number of ms within the true wait's bounds. */
function waitOf(details: Record<string, unknown> | undefined, [min, max]: Wait): number {
  const wait = details?.retry_after_ms;
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThanOrEqual(min);
  expect(wait).toBeLessThanOrEqual(max);
  return Number(wait);
}

/** A client at `address` whose fetch records the last response's headers. */
async function recorded(address: string, label: string): Promise<Recorded> {
  let headers = new Headers();
  const fetch = async (url: string, init?: RequestInit) => {
    const response = await SELF.fetch(url, init);
    headers = response.headers;
    return response;
  };
  return { ...(await clientAt(fetch, address, label)), last: () => headers, anywhere: fetch };
}

/** Runs `query` on the relay's invite directory. */
const invites = (query: string, ...params: unknown[]) =>
  runInDurableObject(env.INVITES.getByName("invites"), (_d: InviteDirectoryDO, state) =>
    state.storage.sql.exec(query, ...params).toArray(),
  );
