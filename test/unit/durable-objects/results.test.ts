/**
 * Sub-table result delivery (durable-objects/table/writing/results.ts): each attempt is recorded and the
 * table's alarm re-armed for the retry before it starts, a final answer (recorded or refused) is
 * stored and drops the retry deadline, a transient answer or a thrown call keeps it, and a delivery
 * that ended is never attempted again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  deliverResult,
  deliveryAt,
  deliveryOf,
  RESULT_RETRY_MS,
  type ParentResults,
  type Deliverer,
} from "../../../durable-objects/table/writing/results.js";
import type { Result } from "../../../durable-objects/result.js";
import { verifyStatement, type SubtableResultRequest, type TableConfig } from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, TestTable } from "../protocol/fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** Durable Object storage reduced to what delivery uses: the meta table and one alarm. */
function fakeStorage() {
  const meta = new Map<string, string>();
  const box = { alarm: null as number | null };
  const storage = {
    sql: {
      exec(query: string, ...args: unknown[]) {
        if (query.startsWith("SELECT")) {
          const value = meta.get(String(args[0]));
          return { toArray: () => (value === undefined ? [] : [{ value }]) };
        }
        meta.set(String(args[0]), String(args[1]));
        return { toArray: () => [] };
      },
    },
    setAlarm: async (at: number) => void (box.alarm = at),
    deleteAlarm: async () => void (box.alarm = null),
  };
  return { storage: storage as unknown as DurableObjectStorage, box };
}

/** A closed child of a fresh root, and a delivery host around it whose parent answers with `answer`. */
async function closedChild(answer: () => Promise<Result<{ seq: number }>>) {
  const root = await TestTable.open(
    broadcastConfig(k, {
      id: "t-root",
      topology: { kind: "broadcast", order: ["a", "b", "c"] },
      termination: { any: [{ max_entries: 50 }] },
    }),
    ["a", "b", "c"],
    k,
  );
  const config: TableConfig = {
    ...broadcastConfig(k, {
      id: "t-child",
      parent: "t-root",
      topology: { kind: "broadcast", order: ["a", "b"], rounds: 1 },
    }),
    seats: { a: { owner: "tao" }, b: { owner: "jenny" } },
  };
  const child = await root.openChild("a", config);
  await child.say("a");
  await child.say("b");
  const { storage, box } = fakeStorage();
  const sent: SubtableResultRequest[] = [];
  const parent: ParentResults = {
    reportSubtable: (body) => {
      sent.push(body as SubtableResultRequest);
      return answer();
    },
  };
  // The table arms its one alarm at the earliest job deadline; here delivery is the only job.
  const host: Deliverer = {
    state: child.state,
    ledger: { linkAt: (seq) => child.l.entries[seq - 1]?.link },
    storage,
    now: () => 1_000,
    signer: async () => k.relay,
    table: () => parent,
    reschedule: async () => void (box.alarm = deliveryAt(storage, host.state, 1_000)),
  };
  return { host, storage, box, sent };
}

describe("delivering a closed sub-table's result", () => {
  it("sends one relay-signed statement, records the parent's seq and disarms the retry", async () => {
    const { host, storage, box, sent } = await closedChild(async () => ({ ok: true, value: { seq: 42 } }));
    await deliverResult(host);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.statement).toMatchObject({
      parent: "t-root",
      table: "t-child",
      reason: "rounds_exhausted",
      decision: null,
    });
    expect(await verifyStatement(k.relay.publicKeyText, "result", sent[0]!.statement, sent[0]!.sig)).toBe(true);
    expect(deliveryOf(storage)).toEqual({ delivered: 42 });
    expect(box.alarm).toBeNull();
    await deliverResult(host);
    expect(sent).toHaveLength(1);
  });

  it("records a final refusal and does not retry it", async () => {
    const { host, storage, box } = await closedChild(async () => ({
      ok: false,
      error: { code: "E_CLOSED", message: "closed" },
    }));
    await deliverResult(host);
    expect(deliveryOf(storage)).toEqual({ refused: "E_CLOSED" });
    expect(box.alarm).toBeNull();
  });

  it.each(["E_UNAVAILABLE", "E_INTERNAL", "E_RATE_LIMITED"] as const)(
    "keeps the retry armed after a transient %s and sends the same bytes again",
    async (code) => {
      let calls = 0;
      const { host, storage, box, sent } = await closedChild(async () =>
        ++calls === 1 ? { ok: false, error: { code, message: "later" } } : { ok: true, value: { seq: 7 } },
      );
      await deliverResult(host);
      expect(deliveryOf(storage)).toBeUndefined();
      expect(box.alarm).toBe(1_000 + RESULT_RETRY_MS);
      await deliverResult(host);
      expect(sent[1]).toEqual(sent[0]);
      expect(deliveryOf(storage)).toEqual({ delivered: 7 });
      expect(box.alarm).toBeNull();
    },
  );

  it("keeps the retry armed when the call to the parent throws", async () => {
    const { host, storage, box } = await closedChild(async () => {
      throw new Error("network");
    });
    await deliverResult(host);
    expect(deliveryOf(storage)).toBeUndefined();
    expect(box.alarm).toBe(1_000 + RESULT_RETRY_MS);
  });

  it("does nothing for an open table or one without a parent", async () => {
    const { host, box, sent } = await closedChild(async () => ({ ok: true, value: { seq: 1 } }));
    await deliverResult({ ...host, state: { ...host.state!, closed: null } });
    await deliverResult({ ...host, state: { ...host.state!, config: { ...host.state!.config, parent: undefined } } });
    expect(deliveryAt(host.storage, { ...host.state!, closed: null }, 1_000)).toBeNull();
    expect(sent).toEqual([]);
    expect(box.alarm).toBeNull();
  });
});
