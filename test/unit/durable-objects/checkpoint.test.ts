/**
 * Waking from a checkpoint (durable-objects/table/storage/checkpoint.ts): with a usable checkpoint only
 * the entries after it are read and folded onto it, and the result is the fold of the whole
 * ledger; a checkpoint of another policy version, of another row, or not JSON is not used.
 */
import { describe, expect, it } from "vitest";
import { checkpointText, restore, wakeState } from "../../../durable-objects/table/storage/checkpoint.js";
import type { StoredCheckpoint } from "../../../durable-objects/table/storage/ledger.js";
import { canonicalize, fold, STATE_VERSION, type Entry } from "../../../src/protocol/index.js";
import { cast, debateConfig, MemoryLedger } from "../../support/table-fixture.js";

async function ledger(turns: number): Promise<MemoryLedger> {
  const k = await cast();
  const l = new MemoryLedger(k.relay);
  await l.create(
    k.ops,
    "ops",
    debateConfig(k, { topology: { kind: "open" }, termination: { any: [{ max_entries: 1000 }] } }),
  );
  await l.join(k.tao, "tao", "bot-tao", k.botTao);
  for (let i = 0; i < turns; i += 1) await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: `turn ${i}` });
  return l;
}

/** A ledger view over `entries` with a checkpoint at `at`, recording which reads it was asked for. */
function view(entries: Entry[], checkpoint: StoredCheckpoint | null) {
  const reads: string[] = [];
  return {
    reads,
    ledger: {
      seq: entries.length,
      latestCheckpoint: () => checkpoint,
      range: (from: number, to: number) => (reads.push(`range ${from}-${to}`), entries.slice(from - 1, to)),
      all: () => (reads.push("all"), entries),
    },
  };
}

describe("waking from a checkpoint", () => {
  it("reads only the entries after it and reaches the fold of the whole ledger", async () => {
    const l = await ledger(20);
    const at = 12;
    const stored = { seq: at, text: checkpointText(fold(l.entries.slice(0, at))) };
    const { ledger: v, reads } = view(l.entries, stored);
    expect(canonicalize(wakeState(v))).toBe(canonicalize(fold(l.entries)));
    expect(reads).toEqual([`range ${at + 1}-${l.entries.length}`]);
  });

  describe("when the checkpoint cannot be used", () => {
    it.each([
      [
        "of another policy version",
        (text: string) => JSON.stringify({ ...JSON.parse(text), version: STATE_VERSION + 1 }),
      ],
      [
        "of another row",
        (text: string) => JSON.stringify({ version: STATE_VERSION, state: { ...JSON.parse(text).state, seq: 11 } }),
      ],
      ["not JSON", () => '{"version":'],
    ])("folds the whole ledger instead of using one %s", async (_, spoil) => {
      const l = await ledger(20);
      const stored = { seq: 12, text: spoil(checkpointText(fold(l.entries.slice(0, 12)))) };
      expect(restore(stored)).toBeNull();
      const { ledger: v, reads } = view(l.entries, stored);
      expect(canonicalize(wakeState(v))).toBe(canonicalize(fold(l.entries)));
      expect(reads).toEqual(["all"]);
    });
  });
});
