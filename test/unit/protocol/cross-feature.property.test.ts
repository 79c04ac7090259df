/**
 * Features built apart meet here (docs/SPEC.md §5): random runs mixing every topology with turns,
 * raised hands, proposals with effects, votes and quorum, owner and chat approvals, task work,
 * watchdog stalls, pause and resume, and shutdowns. Whatever admit refuses must be a coded refusal
 * that leaves the ledger alone; whatever it accepts must fold to the same state, project and notify
 * without failing, and verify CLEAN.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildProjection,
  canonicalize,
  chatApprovalDraft,
  controlDraft,
  dueTasks,
  fold,
  has,
  isPaused,
  notificationsFor,
  stalledDraft,
  TrestleError,
  verifyExport,
  type DistributiveOmit,
  type Effect,
  type SubmissionInput,
  type TableConfig,
  type Topology,
} from "../../../src/protocol/index.js";
import { cast, type Cast } from "../../support/table-fixture.js";
import { TestTable } from "./fixtures.js";
import { approve, CARD_EFFECT, endorsingJoin, gatewayConfig } from "./gateway-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

const SEATS = ["x", "y", "y2", "c", "h"] as const;
const OWNERS = ["tao", "jenny", "ops"] as const;
const MERGE: Effect = { owner: "tao", resource: "github:tao/app", action: "merge", args: { pr: 459 } };
const DEPLOY: Effect = { owner: "ops", resource: "prod", action: "deploy", args: {} };
const EFFECTS: Effect[][] = [[CARD_EFFECT], [MERGE], [DEPLOY, CARD_EFFECT], [MERGE, DEPLOY]];

const TOPOLOGIES: Topology[] = [
  { kind: "open" },
  { kind: "broadcast", order: ["x", "y", "c"], rounds: 3 },
  { kind: "debate", pro: "x", con: "y", judge: "c", rounds: 2 },
  { kind: "pipeline", stages: ["x", "y", "c"], rounds: 2 },
  { kind: "hub_spoke", hub: "c", spokes: ["x", "y", "y2"], rounds: 3 },
  { kind: "delegation", lead: "c", reports: { c: ["x", "y"], y: ["y2"] } },
];

/** The gateway room under `topology`, with a quorum, a watchdog, jenny's signed-for rules and maybe a visibility rule. */
function config(topology: Topology, hidden: boolean): TableConfig {
  const base = gatewayConfig(k, { id: "t-mixed", topology });
  return {
    ...base,
    owners: {
      ...base.owners,
      jenny: {
        ...base.owners.jenny!,
        auto_approve: [{ resource: "taskboard", action: "create_*" }],
        chat_approve: [{ resource: "*", action: "*" }],
      },
      ops: { ...base.owners.ops!, auto_approve: [{ resource: "prod", action: "deploy" }] },
    },
    floor: { max_bot_depth: 6 },
    termination: { any: ["rounds_exhausted", { quorum: { n: 2, of: "owners" } }, { max_entries: 60 }] },
    ...(hidden ? { visibility: { c: { kinds: ["say", "proposal", "system"] } } } : {}),
  };
}

/** One random step: [action, a, b] picks what to do, by whom, on what. */
type Step = [number, number, number];

/** Weighted: turns and task work often, pausing and leaving rarely. */
const ACTIONS = [0, 0, 0, 1, 1, 2, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 12, 13];

async function step(t: TestTable, [pick, a, b]: Step, n: number): Promise<void> {
  const action = ACTIONS[pick % ACTIONS.length]!;
  // Mostly the floor holder speaks, so topologies move on; sometimes anyone tries.
  const seat = t.holder !== null && a % 4 !== 0 ? t.holder : SEATS[a % SEATS.length]!;
  const other = SEATS[b % SEATS.length]!;
  const owner = OWNERS[b % OWNERS.length]!;
  const tasks = Object.values(t.state.tasks);
  const task = tasks.length > 0 ? tasks[b % tasks.length]! : undefined;
  const proposals = t.state.proposals;
  const write = (input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">) =>
    t.write(seat, { ...input, nonce: `step-${n}-nonce-0123456789` });
  switch (action) {
    case 0:
      return void (await write({ kind: "say", body: `${seat} says ${n}` }));
    case 1:
      return void (await write({ kind: "say", body: `${seat} to ${other}`, to: [other] }));
    case 2:
      return void (await write({ kind: "pass" }));
    case 3:
      return void (await write({ kind: "raise_hand" }));
    case 4:
      return void (await write({ kind: "proposal", body: `plan ${n}`, effects: EFFECTS[b % EFFECTS.length]! }));
    case 5:
      return void (await write({
        kind: "decision",
        body: `decided ${n}`,
        ...(b % 2 === 0 ? { effects: EFFECTS[b % EFFECTS.length]! } : {}),
      }));
    case 6:
      if (proposals.length === 0) return;
      return void (await write({
        kind: "vote",
        re: proposals[b % proposals.length]!.seq,
        choice: b % 3 === 0 ? ("no" as const) : ("yes" as const),
      }));
    case 7:
      if (!task) return;
      return void (await approve(t, task.proposal.seq, task.owner, b % 4 === 0 ? "reject" : "approve"));
    case 8:
      if (!task) return;
      return void t.l.append(
        chatApprovalDraft(t.state, {
          task: task.id,
          verdict: b % 3 === 0 ? "reject" : "approve",
          via: "telegram",
          nonce: `tap-${n}-nonce-0123456789`,
        }),
      );
    case 9:
    case 10: {
      if (!task) return;
      // Usually a seat of the task's owner runs and reports it, and anyone else checks it.
      const mine = SEATS.filter((s) => t.config.seats![s]!.owner === task.owner);
      const by = a % 5 === 0 ? seat : action === 10 && b % 2 === 1 ? other : mine[a % mine.length]!;
      const input =
        action === 9
          ? { kind: "progress" as const, task: task.id }
          : b % 2 === 0
            ? { kind: "receipt" as const, task: task.id, body: "done" }
            : { kind: "verify" as const, task: task.id, verdict: "pass" as const, body: "checked" };
      return void (await t.write(by, { ...input, nonce: `step-${n}-nonce-0123456789` }));
    }
    case 11:
      t.l.now += 30_000 * (1 + (b % 3));
      for (const id of dueTasks(t.state, t.l.now)) t.l.append(stalledDraft(t.state, id));
      return;
    case 12:
      if (!isPaused(t.state) && b % 2 === 0) return;
      return void t.l.append(
        controlDraft(t.state, {
          owner,
          action: has(t.state.pauses, owner) ? "resume" : "pause",
          via: "line",
          nonce: `ctl-${n}-nonce-0123456789`,
        }),
      );
    case 13: {
      await write({ kind: "request", request_id: `bye-${n}`, type: "shutdown", to: [other], body: "please leave" });
      if (b % 2 === 0)
        await t.write(other, {
          kind: "response",
          request_id: `bye-${n}`,
          type: "shutdown",
          verdict: "approve",
          nonce: `bye-${n}-nonce-0123456789`,
        });
      return;
    }
  }
}

describe("features mixed at random", () => {
  it("refuse only with coded errors that leave the ledger alone, and replay to the same state, CLEAN", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(TOPOLOGIES.length - 1),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(ACTIONS.length - 1), fc.nat(60), fc.nat(60)), { minLength: 10, maxLength: 60 }),
        async (topology, hidden, steps) => {
          // jenny signs the config with y's join, so her rules count; ops created it.
          const t = await TestTable.open(config(TOPOLOGIES[topology]!, hidden), ["x", "y2", "c", "h"], k);
          await endorsingJoin(t, "y");
          for (const [n, s] of steps.entries()) {
            const before = t.l.entries.length;
            try {
              await step(t, s, n);
            } catch (error) {
              if (!(error instanceof TrestleError)) throw error;
              expect(t.l.entries.length).toBe(before);
            }
          }
          expect(canonicalize(fold(t.l.entries))).toBe(canonicalize(t.state));
          // What readers and owners are sent is computed from the same ledger without failing.
          notificationsFor(t.state, t.l.entries);
          for (const seat of SEATS)
            expect(
              buildProjection(t.state, seat, { entries: t.l.entries, cursor: t.state.seq, more: false }).cursor,
            ).toBe(t.state.seq);
          const report = await verifyExport(await t.exportText(), { relayKey: k.relay.publicKeyText });
          expect(report.verdict, JSON.stringify(report.refuted)).toBe("CLEAN");
        },
      ),
      { numRuns: 60 },
    );
  });
});
