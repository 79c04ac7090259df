/**
 * Chat approvals in the policy (docs/SPEC.md §5.6, Approvals via chat): a relay-attested approval
 * (`via`, `author: null`) approves only where the owner signed the config and their chat_approve
 * rules match every effect of the task; a relay-attested reject needs no rule. Replay checks the
 * same rules, so a forged chat approval in an otherwise valid chain is REFUTED.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  canonicalize,
  chatApprovalDraft,
  chatRefusal,
  fold,
  nonceKeyOf,
  statementOf,
  validateConfig,
  verifyExport,
  type ApprovalDraft,
  type ApprovalVerdict,
  type Effect,
  type Entry,
  type TableConfig,
  type UnchainedEntry,
} from "../../../src/protocol/index.js";
import { cast, nonceOf, type Cast } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, kindOf, rechain, refusal, TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, endorsingJoin, gatewayConfig, propose, taskState } from "./gateway-fixtures.js";
import { refused } from "../../support/refused.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const DELETE: Effect = { owner: "jenny", resource: "taskboard", action: "delete_card", args: { id: 7 } };
const MERGE: Effect = { owner: "tao", resource: "github:tao/app", action: "merge", args: { pr: 459 } };

/** The gateway room where jenny lists `rules` under chat_approve (tao lists none). */
function chatConfig(
  rules: TableConfig["owners"][string]["chat_approve"] = [{ resource: "taskboard", action: "create_*" }],
): TableConfig {
  const config = gatewayConfig(k);
  return { ...config, owners: { ...config.owners, jenny: { ...config.owners.jenny!, chat_approve: rules } } };
}

/** The room with jenny's chat rules; `endorsed` has her join y with the config hash. */
async function room(
  options: { endorsed?: boolean; rules?: TableConfig["owners"][string]["chat_approve"] } = {},
): Promise<TestTable> {
  const t = await TestTable.open(chatConfig(options.rules), ["x", "y2", "c", "h"], k);
  if (options.endorsed ?? true) await endorsingJoin(t, "y");
  else await t.join("y");
  return t;
}

let taps = 0;

/** The relay-attested tap of `verdict` on task `task`, from Telegram, with a fresh event's nonce. */
function tap(t: TestTable, task: string, verdict: ApprovalVerdict = "approve"): ApprovalDraft {
  return chatApprovalDraft(t.state, { task, verdict, via: "telegram", nonce: nonceOf(`tap ${taps++}`) });
}

describe("a chat approval", () => {
  it("approves a task every effect of which the endorsed owner's chat_approve rules match", async () => {
    const t = await room();
    const seq = await propose(t, "x");
    const added = t.l.append(tap(t, `${seq}.jenny`));
    expect(added.map(kindOf)).toEqual(["approval", "task_state"]);
    expect(added[0]).toMatchObject({
      kind: "approval",
      owner: "jenny",
      task: `${seq}.jenny`,
      verdict: "approve",
      via: "telegram",
      author: null,
      seat: null,
    });
    expect(added[1]).toMatchObject({
      data: { task: `${seq}.jenny`, state: "approved", reason: "approval", cause: added[0]!.seq },
    });
    expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
  });

  it("is bound to the task's proposal leaf and effects hash, records no signature, and uses its nonce once per owner", async () => {
    const t = await room();
    const seq = await propose(t, "x");
    const draft = tap(t, `${seq}.jenny`);
    expect(draft).toMatchObject({
      proposal: t.l.entries[seq - 1]!.leaf,
      effects_sha256: t.state.tasks[`${seq}.jenny`]!.effects_sha256,
    });
    expect(statementOf(draft)).toBeNull();
    expect(nonceKeyOf(draft)).toBe(`approval:jenny:${draft.nonce}`);
  });

  it("records at opening which tasks the owner's rules cover; the endorsement is judged at the tap", async () => {
    const t = await TestTable.open(chatConfig(), ["x", "y", "c", "h"], k);
    const covered = await propose(t, "x");
    const partly = await propose(t, "x", [CARD_EFFECT, DELETE]);
    expect(t.state.chat_covered).toEqual({ [`${covered}.jenny`]: true });
    expect(chatRefusal(t.state, "jenny", `${covered}.jenny`)).toBe("not_endorsed");
    await endorsingJoin(t, "y2");
    expect(chatRefusal(t.state, "jenny", `${covered}.jenny`)).toBeNull();
    expect(chatRefusal(t.state, "jenny", `${partly}.jenny`)).toBe("not_covered");
    t.l.append(tap(t, `${covered}.jenny`));
    expect(taskState(t, `${covered}.jenny`)).toBe("approved");
  });

  it("rejects by tap without any chat_approve rule: the safe direction", async () => {
    const t = await room();
    const seq = await propose(t, "x", [MERGE]);
    const added = t.l.append(tap(t, `${seq}.tao`, "reject"));
    expect(added[0]).toMatchObject({ owner: "tao", verdict: "reject", via: "telegram", author: null });
    expect(taskState(t, `${seq}.tao`)).toBe("rejected");
  });

  it("rejects by tap a task approved by signature, while nothing has run", async () => {
    const t = await room();
    const seq = await propose(t, "x", [MERGE]);
    await approve(t, seq, "tao");
    t.l.append(tap(t, `${seq}.tao`, "reject"));
    expect(taskState(t, `${seq}.tao`)).toBe("rejected");
  });

  it("approves only its own owner's task when effects touch several owners", async () => {
    const t = await room();
    const seq = await propose(t, "x", [CARD_EFFECT, MERGE]);
    t.l.append(tap(t, `${seq}.jenny`));
    expect(taskState(t, `${seq}.jenny`)).toBe("approved");
    await refused("E_NEEDS_SIGNATURE", () => t.l.append(tap(t, `${seq}.tao`)), {
      unmoved: t,
      details: { reason: "no_rules" },
    });
  });

  it("takes rules of the same shape and limits as auto_approve in the config", () => {
    const rules = Array.from({ length: 32 }, (_, i) => ({ resource: `board${i}`, action: "*" }));
    expect(validateConfig(chatConfig(rules)).owners.jenny!.chat_approve).toHaveLength(32);
  });

  describe("when the config's chat_approve rules are malformed", () => {
    it.each([
      ["more than 32", "E_TOO_LARGE", Array.from({ length: 33 }, (_, i) => ({ resource: `board${i}`, action: "*" }))],
      ["an empty list", "E_SCHEMA", []],
      ["an uppercase resource", "E_SCHEMA", [{ resource: "Taskboard", action: "*" }]],
      ["an unknown key", "E_SCHEMA", [{ resource: "taskboard", action: "*", extra: 1 }]],
    ])("refuses %s (%s)", async (_what, code, rules) => {
      expect((await refusal(() => validateConfig(chatConfig(rules as never)))).code).toBe(code);
    });
  });

  describe("when a tap does not count", () => {
    it("refuses an approve for an owner whose config lists no chat_approve rules (no_rules)", async () => {
      const t = await room();
      const seq = await propose(t, "x", [MERGE]);
      await refused("E_NEEDS_SIGNATURE", () => t.l.append(tap(t, `${seq}.tao`)), {
        unmoved: t,
        details: { reason: "no_rules" },
      });
    });

    it("refuses an approve when only the creator wrote the rules: the owner never signed the config (not_endorsed)", async () => {
      const t = await room({ endorsed: false });
      const seq = await propose(t, "x");
      await refused("E_NEEDS_SIGNATURE", () => t.l.append(tap(t, `${seq}.jenny`)), {
        unmoved: t,
        details: { reason: "not_endorsed" },
      });
      expect(taskState(t, `${seq}.jenny`)).toBe("awaiting_approval");
    });

    it("refuses an approve when one effect of the task is not covered (not_covered)", async () => {
      const t = await room();
      const seq = await propose(t, "x", [CARD_EFFECT, DELETE]);
      await refused("E_NEEDS_SIGNATURE", () => t.l.append(tap(t, `${seq}.jenny`)), {
        unmoved: t,
        details: { reason: "not_covered" },
      });
    });

    it("refuses a second approve of an approved task, and a reject once it runs (E_TASK_STATE)", async () => {
      const t = await room();
      const seq = await propose(t, "x");
      t.l.append(tap(t, `${seq}.jenny`));
      await refused("E_TASK_STATE", () => t.l.append(tap(t, `${seq}.jenny`)), { unmoved: t });
      await t.write("y", { kind: "progress", task: `${seq}.jenny`, body: "adding it" });
      await refused("E_TASK_STATE", () => t.l.append(tap(t, `${seq}.jenny`, "reject")), { unmoved: t });
    });

    it("refuses a tap recorded in another owner's name (E_FORBIDDEN) or for an unknown task (E_UNKNOWN_TASK)", async () => {
      const t = await room();
      const seq = await propose(t, "x");
      await refused("E_FORBIDDEN", () => t.l.append({ ...tap(t, `${seq}.jenny`), owner: "tao" }), { unmoved: t });
      await refused("E_UNKNOWN_TASK", () => t.l.append({ ...tap(t, `${seq}.jenny`), task: "999.jenny" }), {
        unmoved: t,
      });
      await refused("E_UNKNOWN_TASK", () => tap(t, "999.jenny"), { unmoved: t });
    });

    it("refuses an entry that names an app and also carries a signature (E_SCHEMA)", async () => {
      const t = await room();
      const seq = await propose(t, "x");
      const author = { key: k.jenny.publicKeyText, sig: "A".repeat(86) };
      await refused("E_SCHEMA", () => t.l.append({ ...tap(t, `${seq}.jenny`), author }), { unmoved: t });
    });

    it("refuses an approval with neither a signature nor an app (E_BAD_SIGNATURE)", async () => {
      const t = await room();
      const seq = await propose(t, "x");
      const { via: _via, ...unsigned } = tap(t, `${seq}.jenny`);
      await refused("E_BAD_SIGNATURE", () => t.l.append(unsigned), { unmoved: t });
    });
  });
});

describe("verifying a ledger with chat approvals", () => {
  /** jenny's room with one chat-approved and one chat-rejected task; returns the table and the approval's seq. */
  async function withTaps(): Promise<{ t: TestTable; approved: number }> {
    const t = await room();
    const proposal = await propose(t, "x");
    const [approval] = t.l.append(tap(t, `${proposal}.jenny`));
    const other = await propose(t, "x", [MERGE]);
    t.l.append(tap(t, `${other}.tao`, "reject"));
    return { t, approved: approval!.seq };
  }

  const verify = async (t: TestTable, entries: readonly (Entry | UnchainedEntry)[]) => {
    const chained = rechain(entries);
    return verifyExport(exportOf(k.relay, chained, [await headOver(k.relay, chained)], t.state.table), {
      relayKey: k.relay.publicKeyText,
    });
  };

  it("is CLEAN: the replay accepts every chat approval and rejection", async () => {
    const { t } = await withTaps();
    const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
    expect(report, JSON.stringify(report)).toMatchObject({
      verdict: "CLEAN",
      coverage: { policy_replay: "full", entries: t.l.entries.length },
    });
  });

  describe("when a relay forges a chat approval into an otherwise valid chain", () => {
    it("REFUTES an inserted approve for an owner without chat_approve rules", async () => {
      const { t } = await withTaps();
      const seq = await propose(t, "x", [MERGE]);
      const forged = { ...tap(t, `${seq}.tao`), seq: seq + 2, ts: t.l.now } as UnchainedEntry;
      const moved = {
        table: t.state.table,
        seat: null,
        kind: "system",
        subkind: "task_state",
        author: null,
        data: { task: `${seq}.tao`, state: "approved", reason: "approval", cause: seq + 2 },
        seq: seq + 3,
        ts: t.l.now,
      } as UnchainedEntry;
      const report = await verify(t, [...copy(t.l.entries), forged, moved]);
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: seq + 2, reason: expect.stringContaining("E_NEEDS_SIGNATURE") },
      });
    });

    it.each([
      ["not_endorsed", false, [CARD_EFFECT]],
      ["not_covered", true, [CARD_EFFECT, DELETE]],
    ] as const)("REFUTES an inserted chat approve that does not count (%s)", async (_reason, endorsed, effects) => {
      const t = await room({ endorsed });
      const seq = await propose(t, "x", [...effects]);
      const forged = { ...tap(t, `${seq}.jenny`), seq: seq + 2, ts: t.l.now } as UnchainedEntry;
      const moved = {
        table: t.state.table,
        seat: null,
        kind: "system",
        subkind: "task_state",
        author: null,
        data: { task: `${seq}.jenny`, state: "approved", reason: "approval", cause: seq + 2 },
        seq: seq + 3,
        ts: t.l.now,
      } as UnchainedEntry;
      const report = await verify(t, [...copy(t.l.entries), forged, moved]);
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: seq + 2, reason: expect.stringContaining("E_NEEDS_SIGNATURE") },
      });
    });

    it("REFUTES one tap recorded twice (its nonce used twice)", async () => {
      const { t, approved } = await withTaps();
      const entries = copy(t.l.entries);
      const again = { ...entries[approved - 1]!, seq: entries.length + 1, ts: t.l.now } as Entry;
      const report = await verify(t, [...entries, again]);
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: entries.length + 1, reason: expect.stringContaining("nonce") },
      });
    });

    it("REFUTES a chat approval moved to another task", async () => {
      const { t, approved } = await withTaps();
      const seq = await propose(t, "x");
      const entries = copy(t.l.entries);
      Object.assign(entries[approved - 1]!, { task: `${seq}.jenny` });
      const report = await verify(t, entries);
      expect(report).toMatchObject({ verdict: "REFUTED", refuted: { seq: approved } });
    });
  });
});
