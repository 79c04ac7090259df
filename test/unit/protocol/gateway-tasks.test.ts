/**
 * The commit gateway's tasks (docs/SPEC.md §5.6): effects open one task per owner, owner rules
 * auto-approve only what they cover and only once the owner signed the config, and owners answer
 * with signed approvals bound to exactly one proposal and one set of effects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  approvalDraft,
  canonicalSha256,
  globMatch,
  RefSchema,
  signApproval,
  statementOf,
  SubmissionSchema,
  verifyExport,
  verifyStatement,
  type ApprovalDraft,
  type Effect,
} from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { kindOf, TestTable } from "./fixtures.js";
import {
  approve,
  approveWith,
  CARD_EFFECT,
  endorsingJoin,
  entryAt,
  gatewayConfig,
  gatewayTable,
  propose,
  statementFor,
  taskState,
} from "./gateway-fixtures.js";
import { refused } from "../../support/refused.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const MERGE: Effect = { owner: "tao", resource: "github:tao/app", action: "merge", args: { pr: 459 } };
const DELETE: Effect = { owner: "jenny", resource: "taskboard", action: "delete_card", args: { id: 7 } };

describe("a proposal with effects", () => {
  it("opens one task per affected owner, caused by the proposal, bound to its leaf and that owner's effects", async () => {
    const t = await gatewayTable(k);
    const added = await t.write("x", { kind: "proposal", body: "ship it", effects: [CARD_EFFECT, MERGE, DELETE] });
    const [proposal, jenny, tao] = added;
    expect(added.map(kindOf)).toEqual(["proposal", "task_opened", "task_opened"]);
    expect(jenny).toMatchObject({
      author: null,
      data: {
        task: `${proposal!.seq}.jenny`,
        owner: "jenny",
        proposal: { seq: proposal!.seq, leaf: proposal!.leaf },
        effects: [CARD_EFFECT, DELETE],
      },
    });
    expect(jenny!.kind === "system" && jenny!.subkind === "task_opened" && jenny!.data.effects_sha256).toBe(
      canonicalSha256([CARD_EFFECT, DELETE]),
    );
    expect(tao).toMatchObject({ data: { task: `${proposal!.seq}.tao`, effects: [MERGE] } });
    expect(t.state.tasks[`${proposal!.seq}.jenny`]).toEqual({
      id: `${proposal!.seq}.jenny`,
      owner: "jenny",
      proposal: { seq: proposal!.seq, leaf: proposal!.leaf },
      effects_sha256: canonicalSha256([CARD_EFFECT, DELETE]),
      state: "awaiting_approval",
      since: proposal!.ts,
      executor: null,
      opened: jenny!.seq,
    });
  });

  it("names each task by an id that is a valid task: ref", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    expect(RefSchema.parse(`task:${seq}.jenny`)).toBe(`task:${seq}.jenny`);
    expect(RefSchema.safeParse("task:0.jenny").success).toBe(false);
  });

  it("opens its tasks before a decision closes the table", async () => {
    const t = await gatewayTable(k, { termination: { any: ["decision"] } });
    const added = await t.write("c", { kind: "decision", body: "jenny adds the card", effects: [CARD_EFFECT] });
    expect(added.map(kindOf)).toEqual(["decision", "task_opened", "table_closed"]);
  });

  it("opens nothing without effects", async () => {
    const t = await gatewayTable(k);
    expect((await t.write("x", { kind: "proposal", body: "just talk" })).map(kindOf)).toEqual(["proposal"]);
    expect(t.state.tasks).toEqual({});
  });

  describe("when the effects are malformed", () => {
    /** The path of the first issue parsing a proposal with `effects`, or "accepted". */
    const code = (effects: unknown) => {
      const result = SubmissionSchema.safeParse({
        table: "t-gateway",
        seat: "x",
        nonce: "n".repeat(22),
        kind: "proposal",
        body: "b",
        effects,
      });
      return result.success ? "accepted" : result.error.issues[0]!.path.join(".");
    };

    it("refuses an effect on someone who is not an owner of the table", async () => {
      const t = await gatewayTable(k);
      await refused("E_NOT_OWNER", () => propose(t, "x", [{ ...CARD_EFFECT, owner: "mallory" }]), { unmoved: t });
    });

    it("refuses more effects than the limit, an empty list, unknown keys, and bad resources", async () => {
      expect(code(Array.from({ length: 17 }, () => CARD_EFFECT))).toBe("effects");
      expect(code([])).toBe("effects");
      expect(code("not a list")).toBe("effects");
      expect(code([{ ...CARD_EFFECT, extra: 1 }])).toBe("effects.0");
      expect(code([{ ...CARD_EFFECT, resource: "Taskboard" }])).toBe("effects.0.resource");
      expect(code([{ ...CARD_EFFECT, action: "" }])).toBe("effects.0.action");
    });

    it("refuses arguments that are not canonical JSON, too large, or keyed by prototype names", async () => {
      expect(code([{ ...CARD_EFFECT, args: { ratio: 0.5 } }])).toBe("effects.0.args");
      expect(code([{ ...CARD_EFFECT, args: { text: "x".repeat(3000) } }])).toBe("effects.0.args");
      expect(code([{ ...CARD_EFFECT, args: JSON.parse('{"__proto__":{"admin":true}}') }])).toBe("effects.0.args");
      expect(code([{ ...CARD_EFFECT, args: JSON.parse('{"nested":{"__proto__":1,"ok":[1,2]}}') }])).toBe("accepted");
    });
  });
});

describe("auto_approve rules", () => {
  const rules = (k: Cast) => ({
    owners: {
      tao: { public_key: k.tao.publicKeyText },
      jenny: { public_key: k.jenny.publicKeyText, auto_approve: [{ resource: "taskboard", action: "create_*" }] },
      ops: { public_key: k.ops.publicKeyText },
    },
  });

  /** The room with jenny's rules, every seat but y joined. */
  const withoutY = () => TestTable.open(gatewayConfig(k, rules(k)), ["x", "y2", "c", "h"], k);

  /** The room with jenny's rules, y joined by a join that signs the config. */
  async function endorsed(): Promise<TestTable> {
    const t = await withoutY();
    await endorsingJoin(t, "y");
    return t;
  }

  it("approve at once when they cover every effect and the owner signed the config", async () => {
    const t = await endorsed();
    const added = await t.write("x", { kind: "proposal", body: "card", effects: [CARD_EFFECT] });
    expect(added.map(kindOf)).toEqual(["proposal", "task_opened", "task_state"]);
    expect(added[2]).toMatchObject({
      author: null,
      data: { task: `${added[0]!.seq}.jenny`, state: "approved", reason: "auto_approve", cause: added[0]!.seq },
    });
  });

  it("leave the task waiting when one effect is not covered", async () => {
    const t = await endorsed();
    const seq = await propose(t, "x", [CARD_EFFECT, DELETE]);
    expect(taskState(t, `${seq}.jenny`)).toBe("awaiting_approval");
  });

  it("do not count when only the creator wrote them: the owner never signed the config", async () => {
    const t = await gatewayTable(k, rules(k));
    const seq = await propose(t, "x");
    expect(t.state.endorsed).toEqual(["ops"]);
    expect(taskState(t, `${seq}.jenny`)).toBe("awaiting_approval");
  });

  it("cover only their own owner's task when effects touch several owners", async () => {
    const t = await endorsed();
    const seq = await propose(t, "x", [CARD_EFFECT, MERGE]);
    expect(taskState(t, `${seq}.jenny`)).toBe("approved");
    expect(taskState(t, `${seq}.tao`)).toBe("awaiting_approval");
  });

  it("match resources and actions with * as any run of characters", () => {
    expect(globMatch("create_*", "create_card")).toBe(true);
    expect(globMatch("create_*", "create_")).toBe(true);
    expect(globMatch("*", "anything")).toBe(true);
    expect(globMatch("github:tao/*", "github:tao/app")).toBe(true);
    expect(globMatch("a*b*c", "axxbyyc")).toBe(true);
    expect(globMatch("a*a", "a")).toBe(false);
    expect(globMatch("a*b*c", "acb")).toBe(false);
    expect(globMatch("taskboard", "taskboard2")).toBe(false);
    expect(globMatch("create_*", "delete_card")).toBe(false);
  });

  describe("when a join signs another config", () => {
    it("refuses it with E_WRONG_TABLE", async () => {
      const t = await withoutY();
      await refused("E_WRONG_TABLE", () => endorsingJoin(t, "y", "ab".repeat(32)), { unmoved: t });
    });
  });
});

describe("an owner's approval", () => {
  it("moves the task to approved, recorded as an owner-signed entry that verifies offline", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    const [approval, moved] = await approve(t, seq, "jenny");
    expect(approval).toMatchObject({
      kind: "approval",
      seat: null,
      owner: "jenny",
      task: `${seq}.jenny`,
      verdict: "approve",
      author: { key: k.jenny.publicKeyText },
    });
    expect(moved).toMatchObject({
      kind: "system",
      subkind: "task_state",
      data: { task: `${seq}.jenny`, state: "approved", reason: "approval", cause: approval!.seq },
    });
    const recorded = statementOf(approval!)!;
    expect(recorded.purpose).toBe("approval");
    expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(true);
  });

  it("rejects the task for good when the owner rejects", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    await approve(t, seq, "jenny", "reject");
    expect(taskState(t, `${seq}.jenny`)).toBe("rejected");
    await refused("E_TASK_STATE", () => approve(t, seq, "jenny"), { unmoved: t });
  });

  it("lets a later rejection by the same owner win before execution starts", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    await approve(t, seq, "jenny");
    await approve(t, seq, "jenny", "reject");
    expect(taskState(t, `${seq}.jenny`)).toBe("rejected");
    await refused("E_TASK_STATE", () => t.write("y", { kind: "progress", task: `${seq}.jenny` }), { unmoved: t });
  });

  it("needs each owner's own approval when effects touch several owners", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x", [CARD_EFFECT, MERGE]);
    await approve(t, seq, "jenny");
    expect([taskState(t, `${seq}.jenny`), taskState(t, `${seq}.tao`)]).toEqual(["approved", "awaiting_approval"]);
    await approve(t, seq, "tao");
    expect(taskState(t, `${seq}.tao`)).toBe("approved");
  });

  describe("when the approval is wrong", () => {
    it("does not verify as the owner's when signed with another owner's key", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const before = t.l.entries.length;
      // The relay's signature check refuses this (E_BAD_SIGNATURE over HTTP); appended anyway, it cannot verify.
      const [approval] = await approveWith(t, "jenny", statementFor(t, seq, "jenny"), k.tao);
      const recorded = statementOf(approval!)!;
      expect(recorded.key).toBe(k.jenny.publicKeyText);
      expect(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig)).toBe(false);
      expect(t.l.entries.length).toBe(before + 2);
    });

    it("refuses another owner approving with their own key (E_FORBIDDEN)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const statement = { ...statementFor(t, seq, "jenny") };
      await refused("E_FORBIDDEN", () => approveWith(t, "tao", statement), { unmoved: t });
    });

    it("refuses an approval recorded under an owner's name with a key that is not theirs (E_BAD_SIGNATURE)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const draft = await draftOf(t, seq);
      await refused(
        "E_BAD_SIGNATURE",
        () => t.l.append({ ...draft, author: { ...draft.author!, key: k.tao.publicKeyText } }),
        { unmoved: t },
      );
      await refused("E_BAD_SIGNATURE", () => t.l.append({ ...draft, author: null }), { unmoved: t });
    });

    it("refuses an approval for altered effects (E_APPROVAL_MISMATCH)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const altered = canonicalSha256([{ ...CARD_EFFECT, args: { title: "delete everything" } }]);
      await refused(
        "E_APPROVAL_MISMATCH",
        () => approveWith(t, "jenny", statementFor(t, seq, "jenny", "approve", { effects_sha256: altered })),
        { unmoved: t },
      );
    });

    it("refuses an approval bound to another proposal (E_APPROVAL_MISMATCH)", async () => {
      const t = await gatewayTable(k);
      const first = await propose(t, "x");
      const second = await propose(t, "x", [CARD_EFFECT], "again");
      const other = statementFor(t, first, "jenny").proposal;
      await refused(
        "E_APPROVAL_MISMATCH",
        () => approveWith(t, "jenny", statementFor(t, second, "jenny", "approve", { proposal: other })),
        { unmoved: t },
      );
    });

    it("refuses an approval of a task that does not exist (E_UNKNOWN_TASK)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      await refused(
        "E_UNKNOWN_TASK",
        () => approveWith(t, "jenny", statementFor(t, seq, "jenny", "approve", { task: `${seq + 5}.jenny` })),
        { unmoved: t },
      );
    });

    it("refuses an approval signed for another table (E_WRONG_TABLE)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      await refused(
        "E_WRONG_TABLE",
        () => approveWith(t, "jenny", statementFor(t, seq, "jenny", "approve", { table: "t-other" })),
        { unmoved: t },
      );
    });

    it("refuses a second approval of an approved task (E_TASK_STATE)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      await approve(t, seq, "jenny");
      await refused("E_TASK_STATE", () => approve(t, seq, "jenny"), { unmoved: t });
    });

    it("refuses a relay-attested chat approval for an owner without chat_approve rules (E_NEEDS_SIGNATURE)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const draft = await draftOf(t, seq);
      await refused("E_NEEDS_SIGNATURE", () => t.l.append({ ...draft, via: "telegram", author: null }), { unmoved: t });
    });

    it("refuses an approval in the name of someone who is not an owner (E_NOT_OWNER)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      const draft = await draftOf(t, seq);
      await refused("E_NOT_OWNER", () => t.l.append({ ...draft, owner: "mallory" }), { unmoved: t });
    });
  });
});

/** jenny's known-good approval draft of the task of the proposal at `seq`, not appended. */
async function draftOf(t: TestTable, seq: number): Promise<ApprovalDraft> {
  return approvalDraft(t.state, await signApproval(k.jenny, "jenny", statementFor(t, seq, "jenny")));
}

describe("execution and verification", () => {
  /** A room with jenny's task of a fresh proposal approved; returns the task id. */
  async function approved(overrides = {}): Promise<{ t: TestTable; id: string; seq: number }> {
    const t = await gatewayTable(k, overrides);
    const seq = await propose(t, "x");
    await approve(t, seq, "jenny");
    return { t, id: `${seq}.jenny`, seq };
  }

  it("runs on the owner's seat's progress, which makes it the executor; later progress is a heartbeat", async () => {
    const { t, id } = await approved();
    const first = await t.write("y", { kind: "progress", task: id, body: "starting" });
    expect(first.map(kindOf)).toEqual(["progress", "task_state"]);
    expect(first[1]).toMatchObject({ data: { task: id, state: "running", reason: "progress", cause: first[0]!.seq } });
    expect(t.state.tasks[id]).toMatchObject({ state: "running", executor: "y", since: first[0]!.ts });
    const beat = await t.write("y", { kind: "progress", task: id, body: "half way" });
    expect(beat.map(kindOf)).toEqual(["progress"]);
    expect(t.state.tasks[id]!.since).toBe(beat[0]!.ts);
  });

  it("is reported by the executor's receipt and verified by another seat", async () => {
    const { t, id } = await approved();
    await t.write("y", { kind: "progress", task: id });
    const receipt = await t.write("y", {
      kind: "receipt",
      task: id,
      body: "card created",
      result: { card: 42 },
      refs: ["https://board.example/42"],
    });
    expect(receipt.map(kindOf)).toEqual(["receipt", "task_state"]);
    expect(taskState(t, id)).toBe("reported");
    const verified = await t.write("c", { kind: "verify", task: id, verdict: "pass", body: "card 42 is on the board" });
    expect(verified[1]).toMatchObject({ data: { task: id, state: "verified", reason: "verify" } });
  });

  it("lets another seat of the same owner verify, but never the executor", async () => {
    const { t, id } = await approved();
    await t.write("y", { kind: "progress", task: id });
    await t.write("y", { kind: "receipt", task: id, body: "done" });
    await refused(
      "E_SELF_VERIFY",
      () => t.write("y", { kind: "verify", task: id, verdict: "pass", body: "looks right to me" }),
      { unmoved: t },
    );
    await t.write("y2", { kind: "verify", task: id, verdict: "pass", body: "checked" });
    expect(taskState(t, id)).toBe("verified");
  });

  it("marks the task failed, visibly, when verification fails; the task is then final", async () => {
    const { t, id } = await approved();
    await t.write("y", { kind: "progress", task: id });
    await t.write("y", { kind: "receipt", task: id, body: "done" });
    const failed = await t.write("c", { kind: "verify", task: id, verdict: "fail", body: "no card on the board" });
    expect(failed[1]).toMatchObject({
      kind: "system",
      subkind: "task_state",
      data: { task: id, state: "failed", reason: "verify" },
    });
    expect(t.state.tasks[id]!.state).toBe("failed");
    await refused("E_TASK_STATE", () => t.write("y", { kind: "progress", task: id }), { unmoved: t });
    await refused(
      "E_TASK_STATE",
      () => t.write("c", { kind: "verify", task: id, verdict: "pass", body: "second look" }),
      { unmoved: t },
    );
  });

  it("keeps accepting task work after the decision closed the table, and nothing else", async () => {
    const t = await gatewayTable(k, { termination: { any: ["decision"] } });
    const decided = await t.write("c", { kind: "decision", body: "jenny adds the card", effects: [CARD_EFFECT] });
    const id = `${decided[0]!.seq}.jenny`;
    expect(t.state.closed).not.toBeNull();
    await approve(t, decided[0]!.seq, "jenny");
    await t.write("y", { kind: "progress", task: id });
    await t.write("y", { kind: "receipt", task: id, body: "done" });
    await t.write("c", { kind: "verify", task: id, verdict: "pass", body: "seen it" });
    expect(taskState(t, id)).toBe("verified");
    await refused("E_CLOSED", () => t.say("x"), { unmoved: t });
    await refused("E_CLOSED", () => propose(t, "x"), { unmoved: t });
  });

  it("is taken over by another seat of the owner, with progress, once its executor left the table", async () => {
    const { t, id } = await approved();
    await t.write("y", { kind: "progress", task: id });
    await t.write("x", { kind: "request", request_id: "bye-y", type: "shutdown", to: ["y"], body: "thanks, y" });
    await t.write("y", { kind: "response", request_id: "bye-y", type: "shutdown", verdict: "approve" });
    await refused("E_NOT_EXECUTOR", () => t.write("y2", { kind: "receipt", task: id, body: "I did it" }), {
      unmoved: t,
    });
    await refused("E_NOT_EXECUTOR", () => t.write("x", { kind: "progress", task: id }), { unmoved: t });
    expect((await t.write("y2", { kind: "progress", task: id, body: "taking over" })).map(kindOf)).toEqual([
      "progress",
    ]);
    expect(t.state.tasks[id]).toMatchObject({ state: "running", executor: "y2" });
    await t.write("y2", { kind: "receipt", task: id, body: "done" });
    await refused("E_SELF_VERIFY", () => t.write("y2", { kind: "verify", task: id, verdict: "pass", body: "mine" }), {
      unmoved: t,
    });
    await t.write("c", { kind: "verify", task: id, verdict: "pass", body: "seen it" });
    expect(taskState(t, id)).toBe("verified");
    expect((await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  describe("when the wrong seat or state acts", () => {
    it("refuses progress before approval (E_TASK_STATE)", async () => {
      const t = await gatewayTable(k);
      const seq = await propose(t, "x");
      await refused("E_TASK_STATE", () => t.write("y", { kind: "progress", task: `${seq}.jenny` }), { unmoved: t });
    });

    it("refuses progress from a seat of another owner (E_NOT_EXECUTOR)", async () => {
      const { t, id } = await approved();
      await refused("E_NOT_EXECUTOR", () => t.write("x", { kind: "progress", task: id }), { unmoved: t });
    });

    it("refuses progress and receipts from a second seat of the owner once one executes (E_NOT_EXECUTOR)", async () => {
      const { t, id } = await approved();
      await t.write("y", { kind: "progress", task: id });
      await refused("E_NOT_EXECUTOR", () => t.write("y2", { kind: "progress", task: id }), { unmoved: t });
      await refused("E_NOT_EXECUTOR", () => t.write("y2", { kind: "receipt", task: id, body: "I did it" }), {
        unmoved: t,
      });
    });

    it("refuses a receipt before the task ran (E_TASK_STATE)", async () => {
      const { t, id } = await approved();
      await refused("E_TASK_STATE", () => t.write("y", { kind: "receipt", task: id, body: "done already" }), {
        unmoved: t,
      });
    });

    it("refuses verification before a receipt (E_TASK_STATE)", async () => {
      const { t, id } = await approved();
      await t.write("y", { kind: "progress", task: id });
      await refused(
        "E_TASK_STATE",
        () => t.write("c", { kind: "verify", task: id, verdict: "pass", body: "too early" }),
        { unmoved: t },
      );
    });

    it("refuses a rejection once execution started (E_TASK_STATE)", async () => {
      const { t, id, seq } = await approved();
      await t.write("y", { kind: "progress", task: id });
      await refused("E_TASK_STATE", () => approve(t, seq, "jenny", "reject"), { unmoved: t });
    });

    it("refuses work on a task that does not exist (E_UNKNOWN_TASK)", async () => {
      const { t } = await approved();
      await refused("E_UNKNOWN_TASK", () => t.write("y", { kind: "progress", task: "999.jenny" }), { unmoved: t });
      await refused(
        "E_UNKNOWN_TASK",
        () => t.write("c", { kind: "verify", task: "999.jenny", verdict: "fail", body: "?" }),
        { unmoved: t },
      );
    });

    it("refuses a verify without a reason (E_SCHEMA)", async () => {
      const { t, id } = await approved();
      await refused("E_SCHEMA", () => t.write("c", { kind: "verify", task: id, verdict: "pass", body: "" }), {
        unmoved: t,
      });
    });
  });
});

describe("the entry kinds", () => {
  it("show up in the ledger in the order of the flow", async () => {
    const t = await gatewayTable(k);
    const seq = await propose(t, "x");
    await approve(t, seq, "jenny");
    expect(kindOf(entryAt(t, seq))).toBe("proposal");
    expect(t.l.entries.slice(seq - 1).map(kindOf)).toEqual(["proposal", "task_opened", "approval", "task_state"]);
  });
});
