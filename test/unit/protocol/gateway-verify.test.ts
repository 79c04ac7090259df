/**
 * The #459/#461 flow through the commit gateway (docs/SPEC.md §5.6), verified offline: the judge's
 * decision puts a card on jenny's taskboard, jenny's owner key approves, jenny's bot runs and
 * reports, a checker verifies. The export verifies CLEAN with a full policy replay, and every way
 * a relay could forge an approval into that chain is REFUTED.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  approvalStatement,
  canonicalize,
  fold,
  signStatement,
  taskStateDraft,
  verifyExport,
  type ApprovalEntry,
  type Entry,
  type UnchainedEntry,
  type VerifyReport,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, kindOf, rechain, TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, gatewayTable, propose, statementFor } from "./gateway-fixtures.js";

let k: Cast;
let t: TestTable;
let decision: number;
let approvalSeq: number;

/** Runs the #459 debate to a decision with an effect on jenny's taskboard, then the task to verified. */
async function flow459(k: Cast): Promise<TestTable> {
  const config = debateConfig(k, { seats: { ...debateConfig(k).seats, checker: { owner: "ops" } } });
  const t = await TestTable.open(config, undefined, k);
  for (let r = 1; r <= 2; r++) {
    await t.say("bot-tao", `pro, round ${r}`);
    await t.say("bot-jenny", `con, round ${r}`);
  }
  const decided = await t.write("judge", {
    kind: "decision",
    body: "ship #459 first; jenny tracks it",
    effects: [CARD_EFFECT],
  });
  decision = decided[0]!.seq;
  const [approval] = await approve(t, decision, "jenny");
  approvalSeq = approval!.seq;
  const id = `${decision}.jenny`;
  await t.write("bot-jenny", { kind: "progress", task: id, body: "adding the card" });
  await t.write("bot-jenny", { kind: "receipt", task: id, body: "card 42 in doing", result: { card: 42 } });
  await t.write("checker", { kind: "verify", task: id, verdict: "pass", body: "card 42 is on the board in doing" });
  return t;
}

beforeAll(async () => {
  k = await cast();
  t = await flow459(k);
});

const pinned = () => ({ relayKey: k.relay.publicKeyText });

/** The verdict for the flow's entries with `change` applied, re-chained and re-headed as a lying relay would. */
async function forged(change: (entries: Entry[]) => (Entry | UnchainedEntry)[]): Promise<VerifyReport> {
  const entries = rechain(change(copy(t.l.entries)));
  return verifyExport(exportOf(k.relay, entries, [await headOver(k.relay, entries)]), pinned());
}

describe("the #459/#461 flow", () => {
  it("runs decision -> task awaiting jenny -> approved by jenny's key -> running -> reported -> verified", () => {
    const tail = t.l.entries.slice(decision - 1).map(kindOf);
    expect(tail).toEqual([
      "decision",
      "task_opened",
      "table_closed",
      "approval",
      "task_state",
      "progress",
      "task_state",
      "receipt",
      "task_state",
      "verify",
      "task_state",
    ]);
    const states = t.l.entries.flatMap((e) =>
      e.kind === "system" && e.subkind === "task_state" ? [e.data.state] : [],
    );
    expect(states).toEqual(["approved", "running", "reported", "verified"]);
    expect(t.state.tasks[`${decision}.jenny`]).toMatchObject({
      state: "verified",
      executor: "bot-jenny",
      owner: "jenny",
    });
    expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
  });

  it("exports CLEAN: every signature checked (the owner's approval included) and the policy replayed", async () => {
    const report = await verifyExport(await t.exportText(), pinned());
    expect(report, JSON.stringify(report)).toMatchObject({
      verdict: "CLEAN",
      coverage: { entries: t.l.entries.length, policy_replay: "full", signatures: 1 + 4 + 5 + 1 + 3 },
    });
  });

  describe("when a relay forges an approval into the chain", () => {
    it("REFUTES an approval in jenny's name signed by another key", async () => {
      const report = await forged((entries) => {
        const approval = entries[approvalSeq - 1] as ApprovalEntry;
        approval.author = { key: k.relay.publicKeyText, sig: approval.author!.sig };
        return entries;
      });
      expect(report).toMatchObject({ verdict: "REFUTED", refuted: { seq: approvalSeq } });
    });

    it("REFUTES an approval validly signed by a key that is not jenny's owner key", async () => {
      const approval = t.l.entries[approvalSeq - 1] as ApprovalEntry;
      const sig = await signStatement(k.relay, "approval", approvalStatement(approval));
      const report = await forged((entries) => {
        (entries[approvalSeq - 1] as ApprovalEntry).author = { key: k.relay.publicKeyText, sig };
        return entries;
      });
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: approvalSeq, reason: expect.stringContaining("E_BAD_SIGNATURE") },
      });
    });

    it("REFUTES a relay-attested approval for an owner without chat_approve rules", async () => {
      const report = await forged((entries) => {
        const approval = entries[approvalSeq - 1] as ApprovalEntry;
        approval.author = null;
        approval.via = "telegram";
        return entries;
      });
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: approvalSeq, reason: expect.stringContaining("E_NEEDS_SIGNATURE") },
      });
    });

    it("REFUTES a task moved to approved with no approval at all", async () => {
      const report = await forged((entries) => {
        const moved = {
          ...taskStateDraft("t-459", `${decision}.jenny`, "approved", "approval", null),
          seq: approvalSeq,
          ts: entries[approvalSeq - 1]!.ts,
        };
        return [...entries.slice(0, approvalSeq - 1), moved as UnchainedEntry, ...entries.slice(approvalSeq)];
      });
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: approvalSeq, reason: expect.stringContaining("E_FORBIDDEN") },
      });
    });

    it("REFUTES jenny's real approval replayed for another task", async () => {
      const second = await flowWithSecondProposal();
      const firstApproval = second.l.entries.find((e) => e.kind === "approval")!;
      const replay = second.l.entries.findLast((e) => e.kind === "approval")!;
      const entries = copy(second.l.entries);
      const { seq, ts } = replay;
      entries[seq - 1] = { ...copy(firstApproval), seq, ts } as Entry;
      const chained = rechain(entries);
      const report = await verifyExport(
        exportOf(k.relay, chained, [await headOver(k.relay, chained)], "t-room"),
        pinned(),
      );
      expect(report).toMatchObject({ verdict: "REFUTED", refuted: { seq } });
    });

    it("REFUTES an approval of altered effects", async () => {
      const altered = statementFor(t, decision, "jenny", "approve", { effects_sha256: "ab".repeat(32) });
      const sig = await signStatement(k.jenny, "approval", altered);
      const report = await forged((entries) => {
        const approval = entries[approvalSeq - 1] as ApprovalEntry;
        Object.assign(approval, {
          effects_sha256: altered.effects_sha256,
          nonce: altered.nonce,
          author: { key: k.jenny.publicKeyText, sig },
        });
        return entries;
      });
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: approvalSeq, reason: expect.stringContaining("E_APPROVAL_MISMATCH") },
      });
    });
  });
});

/** An open room where jenny approves two proposals' tasks: the second approval is the one to replace. */
async function flowWithSecondProposal(): Promise<TestTable> {
  const room = await gatewayTable(k, { id: "t-room" });
  const first = await propose(room, "x");
  await approve(room, first, "jenny");
  const second = await propose(room, "x", [CARD_EFFECT], "again");
  await approve(room, second, "jenny");
  return room;
}
