/**
 * Policy and verification throughput on an in-memory ledger running the relay's own admit +
 * chain code: appending turns to a broadcast table, folding a ledger, verifying an export.
 */
import { bench, describe } from "vitest";
import { exportText, fold, verifyExport, type TableConfig } from "../../src/protocol/index.js";
import { cast, MemoryLedger } from "../support/table-fixture.js";

const k = await cast();
const config: TableConfig = {
  id: "bench-table",
  topic: "benchmark",
  owners: { tao: { public_key: k.tao.publicKeyText }, jenny: { public_key: k.jenny.publicKeyText } },
  seats: { a: { owner: "tao" }, b: { owner: "jenny" } },
  topology: { kind: "broadcast", order: ["a", "b"] },
  termination: { any: [{ max_entries: 20_000 }] },
};

/** A table with `turns` say entries (each followed by its floor move). */
async function ledgerWith(turns: number): Promise<MemoryLedger> {
  const l = new MemoryLedger(k.relay);
  await l.create(k.tao, "tao", config);
  await l.join(k.tao, "tao", "a", k.botTao);
  await l.join(k.jenny, "jenny", "b", k.botJenny);
  for (let i = 0; i < turns; i++) {
    const [seat, key] = i % 2 === 0 ? (["a", k.botTao] as const) : (["b", k.botJenny] as const);
    await l.submit(key, { seat, kind: "say", body: `turn ${i}: ${"lorem ipsum ".repeat(20)}` });
  }
  return l;
}

const small = await ledgerWith(100);
const big = await ledgerWith(1000);
const bigExport = exportText({ table: config.id, relay: k.relay.publicKeyText }, big.entries, [await big.head()]);

describe("admit + chain, per turn (say + floor move), on a 1000-turn table", () => {
  bench("append one turn", async () => {
    const [seat, key] = big.state!.floor.holder === "a" ? (["a", k.botTao] as const) : (["b", k.botJenny] as const);
    await big.submit(key, { seat, kind: "say", body: "one more turn" });
  });
});

describe("fold (rebuild state after eviction)", () => {
  bench("fold 203 entries", () => {
    fold(small.entries);
  });
  bench("fold 2003 entries", () => {
    fold(big.entries.slice(0, 2003));
  });
});

describe("verify an export (chain, signatures, heads, full policy replay)", () => {
  bench("verify 2003 entries", async () => {
    await verifyExport(bigExport, { relayKey: k.relay.publicKeyText });
  }, { iterations: 5, time: 0 });
});
