/**
 * Termination (docs/SPEC.md §5.4): decision (and who may decide), rounds_exhausted,
 * budget_tokens, max_entries; after the close every write is E_CLOSED.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  admit,
  canonicalize,
  joinDraft,
  signJoin,
  validateConfig,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, keyOf, nonceOf, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, kindOf, moves, openConfig, refusal, TestTable } from "./fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const debate = (overrides: Partial<TableConfig> = {}) => TestTable.open(debateConfig(k, overrides), undefined, k);
const broadcast = (overrides: Partial<TableConfig> = {}, join: string[] = ["a", "b", "c"]) =>
  TestTable.open(broadcastConfig(k, overrides), join, k);
const room = (overrides: Partial<TableConfig> = {}) => TestTable.open(openConfig(k, overrides), undefined, k);

/** Plays the debate's four turns so the judge holds the floor. */
async function toJudge(t: TestTable): Promise<void> {
  for (const seat of ["bot-tao", "bot-jenny", "bot-tao", "bot-jenny"]) await t.say(seat);
  expect(t.holder).toBe("judge");
}

describe("termination by decision", () => {
  it("closes the table when the judge decides", async () => {
    const t = await debate();
    await toJudge(t);
    const added = await t.write("judge", { kind: "decision", body: "ship #459 first" });
    expect(added.map(kindOf)).toEqual(["decision", "table_closed"]);
    expect(moves(added)).toEqual([{ table_closed: { reason: "decision" } }]);
    expect(t.state.closed).toEqual({ reason: "decision", seq: added[1]!.seq });
    expect(t.state.decisions).toEqual([{ seq: added[0]!.seq, seat: "judge", body: "ship #459 first" }]);
    expect(t.holder).toBeNull();
  });

  it("lets the seats named in decision_by decide instead of the judge", async () => {
    const t = await debate({ floor: { decision_by: ["bot-tao"] } });
    expect((await t.write("bot-tao", { kind: "decision", body: "pro concedes nothing" })).map(kindOf)).toEqual([
      "decision",
      "table_closed",
    ]);
  });

  it("lets any seat with the floor decide when decision_by is any", async () => {
    const t = await debate({ floor: { decision_by: "any" } });
    expect((await t.write("bot-tao", { kind: "decision", body: "settled" })).map(kindOf)).toEqual([
      "decision",
      "table_closed",
    ]);
  });

  it("records a decision without closing when decision is not a termination condition", async () => {
    const t = await broadcast({ termination: { any: [{ max_entries: 10 }, "rounds_exhausted"] } });
    const added = await t.write("a", { kind: "decision", body: "interim: #459 first" });
    expect(moves(added)).toEqual([{ floor: { holder: "b", round: 1, reason: "turn" } }]);
    expect(t.state.closed).toBeNull();
    expect(t.state.decisions).toHaveLength(1);
  });

  describe("when the seat may not decide", () => {
    it("refuses a decision from a debater holding the floor with E_FORBIDDEN", async () => {
      const t = await debate();
      const error = await refusal(() => t.write("bot-tao", { kind: "decision", body: "pro wins" }));
      expect(error.code).toBe("E_FORBIDDEN");
      expect(error.details).toEqual({ decision_by: ["judge"] });
    });

    it("refuses a decision from a seat not named in decision_by with E_FORBIDDEN", async () => {
      const t = await debate({ floor: { decision_by: ["bot-jenny"] } });
      expect((await refusal(() => t.write("bot-tao", { kind: "decision", body: "x" }))).code).toBe("E_FORBIDDEN");
    });
  });
});

describe("termination by rounds_exhausted", () => {
  it("closes a broadcast after its last round", async () => {
    const t = await broadcast({ topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 1 } });
    await t.say("a");
    await t.say("b");
    const added = await t.say("c");
    expect(moves(added)).toEqual([{ table_closed: { reason: "rounds_exhausted" } }]);
  });

  it("closes a debate after the judge's turn", async () => {
    const t = await debate();
    await toJudge(t);
    expect(moves(await t.say("judge", "no decision today"))).toEqual([
      { table_closed: { reason: "rounds_exhausted" } },
    ]);
  });

  it("closes a debate after the judge passes", async () => {
    const t = await debate();
    await toJudge(t);
    expect(moves(await t.write("judge", { kind: "pass" }))).toEqual([{ table_closed: { reason: "rounds_exhausted" } }]);
  });

  describe("when rounds remain", () => {
    it("keeps a broadcast open through every turn before its last round ends", async () => {
      const t = await broadcast({ topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 2 } });
      for (const seat of ["a", "b", "c", "a", "b"]) {
        expect((await t.say(seat)).map(kindOf)).not.toContain("table_closed");
        expect(t.state.closed).toBeNull();
      }
      expect(moves(await t.say("c"))).toContainEqual({ table_closed: { reason: "rounds_exhausted" } });
    });

    it("keeps a debate open until the judge's turn is taken", async () => {
      const t = await debate();
      await toJudge(t);
      expect(t.state.closed).toBeNull();
      expect((await refusal(() => t.say("bot-tao", "one more"))).code).toBe("E_NOT_FLOOR");
      expect(t.state.closed).toBeNull();
    });
  });

  it("refuses a config whose rounds end but that does not list rounds_exhausted (the table would hang)", () => {
    const config = broadcastConfig(k, {
      topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 1 },
      termination: { any: [{ max_entries: 10 }] },
    });
    expect(() => validateConfig(config)).toThrow(
      expect.objectContaining({ code: "E_SCHEMA", message: expect.stringContaining("termination.any") }),
    );
  });
});

describe("termination by budget_tokens", () => {
  it("closes when the reported token budgets reach the limit", async () => {
    const t = await room({ termination: { any: [{ budget_tokens: 100 }] } });
    expect(moves(await t.write("x", { kind: "say", body: "a", budget: { tokens: 99 } }))).toEqual([]);
    expect(moves(await t.write("y", { kind: "say", body: "b", budget: { tokens: 1 } }))).toEqual([
      { table_closed: { reason: "budget_tokens" } },
    ]);
    expect(t.state.tokens).toBe(100);
  });

  it("counts ceil(chars / 4) tokens for an entry that reports no budget", async () => {
    const t = await room({ termination: { any: [{ budget_tokens: 10 }] } });
    await t.say("x", "x".repeat(36));
    expect(t.state.tokens).toBe(9);
    expect(t.state.closed).toBeNull();
    expect(moves(await t.say("y", "y"))).toEqual([{ table_closed: { reason: "budget_tokens" } }]);
    expect(t.state.tokens).toBe(10);
  });

  it("prefers a reported budget over the length estimate", async () => {
    const t = await room({ termination: { any: [{ budget_tokens: 10 }] } });
    await t.write("x", { kind: "say", body: "x".repeat(400), budget: { tokens: 0 } });
    expect(t.state.tokens).toBe(0);
  });

  it("counts a truncated entry by its original length", async () => {
    const t = await room({ floor: { max_chars: 8 }, termination: { any: [{ budget_tokens: 10 }] } });
    const added = await t.say("x", "x".repeat(40));
    expect(added[0]).toMatchObject({ truncated: { chars: 40 } });
    expect(moves(added)).toEqual([{ table_closed: { reason: "budget_tokens" } }]);
  });
});

describe("termination by max_entries", () => {
  it("closes after max_entries authored entries, not counting system entries", async () => {
    const t = await room({ termination: { any: [{ max_entries: 3 }] } });
    expect(t.l.entries).toHaveLength(4);
    await t.say("x");
    await t.say("y");
    expect(t.state.closed).toBeNull();
    expect(moves(await t.write("h", { kind: "pass" }))).toEqual([{ table_closed: { reason: "max_entries" } }]);
    expect(t.state.authored).toBe(3);
  });

  it("counts raised hands as authored entries", async () => {
    const t = await broadcast({ termination: { any: [{ max_entries: 2 }, "rounds_exhausted"] } });
    await t.write("c", { kind: "raise_hand" });
    expect(moves(await t.say("a"))).toEqual([{ table_closed: { reason: "max_entries" } }]);
  });
});

describe("several conditions", () => {
  it("closes with the first listed condition that fires", async () => {
    const t = await debate({
      termination: { any: [{ budget_tokens: 1 }, "decision", "rounds_exhausted"] },
      floor: { decision_by: "any" },
    });
    expect(moves(await t.write("bot-tao", { kind: "decision", body: "both fire" }))).toEqual([
      { table_closed: { reason: "budget_tokens" } },
    ]);
  });
});

describe("after the table closed", () => {
  async function closed(): Promise<TestTable> {
    const t = await debate({ floor: { decision_by: "any" } });
    await t.write("bot-tao", { kind: "decision", body: "done" });
    expect(t.state.closed).not.toBeNull();
    return t;
  }

  describe("when anything is written", () => {
    it.each([
      ["say", { kind: "say", body: "one more thing" }],
      ["pass", { kind: "pass" }],
      ["raise_hand", { kind: "raise_hand" }],
      ["proposal", { kind: "proposal", body: "reopen?" }],
      ["decision", { kind: "decision", body: "overrule" }],
    ] as const)("refuses a %s with E_CLOSED and leaves the ledger as it was", async (_kind, input) => {
      const t = await closed();
      const [count, state] = [t.l.entries.length, canonicalize(t.state)];
      for (const seat of ["bot-tao", "bot-jenny", "judge"]) {
        expect((await refusal(() => t.write(seat, input))).code).toBe("E_CLOSED");
      }
      expect(t.l.entries).toHaveLength(count);
      expect(canonicalize(t.state)).toBe(state);
    });

    it("refuses a join with E_CLOSED", async () => {
      const { seats: _seats, ...config } = openConfig(k, { termination: { any: [{ max_entries: 1 }] } });
      const t = await TestTable.open(config, [], k);
      await t.join("x");
      await t.say("x");
      expect(t.state.closed).toMatchObject({ reason: "max_entries" });
      const request = await signJoin(
        k.jenny,
        {
          table: "t-room",
          seat: "late",
          owner: "jenny",
          seat_key: (await keyOf("seat:late")).publicKeyText,
          human: false,
          nonce: nonceOf("late"),
          expires: t.l.now + 1000,
        },
        {},
      );
      expect((await refusal(() => admit(t.state, joinDraft(t.state, request), t.l.now))).code).toBe("E_CLOSED");
    });
  });
});
