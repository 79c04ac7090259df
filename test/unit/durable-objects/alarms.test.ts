/**
 * The watchdog's alarm run (durable-objects/table/writing/alarms.ts): every task due at the alarm's time
 * is judged against the state the previous stall left, so the stall that fills the ledger ends
 * the run instead of the next one throwing (and losing the push of those already committed).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runWatchdog } from "../../../durable-objects/table/writing/alarms.js";
import type { Writer } from "../../../durable-objects/table/writing/writes.js";
import type { Ledger } from "../../../durable-objects/table/storage/ledger.js";
import type { Notices } from "../../../durable-objects/table/storage/notices.js";
import { TableLimits } from "../../../durable-objects/table/limits.js";
import {
  cloneState,
  dueTasks,
  LIMITS,
  OPERATOR_LIMITS,
  watchdogDeadline,
  type Effect,
  type Entry,
  type TableState,
} from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { approve, CARD_EFFECT, gatewayTable, propose } from "../protocol/gateway-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** Effects on two owners' resources: the proposal opens two tasks. */
const TWO_OWNERS: Effect[] = [
  CARD_EFFECT,
  { owner: "tao", resource: "calendar", action: "book", args: { day: "friday" } },
];

/** A host over `state` whose ledger takes whatever admit appends. */
function hostOver(state: TableState, now: number): Writer {
  const ledger = {
    byNonce: () => undefined,
    append: (entries: Entry[]) => entries.map((e) => ({ ...e, leaf: "leaf", link: "link" })),
  };
  // Its append never runs the notifications' writer, so nothing is recorded.
  const notices = { record: () => null, armRetry: () => undefined };
  return {
    state,
    ledger: ledger as unknown as Ledger,
    now: () => now,
    answerers: () => new Set(),
    channels: async () => false,
    notices: notices as unknown as Notices,
    limits: new TableLimits(() => ({ ...OPERATOR_LIMITS })),
    burial: null,
  };
}

describe("the watchdog's alarm run", () => {
  describe("when the ledger has room for fewer stalls than tasks are due", () => {
    it("appends the stalls that fit and stops at the limit without throwing", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x", TWO_OWNERS);
      await approve(t, seq, "jenny");
      await approve(t, seq, "tao");
      const due = watchdogDeadline(t.state)!;
      // The same table one entry short of the limit after its ledger_full close: room for one stall.
      const full = {
        ...cloneState(t.state),
        seq: LIMITS.entries - 1,
        closed: { reason: "ledger_full" as const, seq: LIMITS.entries - 1 },
      };
      expect(dueTasks(full, due + 60_000)).toHaveLength(2);
      const host = hostOver(full, due + 60_000);
      const outcomes = runWatchdog(host);
      expect(outcomes.map((o) => o.primary.seq)).toEqual([LIMITS.entries]);
      expect(host.state?.seq).toBe(LIMITS.entries);
    });
  });
});
