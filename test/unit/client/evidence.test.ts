/**
 * Evidence against a relay, kept and reported by the client library (docs/SPEC.md §8.3): reads
 * whose signed head shows a rollback or a fork (projection, tasks), and, once evidence is kept,
 * every TableClient call, TableSocket and runSeat report E_FORK and every verification is REFUTED,
 * even against a relay that now serves a tidy history, until the store forgets it. Two real relays
 * with one key stand for one operator serving two histories of a table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidenceOf, HttpClient, MemoryHeadStore, runSeat, TableClient } from "../../../src/client/index.js";
import { toBase64url, type SignedHead } from "../../../src/protocol/index.js";
import type { Cast } from "../../support/table-fixture.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { startRelay, type LocalRelay } from "../../support/local-relay.js";
import { staleExports } from "../../support/stale-exports.js";

const SEED = toBase64url(new Uint8Array(32).fill(13));
let honest: LocalRelay;
let other: LocalRelay;

beforeAll(async () => {
  [honest, other] = await Promise.all([startRelay({ signingKey: SEED }), startRelay({ signingKey: SEED })]);
}, 60_000);
afterAll(() => Promise.all([honest?.dispose(), other?.dispose()]));

/** The debate's first turns: bot-tao, then bot-jenny, `turns` entries in all. */
async function turns(client: TableClient, k: Cast, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const [key, seat] = i % 2 === 0 ? [k.botTao, "bot-tao"] : [k.botJenny, "bot-jenny"];
    await client.submit(key, seat, { kind: "say", body: `turn ${i}` });
  }
}

async function caught(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const evidence = evidenceOf(error);
  expect(evidence, String(error)).toBeDefined();
  return evidence!;
}

describe("when a read's signed head shows the relay rolled back or forked", () => {
  it("catches a truncation from the head a task list was read at", async () => {
    const { table, store, k, held } = await twoHistoriesOn("tasks-trunc", 4, 0);
    const reader = await tableClient(other.url, table, store);
    const evidence = await caught(reader.tasks({ signer: k.ops, as: { owner: "ops" } }));
    expect(evidence).toMatchObject({ kind: "truncation" });
    expect(evidence.heads[0]).toEqual(held);
    expect(store.load(held.relay, table)).toEqual(held);
  });

  it("catches a fork past the held head from a projection, by chaining the entries up to its head from the held one", async () => {
    const { table, store, k, held } = await twoHistoriesOn("proj-fork", 1, 4);
    const reader = await tableClient(other.url, table, store);
    const evidence = await caught(reader.projection({ signer: k.judge, as: { seat: "judge" } }));
    expect(evidence.kind).toBe("fork");
    expect(evidence.heads[0]).toEqual(held);
    expect(store.load(held.relay, table)).toEqual(held);
    expect(store.evidence(held.relay, table)).toEqual([evidence]);
  });

  describe("and evidence is kept", () => {
    async function caughtTable() {
      const setup = await twoHistoriesOn("kept", 1, 4);
      const reader = await tableClient(other.url, setup.table, setup.store);
      await caught(reader.history({ signer: setup.k.ops, as: { owner: "ops" } }));
      // Back on the honest relay, which serves a history consistent with the held head.
      return { ...setup, again: await tableClient(honest.url, setup.table, setup.store) };
    }

    it("reaches a client of this home opened before it was kept (a long-running watch or MCP server) at its next call", async () => {
      const setup = await twoHistoriesOn("kept-later", 1, 4);
      const early = await tableClient(honest.url, setup.table, setup.store);
      const tao = { signer: setup.k.botTao, as: { seat: "bot-tao" } } as const;
      await early.projection(tao);
      const reader = await tableClient(other.url, setup.table, setup.store);
      await caught(reader.history({ signer: setup.k.ops, as: { owner: "ops" } }));
      await caught(early.head());
      await caught(early.projection(tao));
      await caught(early.submit(setup.k.botJenny, "bot-jenny", { kind: "say", body: "still here?" }));
    });

    it("every TableClient call reports it, and the held head stays", async () => {
      const { again, k, held } = await caughtTable();
      const tao = { signer: k.botTao, as: { seat: "bot-tao" } } as const;
      for (const call of [
        () => again.head(),
        () => again.projection(tao),
        () => again.tasks(tao),
        () => again.history(tao),
        () => again.submit(k.botJenny, "bot-jenny", { kind: "say", body: "still here?" }),
      ]) {
        await caught(call());
      }
      expect(again.tracker.held).toEqual(held);
    });

    it("verification of the honest export is REFUTED naming the evidence", async () => {
      const { again, k } = await caughtTable();
      const { report } = await again.exportLedger({ signer: k.ops, as: { owner: "ops" } });
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted?.reason).toContain("keeps evidence that the relay misbehaved");
    });

    it("a TableSocket and runSeat end at once with E_FORK", async () => {
      const { again, k } = await caughtTable();
      const socket = again.socket({ seat: "bot-tao", signer: k.botTao });
      await expect(socket.start()).rejects.toMatchObject({ code: "E_FORK" });
      await expect(runSeat(() => null, { client: again, seat: "bot-tao", signer: k.botTao })).rejects.toMatchObject({
        code: "E_FORK",
      });
    });
  });
});

describe("when a relay serves an older export than one this client verified", () => {
  it("keeps the head of an export it verified, so the older one, read by a later process, is a truncation kept as evidence", async () => {
    const table = uniqueTable("export-trunc");
    const store = new MemoryHeadStore();
    const writer = await tableClient(honest.url, table);
    const k = await seatDebate(writer);
    const ops = { signer: k.ops, as: { owner: "ops" } } as const;
    const relaying = staleExports();
    const reader = async () =>
      TableClient.open({
        http: new HttpClient({ url: honest.url, fetch: relaying.fetch }),
        table,
        relayKey: writer.tracker.relayKey,
        store,
      });
    expect((await (await reader()).exportLedger(ops)).report.verdict).toBe("CLEAN");
    await turns(writer, k, 2);
    expect((await (await reader()).exportLedger(ops)).report.verdict).toBe("CLEAN");
    const newest = writer.tracker.held!;
    expect(store.load(newest.relay, table)).toEqual(newest);
    relaying.serveStale();
    const { report } = await (await reader()).exportLedger(ops);
    expect(report.verdict).toBe("REFUTED");
    expect(store.evidence(newest.relay, table)).toEqual([
      expect.objectContaining({ kind: "truncation", heads: [newest, expect.anything()] }),
    ]);
    expect(store.load(newest.relay, table)).toEqual(newest);
  });
});

/** `honestTurns` turns on the honest relay (held in `store`), and the same table afresh (same keys, another history) with `otherTurns` turns on the other. */
async function twoHistoriesOn(
  prefix: string,
  honestTurns: number,
  otherTurns: number,
): Promise<{ table: string; store: MemoryHeadStore; k: Cast; held: SignedHead }> {
  const table = uniqueTable(prefix);
  const store = new MemoryHeadStore();
  const client = await tableClient(honest.url, table, store);
  const k = await seatDebate(client);
  await turns(client, k, honestTurns);
  const elsewhere = await tableClient(other.url, table);
  await seatDebate(elsewhere);
  await turns(elsewhere, k, otherTurns);
  return { table, store, k, held: client.tracker.held! };
}
