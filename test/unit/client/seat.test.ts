/** runSeat against a real relay: handlers called on their floor, writes submitted, races survived, the loop ending with the table. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  runSeat,
  type SeatEvent,
  type SeatHandler,
  type SeatTurn,
  type TableClient,
} from "../../../src/client/index.js";
import type { Signer } from "../../../src/protocol/index.js";
import { seatDebate, tableClient, uniqueTable } from "../../support/client-table.js";
import { type LocalRelay, sharedRelay } from "../../support/local-relay.js";
import { cast } from "../../support/table-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

function seatRunner(client: TableClient, seat: string, signer: Signer, handler: SeatHandler) {
  const turns: SeatTurn[] = [];
  const events: SeatEvent[] = [];
  const run = runSeat(
    async (turn) => {
      turns.push(turn);
      return handler(turn);
    },
    { client, seat, signer, onEvent: (e) => events.push(e), socket: { backoff: { initialMs: 20, maxMs: 200 } } },
  );
  return { run, turns, events };
}

describe("runSeat", () => {
  it("calls each bot only when it holds the floor and ends when the judge decides", async () => {
    const client = await tableClient(relay.url, uniqueTable("seat-debate"));
    const k = await seatDebate(client);
    const tao = seatRunner(client, "bot-tao", k.botTao, (t) => ({
      kind: "say",
      body: `pro, round ${t.projection.floor.round}`,
    }));
    const jenny = seatRunner(client, "bot-jenny", k.botJenny, (t) => ({
      kind: "say",
      body: `con, round ${t.projection.floor.round}`,
    }));
    const judge = seatRunner(client, "judge", k.judge, () => ({ kind: "decision", body: "ship #459 first" }));
    const runs = await Promise.all([tao.run, jenny.run, judge.run]);
    expect(runs.map((r) => [r.reason, r.closed])).toEqual([
      ["closed", "decision"],
      ["closed", "decision"],
      ["closed", "decision"],
    ]);
    expect([tao.turns.length, jenny.turns.length, judge.turns.length]).toEqual([2, 2, 1]);
    expect(
      [...tao.turns, ...jenny.turns, ...judge.turns].every((t) => t.reason === "floor" && t.projection.floor.yours),
    ).toBe(true);
    expect(judge.turns[0]!.projection.tail.filter((e) => e.kind === "say").map((e) => e.body)).toEqual([
      "pro, round 1",
      "con, round 1",
      "pro, round 2",
      "con, round 2",
    ]);
    const history = await client.history({ signer: k.ops, as: { owner: "ops" } });
    expect(history.items.filter((e) => "kind" in e && e.kind === "decision")).toHaveLength(1);
  });

  describe("when a write loses the race for the floor", () => {
    it("reports the race and keeps going", async () => {
      const client = await tableClient(relay.url, uniqueTable("seat-race"));
      const k = await seatDebate(client, {
        topology: { kind: "debate", pro: "bot-tao", con: "bot-jenny", judge: "judge", rounds: 1 },
      });
      let first = true;
      const tao = seatRunner(client, "bot-tao", k.botTao, async () => {
        if (!first) return { kind: "say", body: "never reached" };
        first = false;
        // Another process of the same bot speaks first; this turn's answer then comes too late.
        await client.submit(k.botTao, "bot-tao", { kind: "say", body: "from elsewhere" });
        return { kind: "say", body: "too late" };
      });
      const jenny = seatRunner(client, "bot-jenny", k.botJenny, () => ({ kind: "pass" }));
      const judge = seatRunner(client, "judge", k.judge, () => ({ kind: "decision", body: "done" }));
      await Promise.all([tao.run, jenny.run, judge.run]);
      expect(tao.events).toContainEqual(expect.objectContaining({ type: "race", code: "E_NOT_FLOOR" }));
      const says = (await client.history({ signer: k.ops, as: { owner: "ops" } })).items.flatMap((e) =>
        "kind" in e && e.kind === "say" ? [e.body] : [],
      );
      expect(says).toEqual(["from elsewhere"]);
    });
  });

  it("on an open table, calls each bot at start and whenever another seat wrote", async () => {
    const k = await cast();
    const client = await tableClient(relay.url, uniqueTable("seat-open"));
    await client.create(k.tao, "tao", {
      id: client.table,
      topic: "a room",
      owners: { tao: { public_key: k.tao.publicKeyText }, jenny: { public_key: k.jenny.publicKeyText } },
      topology: { kind: "open" },
      termination: { any: [{ max_entries: 4 }] },
    });
    const expires = Date.now() + 60_000;
    await client.join(k.tao, { seat: "a", owner: "tao", seatKey: k.botTao.publicKeyText, card: {}, expires });
    await client.join(k.jenny, { seat: "b", owner: "jenny", seatKey: k.botJenny.publicKeyText, card: {}, expires });
    const a = seatRunner(client, "a", k.botTao, () => ({ kind: "say", body: "from a" }));
    const b = seatRunner(client, "b", k.botJenny, () => ({ kind: "say", body: "from b" }));
    const runs = await Promise.all([a.run, b.run]);
    expect(runs.map((r) => r.closed)).toEqual(["max_entries", "max_entries"]);
    expect([...a.turns, ...b.turns].every((t) => t.reason === "open")).toBe(true);
    for (const turn of [...a.turns.slice(1)]) expect(turn.projection.tail.some((e) => e.seat === "b")).toBe(true);
  });

  it("stops when its signal aborts", async () => {
    const client = await tableClient(relay.url, uniqueTable("seat-abort"));
    const k = await seatDebate(client);
    const controller = new AbortController();
    const run = runSeat(() => null, {
      client,
      seat: "bot-jenny",
      signer: k.botJenny,
      signal: controller.signal,
      onEvent: (e) => e.type === "status" && e.status === "open" && controller.abort(),
    });
    expect(await run).toMatchObject({ reason: "aborted", closed: null });
  });
});
