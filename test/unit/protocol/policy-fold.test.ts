/**
 * The fold (docs/SPEC.md §3): folding the ledger reproduces exactly the state admit returned after
 * every write, admit never mutates the state it judges, and a verifier replaying each ledger
 * accepts it (CLEAN).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalize, fold, verifyExport, type TableConfig } from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { broadcastConfig, openConfig, refusal, TestTable } from "./fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

type Step = (t: TestTable) => Promise<unknown>;

/**
 * Runs `steps` on a fresh table; after each one checks that fold(ledger) equals admit's state and
 * that the previous state object was left unchanged. Returns the table.
 */
async function replayChecked(config: TableConfig, join: string[] | undefined, steps: Step[]): Promise<TestTable> {
  const t = await TestTable.open(config, join, k);
  expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
  for (const step of steps) {
    const previous = t.state;
    const before = canonicalize(previous);
    await step(t);
    expect(canonicalize(previous)).toBe(before);
    expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
  }
  return t;
}

async function expectCleanExport(t: TestTable): Promise<void> {
  const text = await t.exportText();
  const report = await verifyExport(text, { relayKey: k.relay.publicKeyText });
  expect(report, JSON.stringify(report)).toMatchObject({ verdict: "CLEAN", coverage: { policy_replay: "full" } });
}

const say =
  (seat: string, body?: string): Step =>
  (t) =>
    t.say(seat, body);

describe("fold(ledger) equals the state admit returned", () => {
  it("through a debate to a decision", async () => {
    const t = await replayChecked(debateConfig(k), undefined, [
      say("bot-tao"),
      say("bot-jenny"),
      (t) => t.write("bot-tao", { kind: "pass" }),
      (t) => t.write("bot-jenny", { kind: "proposal", body: "ship #461 first", re: 6 }),
      (t) => t.write("judge", { kind: "decision", body: "ship #459 first" }),
    ]);
    expect(t.state.closed).toMatchObject({ reason: "decision" });
    await expectCleanExport(t);
  });

  it("through hands, a human, truncation, bot depth and a non-closing decision on a broadcast", async () => {
    const config = broadcastConfig(k, {
      topology: { kind: "broadcast", order: ["a", "b", "c"], rounds: 2 },
      floor: { max_chars: 12, max_bot_depth: 3 },
      termination: { any: ["rounds_exhausted", { budget_tokens: 10_000 }] },
    });
    const t = await replayChecked(
      config,
      ["a", "h", "b", "c"],
      [
        (t) => t.write("c", { kind: "raise_hand" }),
        say("a", "a long opening that will be cut"),
        say("c", "\u{1F602}".repeat(10)),
        say("h", "humans speak any time"),
        say("b"),
        (t) => t.write("c", { kind: "decision", body: "interim" }),
        say("a"),
        (t) => refusal(() => t.say("b")),
        say("h"),
        say("b"),
        say("c"),
      ],
    );
    expect(
      t.l.entries.filter((e) => e.kind === "system" && e.subkind === "floor").map((e) => e.kind === "system" && e.data),
    ).toContainEqual({
      holder: "h",
      round: 2,
      reason: "bot_depth",
    });
    expect(t.state.closed).toMatchObject({ reason: "rounds_exhausted" });
    await expectCleanExport(t);
  });

  it("through an open room whose bot run hands the floor to a human, then a budget close", async () => {
    const t = await replayChecked(
      openConfig(k, { floor: { max_bot_depth: 2 }, termination: { any: [{ budget_tokens: 30 }] } }),
      undefined,
      [
        say("x", "x".repeat(20)),
        say("y", "y".repeat(20)),
        say("h", "my turn"),
        (t) => t.write("x", { kind: "say", body: "offer", to: ["y"], budget: { tokens: 25 } }),
      ],
    );
    expect(t.state.closed).toMatchObject({ reason: "budget_tokens" });
    await expectCleanExport(t);
  });

  it("through a table that closes on bot depth with no human present", async () => {
    const t = await replayChecked(
      broadcastConfig(k, { floor: { max_bot_depth: 2 } }),
      ["a", "b", "c"],
      [say("a"), say("b")],
    );
    expect(t.state.closed).toMatchObject({ reason: "bot_depth" });
    await expectCleanExport(t);
  });

  describe("when the ledger does not start with table_opened", () => {
    it("refuses to fold it with E_INTERNAL", async () => {
      const t = await TestTable.open(debateConfig(k), undefined, k);
      expect((await refusal(() => fold(t.l.entries.slice(1)))).code).toBe("E_INTERNAL");
      expect((await refusal(() => fold([]))).code).toBe("E_INTERNAL");
    });

    it("refuses a gap in the seqs with E_INTERNAL", async () => {
      const t = await TestTable.open(debateConfig(k), undefined, k);
      const gapped = t.l.entries.filter((e) => e.seq !== 3);
      expect((await refusal(() => fold(gapped))).code).toBe("E_INTERNAL");
    });
  });
});
