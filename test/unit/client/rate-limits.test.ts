/**
 * The client library against a real relay whose operator limits are on: a write refused over a
 * rate limit is waited out and sent again (the same nonce: it lands once), a wait longer than the
 * client accepts is thrown with the wait, and a socket refused over a cap reconnects no sooner than
 * the wait its refusal named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, TableClient, type SocketStatus } from "../../../src/client/index.js";
import { retryAfterOf, TrestleError } from "../../../src/protocol/index.js";
import { seatDebate, uniqueTable } from "../../support/client-table.js";
import { limitSettings } from "../../support/limits-env.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import type { Cast } from "../../support/table-fixture.js";

const WRITES = 30;
let relay: LocalRelay;
beforeAll(async () => {
  relay = await startRelay({ vars: limitSettings({ seat_writes_per_min: WRITES, sockets_per_seat: 1 }) });
}, 60_000);
afterAll(() => relay?.dispose());

/** An open table at the relay whose client waits as `rateLimit` says; bot-tao has written its whole bucket. */
async function exhausted(
  prefix: string,
  rateLimit: ConstructorParameters<typeof HttpClient>[0]["rateLimit"] = {},
): Promise<{ client: TableClient; k: Cast }> {
  const http = new HttpClient({ url: relay.url, rateLimit });
  const client = await TableClient.open({
    http,
    table: uniqueTable(prefix),
    relayKey: (await http.wellKnown()).relay_key,
  });
  const k = await seatDebate(client, { topology: { kind: "open" }, termination: { any: ["decision"] } });
  await Promise.all(
    Array.from({ length: WRITES }, (_, i) => client.submit(k.botTao, "bot-tao", { kind: "say", body: `entry ${i}` })),
  );
  return { client, k };
}

describe("HttpClient over a rate limit", () => {
  it("waits as long as the relay asks, sends the write again, and it lands once", async () => {
    const waits: number[] = [];
    const { client, k } = await exhausted("rl-wait", { onWait: (ms) => waits.push(ms) });
    const before = client.tracker.held!.seq;
    // The bucket gives a write back every 60 / WRITES s: on a loaded machine one may come back while the
    // bucket is being spent, so the next write lands at once. Writes go on until one has waited.
    let sent = 0;
    let seq = before;
    while (waits.length === 0 && sent < WRITES) {
      ({ seq } = await client.submit(k.botTao, "bot-tao", { kind: "say", body: `after the wait ${sent}` }));
      sent += 1;
    }
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(60_000 / WRITES);
    expect(seq).toBe(before + sent);
    expect((await client.http.head(client.table)).seq).toBe(before + sent);
  });

  describe("when the wait is longer than the client accepts", () => {
    it("throws E_RATE_LIMITED with the wait in details, and nothing was written", async () => {
      const { client, k } = await exhausted("rl-throw", { maxWaitMs: 10 });
      // As above, a write given back while the bucket was spent lands: writes go on until one is refused.
      let before = (await client.http.head(client.table)).seq;
      let error: unknown;
      for (let sent = 0; error === undefined && sent < WRITES; sent += 1) {
        before = (await client.http.head(client.table)).seq;
        error = await client.submit(k.botTao, "bot-tao", { kind: "say", body: `not now ${sent}` }).then(
          () => undefined,
          (e: unknown) => e,
        );
      }
      expect(error).toBeInstanceOf(TrestleError);
      expect(retryAfterOf(error as TrestleError)).toBeGreaterThan(10);
      expect((await client.http.head(client.table)).seq).toBe(before);
    });
  });
});

describe("TableSocket over a rate limit", () => {
  it("sends a refused write again after its wait, and the write resolves with its one seq", async () => {
    const { client, k } = await exhausted("rl-socket");
    const socket = client.socket({ seat: "bot-tao", signer: k.botTao });
    await socket.start();
    const before = (await client.http.head(client.table)).seq;
    const { seq } = await socket.submit({ kind: "say", body: "over the socket, after the wait" });
    expect(seq).toBe(before + 1);
    expect((await client.http.head(client.table)).seq).toBe(before + 1);
    socket.close();
  });

  it("reconnects a socket refused over a cap (4429) no sooner than the wait the refusal named", async () => {
    const { client, k } = await exhausted("rl-cap");
    const first = client.socket({ seat: "bot-tao", signer: k.botTao });
    await first.start();
    const statuses: { status: SocketStatus; delayMs?: number }[] = [];
    const reconnecting = new Promise<void>((resolve) => {
      const second = client.socket({
        seat: "bot-tao",
        signer: k.botTao,
        handlers: {
          onStatus: (status, detail) => {
            statuses.push({ status, ...(detail ? { delayMs: detail.delayMs } : {}) });
            if (status === "reconnecting") {
              second.close();
              resolve();
            }
          },
        },
      });
      void second.start().catch(() => undefined);
    });
    await reconnecting;
    expect(statuses.find((s) => s.status === "reconnecting")?.delayMs).toBeGreaterThanOrEqual(30_000);
    first.close();
  });
});
