/**
 * Votes and quorum (docs/SPEC.md §5.8): votes answer open proposals without the floor; yes votes
 * reaching the quorum cause a system/decision entry and close the table.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  LIMITS,
  notificationsFor,
  projectEntry,
  projectionPrefix,
  validateConfig,
  verifyExport,
  type Entry,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, refusal, TestTable } from "./fixtures.js";
import { snapshot } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** A broadcast of a, b, c (+ human h) that closes on a quorum of `quorum`. */
const voting = (quorum: unknown, overrides: Partial<TableConfig> = {}, join = ["a", "b", "c", "h"]) =>
  TestTable.open(
    broadcastConfig(k, { termination: { any: [{ quorum } as never, "rounds_exhausted"] }, ...overrides }),
    join,
    k,
  );

/** `seat`'s proposal; returns its seq. */
async function propose(t: TestTable, seat: string, body = "ship #459 first"): Promise<number> {
  const [entry] = await t.write(seat, { kind: "proposal", body, refs: ["https://example.test/459"] });
  return entry!.seq;
}

const vote = (t: TestTable, seat: string, re: number, choice: "yes" | "no" | "abstain" = "yes") =>
  t.write(seat, { kind: "vote", re, choice });

describe("voting on a proposal", () => {
  it("needs no floor and moves no floor", async () => {
    const t = await voting({ n: 3, of: "seats" });
    const p = await propose(t, "a");
    expect(t.holder).toBe("b");
    const added = await vote(t, "c", p);
    expect(added.map(kindOf)).toEqual(["vote"]);
    expect(t.holder).toBe("b");
  });

  it("does not count towards the bot-only run", async () => {
    const t = await voting({ n: 4, of: "seats" }, { floor: { max_bot_depth: 2 } });
    const p = await propose(t, "a");
    await vote(t, "b", p);
    await vote(t, "c", p);
    expect(t.state.floor.bot_run).toBe(1);
  });

  it("records the decision by quorum as a system decision and closes the table", async () => {
    const t = await voting({ n: 2, of: "seats" });
    const p = await propose(t, "a");
    await vote(t, "b", p, "no");
    await vote(t, "c", p);
    const added = await vote(t, "a", p);
    expect(added.map(kindOf)).toEqual(["vote", "decision", "table_closed"]);
    expect(added[1]).toMatchObject({
      seat: null,
      author: null,
      data: {
        proposal: p,
        seat: "a",
        body: "ship #459 first",
        refs: ["https://example.test/459"],
        of: "seats",
        yes: 2,
        no: 1,
        abstain: 0,
        electorate: 4,
        needed: 2,
      },
    });
    expect(added[2]).toMatchObject({ data: { reason: "quorum" } });
    expect(t.state.decisions).toEqual([
      { seq: added[1]!.seq, seat: "a", body: "ship #459 first", refs: ["https://example.test/459"], by: "quorum" },
    ]);
  });

  it('closes with reason decision when "decision" is listed before the quorum', async () => {
    const t = await TestTable.open(
      broadcastConfig(k, { termination: { any: ["decision", { quorum: { n: 1, of: "seats" } }, "rounds_exhausted"] } }),
      ["a", "b", "c"],
      k,
    );
    const p = await propose(t, "a");
    expect((await vote(t, "b", p)).at(-1)).toMatchObject({ data: { reason: "decision" } });
  });

  it("counts a fraction of the present seats, rounding the needed votes up", async () => {
    const t = await voting({ fraction: { num: 2, den: 3 }, of: "seats" });
    const p = await propose(t, "a");
    await vote(t, "a", p);
    expect((await vote(t, "b", p)).map(kindOf)).toEqual(["vote"]);
    const added = await vote(t, "h", p);
    expect(added[1]).toMatchObject({ data: { yes: 3, electorate: 4, needed: 3 } });
  });

  it("counts owners once each when the quorum is of owners", async () => {
    // a and h belong to tao, b to jenny, c to ops: three owners.
    const t = await voting({ n: 2, of: "owners" });
    const p = await propose(t, "a");
    await vote(t, "a", p);
    const added = await vote(t, "c", p);
    expect(added[1]).toMatchObject({ data: { of: "owners", yes: 2, electorate: 3, needed: 2 } });
  });

  it("lets an owner vote again through another seat once the seat it voted through left (its vote no longer counts)", async () => {
    // a and h belong to tao, b to jenny, c to ops: three owners, all needed.
    const t = await voting({ n: 3, of: "owners" });
    const p = await propose(t, "a");
    await vote(t, "a", p);
    await vote(t, "b", p);
    await t.write("c", { kind: "request", request_id: "bye-a", type: "shutdown", to: ["a"], body: "thanks, a" });
    await t.write("a", { kind: "response", request_id: "bye-a", type: "shutdown", verdict: "approve" });
    expect(kindOf((await vote(t, "h", p))[0]!)).toBe("vote");
    const added = await vote(t, "c", p);
    expect(added[1]).toMatchObject({ subkind: "decision", data: { of: "owners", yes: 3, electorate: 3, needed: 3 } });
  });

  it("records votes without deciding anything when the table has no quorum rule", async () => {
    const t = await TestTable.open(broadcastConfig(k), ["a", "b", "c"], k);
    const p = await propose(t, "a");
    for (const seat of ["a", "b", "c"]) expect((await vote(t, seat, p)).map(kindOf)).toEqual(["vote"]);
    expect(t.state.decisions).toEqual([]);
  });

  it("tells every owner of the decision by quorum, like any decision", async () => {
    const t = await voting({ n: 1, of: "seats" });
    const p = await propose(t, "a");
    const added = await vote(t, "b", p);
    const events = notificationsFor(t.state, added).get(k.jenny.publicKeyText)!;
    expect(events.map((e) => e.type)).toEqual(["decision_reached", "table_closed"]);
    expect(events[0]).toMatchObject({ seq: added[1]!.seq, seat: "a", body: "ship #459 first" });
  });

  it("verifies CLEAN offline: the replay reproduces the decision by quorum", async () => {
    const t = await voting({ n: 2, of: "seats" });
    const p = await propose(t, "a");
    await vote(t, "b", p);
    await vote(t, "c", p);
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
  });

  it("changes the projection prefix when the decision lands, not on proposals or votes", async () => {
    const t = await voting({ n: 3, of: "seats" });
    const before = JSON.stringify(projectionPrefix(t.state));
    const p = await propose(t, "a");
    await vote(t, "b", p);
    await vote(t, "c", p);
    expect(JSON.stringify(projectionPrefix(t.state))).toBe(before);
    await vote(t, "h", p);
    expect(projectionPrefix(t.state).decisions).toEqual([
      expect.objectContaining({ seat: "a", body: "ship #459 first", by: "quorum" }),
    ]);
  });

  it("projects a vote with its choice and a decision by quorum with its body", async () => {
    const t = await voting({ n: 1, of: "seats" });
    const p = await propose(t, "a");
    const [v, d] = (await vote(t, "b", p, "yes")) as Entry[];
    expect(projectEntry(v!)).toEqual({ seq: v!.seq, kind: "vote", seat: "b", re: p, choice: "yes" });
    expect(projectEntry(d!)).toMatchObject({
      kind: "system",
      subkind: "decision",
      body: "ship #459 first",
      data: { proposal: p, seat: "a" },
    });
    expect(projectEntry(d!).data).not.toHaveProperty("body");
  });

  describe("when a vote is not allowed", () => {
    it("refuses a vote on an entry that is not a proposal with E_NOT_ALLOWED", async () => {
      const t = await voting({ n: 2, of: "seats" });
      const [say] = await t.say("a");
      expect((await refusal(() => vote(t, "b", say!.seq))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a vote on a future entry with E_NOT_ALLOWED", async () => {
      const t = await voting({ n: 2, of: "seats" });
      expect((await refusal(() => vote(t, "b", t.state.seq + 1))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a second vote by the same seat with E_NOT_ALLOWED", async () => {
      const t = await voting({ n: 3, of: "seats" });
      const p = await propose(t, "a");
      await vote(t, "b", p, "no");
      expect((await refusal(() => vote(t, "b", p, "yes"))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a second seat of the same owner when owners vote with E_NOT_ALLOWED", async () => {
      const t = await voting({ n: 3, of: "owners" });
      const p = await propose(t, "a");
      await vote(t, "a", p);
      expect((await refusal(() => vote(t, "h", p))).code).toBe("E_NOT_ALLOWED");
    });

    it(`refuses a vote on a proposal older than the ${LIMITS.open_proposals} newest with E_NOT_ALLOWED`, async () => {
      const t = await TestTable.open(
        broadcastConfig(k, {
          topology: { kind: "broadcast", order: ["a", "b", "c"] },
          termination: { any: [{ max_entries: 100 }] },
        }),
        ["a", "b", "c"],
        k,
      );
      const first = await propose(t, "a");
      for (let i = 0; i < LIMITS.open_proposals; i++) await propose(t, t.holder!, `option ${i}`);
      expect((await refusal(() => vote(t, "a", first))).code).toBe("E_NOT_ALLOWED");
    });

    it("refuses a vote after the decision closed the table with E_CLOSED", async () => {
      const t = await voting({ n: 1, of: "seats" });
      const p = await propose(t, "a");
      await vote(t, "b", p);
      expect((await refusal(() => vote(t, "c", p))).code).toBe("E_CLOSED");
    });

    it("leaves the ledger and state untouched", async () => {
      const t = await voting({ n: 3, of: "seats" });
      const p = await propose(t, "a");
      await vote(t, "b", p);
      const before = snapshot(t);
      await refusal(() => vote(t, "b", p));
      await refusal(() => vote(t, "c", p - 1));
      expect(snapshot(t)).toBe(before);
    });
  });

  describe("quorum config", () => {
    it("refuses a fraction above 1 with E_SCHEMA", async () => {
      const config = broadcastConfig(k, {
        termination: { any: [{ quorum: { fraction: { num: 4, den: 3 }, of: "seats" } }, "rounds_exhausted"] },
      });
      expect((await refusal(() => validateConfig(config))).code).toBe("E_SCHEMA");
    });

    it("refuses a non-integer fraction written as a number with E_SCHEMA", async () => {
      const config = broadcastConfig(k, {
        termination: { any: [{ quorum: { fraction: 0.5, of: "seats" } } as never, "rounds_exhausted"] },
      });
      expect((await refusal(() => validateConfig(config))).code).toBe("E_SCHEMA");
    });

    it("counts as a condition that can fire on an open table", () => {
      const room = {
        ...broadcastConfig(k),
        topology: { kind: "open" as const },
        termination: { any: [{ quorum: { n: 2, of: "owners" as const } }] },
      };
      expect(() => validateConfig(room)).not.toThrow();
    });
  });
});
