/**
 * A client following a table that moved (docs/SPEC.md §8.3, §8.4), against two real relays with
 * different keys: the home holds the table's head at relay A; at relay B nothing is adopted until
 * B's ledger shows the owners handed the table over from A with A's held head on its chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  custodyRequest,
  custodyStatementAt,
  feedReplica,
  HttpClient,
  MemoryHeadStore,
  type Reader,
  type TableClient,
} from "../../../src/client/index.js";
import { signCustody, type SignedHead } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { sharedRelay, startRelay, type LocalRelay } from "../../support/local-relay.js";
import type { Cast } from "../../support/table-fixture.js";
import { refusal } from "../../support/refused.js";

let a: LocalRelay;
let b: LocalRelay;

beforeAll(async () => {
  [a, b] = await Promise.all([sharedRelay(), startRelay()]);
}, 60_000);
afterAll(() => Promise.all([a?.dispose(), b?.dispose()]));

const owner = (k: Cast): Reader => ({ signer: k.ops, as: { owner: "ops" } });

/** A debate at A, seated through `store`'s client, with one say. */
async function tableAtA(store: MemoryHeadStore): Promise<{ table: string; k: Cast; atA: TableClient }> {
  const table = uniqueTable("follow");
  const atA = await tableClient(a.url, table, store);
  const k = await seatDebate(atA);
  await atA.submit(k.botTao, "bot-tao", { kind: "say", body: "ship #459 first" });
  return { table, k, atA };
}

/** Exports the table from A as an owner, feeds it to B and hands it over with ops' and tao's signatures. */
async function moveToB(atA: TableClient, k: Cast): Promise<void> {
  const http = new HttpClient({ url: b.url });
  const { text } = await atA.exportLedger(owner(k));
  await feedReplica(http, text);
  const { statement } = await custodyStatementAt(http, atA.table, (await http.wellKnown()).relay_key, () => null);
  await http.takeCustody(
    atA.table,
    await custodyRequest(statement, k.ops, "ops", [await signCustody(k.tao, "tao", statement)]),
  );
}

describe("a table this home holds at relay A, met at relay B", () => {
  it("adopts nothing from B before following it, then holds B's head once the hand-over verifies", async () => {
    const store = new MemoryHeadStore();
    const { table, k, atA } = await tableAtA(store);
    await moveToB(atA, k);
    const atB = await tableClient(b.url, table, store);
    expect(atB.tracker.awaitingCustody).toBe(true);
    expect(atB.tracker.held).toBeNull();

    const projection = await atB.projection({ signer: k.botJenny, as: { seat: "bot-jenny" } });
    expect(projection.head.relay).toBe(atB.tracker.relayKey);
    expect(atB.tracker.awaitingCustody).toBe(false);
    expect(atB.tracker.held?.relay).toBe(atB.tracker.relayKey);
    await atB.submit(k.botJenny, "bot-jenny", { kind: "say", body: "no: #461 fixes data loss" });
    const { report } = await atB.exportLedger(owner(k));
    expect(report).toMatchObject({
      verdict: "CLEAN",
      coverage: { past_keys: [{ relay: atA.tracker.relayKey, from: 1 }] },
    });
  }, 60_000);

  describe("when B's table did not come from A", () => {
    it("refuses it (E_RELAY_KEY) and holds nothing from B: a relay cannot take a table over by serving it", async () => {
      const store = new MemoryHeadStore();
      const { table, k } = await tableAtA(store);
      const impostor = await tableClient(b.url, table);
      await seatDebate(impostor);
      const atB = await tableClient(b.url, table, store);
      const error = await refusal(() => atB.projection(owner(k)));
      expect(error.code).toBe("E_RELAY_KEY");
      expect(atB.tracker.held).toBeNull();
    }, 60_000);
  });

  describe("when A went on signing heads after it handed the table over", () => {
    it("keeps the evidence (E_FORK): A's newer head is a second chain that B's ledger contradicts", async () => {
      const store = new MemoryHeadStore();
      const { table, k, atA } = await tableAtA(store);
      await moveToB(atA, k);
      await atA.submit(k.botJenny, "bot-jenny", { kind: "say", body: "written at A after the move" });
      const atB = await tableClient(b.url, table, store);
      const error = await refusal(() => atB.projection(owner(k)));
      expect(error.code).toBe("E_FORK");
      const evidence = (error.details as { evidence: { heads: SignedHead[] } }).evidence;
      expect(evidence.heads.map((h) => h.relay)).toEqual([atA.tracker.relayKey, atB.tracker.relayKey]);
      expect(atB.tracker.held).toBeNull();
    }, 60_000);
  });

  describe("when an owner's signature is over another statement", () => {
    it("refuses to send the request (E_SCHEMA)", async () => {
      const store = new MemoryHeadStore();
      const { table, k, atA } = await tableAtA(store);
      const http = new HttpClient({ url: b.url });
      await feedReplica(http, (await atA.exportLedger(owner(k))).text);
      const { statement } = await custodyStatementAt(http, table, (await http.wellKnown()).relay_key, () => null);
      const other = await signCustody(k.tao, "tao", { ...statement, seq: statement.seq - 1 });
      expect((await refusal(() => custodyRequest(statement, k.ops, "ops", [other]))).code).toBe("E_SCHEMA");
    }, 60_000);

    it("refuses to sign over a mirror behind the head this home holds from its origin (E_FORK)", async () => {
      const store = new MemoryHeadStore();
      const { table, k, atA } = await tableAtA(store);
      const http = new HttpClient({ url: b.url });
      await feedReplica(http, (await atA.exportLedger(owner(k))).text);
      await atA.submit(k.botJenny, "bot-jenny", { kind: "say", body: "the mirror has not seen this" });
      const held = atA.tracker.held;
      const error = await refusal(async () =>
        custodyStatementAt(http, table, (await http.wellKnown()).relay_key, () => held),
      );
      expect(error.code).toBe("E_FORK");
    }, 60_000);
  });
});
